//! `hayate csa --config csa.toml`: play on a CSA protocol server (floodgate, championships)
//! through `hayate-csa`. The config format is in `crates/hayate-csa/README.md`.

use anyhow::Context;
use hayate_core::player::Player;
use hayate_csa::{Client, Log, Outcome, RandomPlayer, SessionReport, Settings};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Arguments of `hayate csa`.
#[derive(clap::Args)]
pub struct Args {
    /// The TOML config: server, id, password source, games, engine options.
    #[arg(long)]
    config: PathBuf,
    /// Games to play, overriding the config (0 = forever).
    #[arg(long)]
    games: Option<u32>,
}

/// The player that plays the games: the same engine as the USI loop (αβ over `EvalType`,
/// KKPEE9 by default), configured by `[engine.options]`. `EvalType = "random"` picks a
/// stand-in that plays random legal moves (for testing a server connection cheaply).
fn make_player(cfg: &Settings) -> Box<dyn Player> {
    let random = cfg
        .engine_options
        .iter()
        .any(|(n, v)| n == "EvalType" && v == "random");
    if random {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        return Box::new(RandomPlayer::new(seed));
    }
    Box::new(crate::engine::EngineHost::new())
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let mut settings = Settings::load(&a.config, &|var| std::env::var(var).ok())
        .with_context(|| format!("config {}", a.config.display()))?;
    if let Some(g) = a.games {
        settings.games = (g > 0).then_some(g);
    }
    let log = Log::stderr();
    if settings.keepalive < Duration::from_secs(30) {
        log.line(format!(
            "warning: keepalive_secs = {} is under the 30 s the CSA spec allows",
            settings.keepalive.as_secs()
        ));
    }
    let player = make_player(&settings);
    // The stand-in takes no options; the engine takes all of them.
    if settings
        .engine_options
        .iter()
        .any(|(n, v)| n == "EvalType" && v == "random")
    {
        settings.engine_options.retain(|(n, _)| n != "EvalType");
    }
    let mut client = Client::new(settings, player, log.clone())?;
    stop_on_ctrl_c(client.stop_flag());
    let result = client.run();
    print_summary(client.report());
    result?;
    Ok(())
}

/// The last line: the games and how they ended (printed also when the session failed).
fn print_summary(report: &SessionReport) {
    let count = |o: Outcome| report.games.iter().filter(|g| g.outcome == Some(o)).count();
    println!(
        "games {} win {} lose {} draw {} censored {} rejected {} failures {}",
        report.games.iter().filter(|g| !g.rejected).count(),
        count(Outcome::Win),
        count(Outcome::Lose),
        count(Outcome::Draw),
        count(Outcome::Censored),
        report.games.iter().filter(|g| g.rejected).count(),
        report.failures
    );
}

/// The client's stop flag, for the Ctrl-C handler.
static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The first Ctrl-C stops the session cleanly (the game in progress is recorded); a second
/// one ends the process at once.
fn stop_on_ctrl_c(stop: Arc<AtomicBool>) {
    let _ = STOP.set(stop);
    install_sigint();
}

#[cfg(unix)]
fn install_sigint() {
    // SAFETY: the handler only stores to an atomic and calls `signal`, both async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, on_sigint as *const () as libc::sighandler_t);
    }
}

#[cfg(not(unix))]
fn install_sigint() {}

#[cfg(unix)]
extern "C" fn on_sigint(_: libc::c_int) {
    if let Some(stop) = STOP.get() {
        stop.store(true, Ordering::Relaxed);
    }
    // SAFETY: `signal` is async-signal-safe; SIG_DFL makes the next Ctrl-C end the process.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}
