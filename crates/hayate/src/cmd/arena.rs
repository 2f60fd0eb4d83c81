//! `hayate match`: a league, gauntlet or SPRT match between USI engines (see `hayate-arena`).
//!
//! ```text
//! hayate match --engines engines.toml --out runs/a --games 100 --byoyomi 100 --concurrency 2 \
//!     --report runs/a.html
//! ```
//! Results go to `<out>/results.jsonl` (one line per game, appended as games end; run the same
//! command again to resume) and `<out>/games/*.csa`; `<out>/games.txt` lists the games.

use std::path::{Component, Path, PathBuf};

use anyhow::Context;
use hayate_arena::{
    Format, GameRules, League, ScoreAdjudication, SprtParams, TimeControl, Timeouts, load_engines,
    parse_openings, report, run as run_league,
};

/// The game limits `hayate match` and `hayate tune` share.
#[derive(clap::Args)]
pub struct GameLimits {
    /// Ms a move may overrun its clock before it loses on time.
    #[arg(long, default_value_t = 200)]
    pub margin: u64,
    /// Plies after which the game is a draw (opening moves count).
    #[arg(long, default_value_t = 320)]
    pub max_plies: usize,
}

/// Arguments of `hayate match`.
#[derive(clap::Args)]
pub struct Args {
    /// Engines file (TOML: `[[engine]]` with name, path, args, working_dir, go, time/byoyomi/inc,
    /// `[engine.options]`).
    #[arg(long)]
    engines: PathBuf,
    /// Output folder for results.jsonl, games/*.csa and games.txt (reused to resume).
    #[arg(long)]
    out: PathBuf,
    /// round-robin, gauntlet (the first engine against the others) or sprt (two engines).
    #[arg(long, default_value = "round-robin")]
    format: String,
    /// Games per pair (for sprt: the most games before giving up).
    #[arg(long, default_value_t = 2)]
    games: u64,
    /// Main time per side in ms.
    #[arg(long, default_value_t = 0)]
    time: u64,
    /// Byoyomi in ms (ignored with --inc).
    #[arg(long, default_value_t = 1000)]
    byoyomi: u64,
    /// Fischer increment in ms.
    #[arg(long, default_value_t = 0)]
    inc: u64,
    #[command(flatten)]
    limits: GameLimits,
    /// Openings file (SFEN or `startpos moves ...` per line; each played with colours swapped).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// SPRT: Elo of H0.
    #[arg(long, default_value_t = 0.0)]
    elo0: f64,
    /// SPRT: Elo of H1.
    #[arg(long, default_value_t = 10.0)]
    elo1: f64,
    /// SPRT: false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// SPRT: false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Adjudicate a loss when both engines' scores agree beyond this many centipawns.
    #[arg(long)]
    resign_cp: Option<i32>,
    /// ... for this many moves of each side.
    #[arg(long, default_value_t = 3)]
    resign_moves: usize,
    /// Adjudicate a draw when both engines' scores stay within this many centipawns.
    #[arg(long)]
    draw_cp: Option<i32>,
    /// ... for this many moves of each side.
    #[arg(long, default_value_t = 8)]
    draw_moves: usize,
    /// ... from this ply on.
    #[arg(long, default_value_t = 160)]
    draw_min_ply: usize,
    /// Ms to wait for `usiok`.
    #[arg(long, default_value_t = 10_000)]
    usi_timeout: u64,
    /// Ms to wait for `readyok`.
    #[arg(long, default_value_t = 30_000)]
    ready_timeout: u64,
    /// Write an HTML report here.
    #[arg(long)]
    report: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Log every engine's USI traffic to `<out>/logs/`.
    #[arg(long)]
    log: bool,
}

/// Runs (or resumes) the event, prints the ratings, and writes the report.
pub fn run(a: Args) -> anyhow::Result<()> {
    let engines = load_engines(&a.engines)?;
    let openings = match &a.openings {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read openings {}", p.display()))?;
            let o = parse_openings(&text)?;
            anyhow::ensure!(!o.is_empty(), "{} has no opening", p.display());
            o
        }
        None => Vec::new(),
    };
    let format = match a.format.as_str() {
        "round-robin" | "roundrobin" | "rr" => Format::RoundRobin,
        "gauntlet" => Format::Gauntlet,
        "sprt" => {
            anyhow::ensure!(
                a.alpha > 0.0 && a.alpha < 1.0 && a.beta > 0.0 && a.beta < 1.0,
                "alpha and beta must be in (0, 1)"
            );
            anyhow::ensure!(a.elo1 != a.elo0, "elo0 and elo1 must differ");
            Format::Sprt(SprtParams {
                elo0: a.elo0,
                elo1: a.elo1,
                alpha: a.alpha,
                beta: a.beta,
            })
        }
        other => anyhow::bail!("unknown format {other:?} (round-robin, gauntlet, sprt)"),
    };
    let time_control = if a.inc > 0 {
        TimeControl::fischer(a.time, a.inc)
    } else {
        TimeControl {
            base_ms: a.time,
            byoyomi_ms: a.byoyomi,
            increment_ms: 0,
        }
    };
    let league = League {
        engines,
        format,
        games_per_pair: a.games,
        openings,
        time_control,
        rules: GameRules {
            max_plies: a.limits.max_plies,
            margin_ms: a.limits.margin,
            resign: a.resign_cp.map(|cp| ScoreAdjudication {
                cp,
                moves: a.resign_moves,
            }),
            draw: a.draw_cp.map(|cp| ScoreAdjudication {
                cp,
                moves: a.draw_moves,
            }),
            draw_min_ply: a.draw_min_ply,
            ..GameRules::default()
        },
        concurrency: a.concurrency.max(1),
        out_dir: a.out.clone(),
        timeouts: Timeouts {
            usi_ms: a.usi_timeout,
            ready_ms: a.ready_timeout,
            ..Timeouts::default()
        },
        progress: !a.quiet,
        max_new_games: None,
        log_traffic: a.log,
    };
    let t0 = std::time::Instant::now();
    let outcome = run_league(&league)?;
    let s = &outcome.summary;
    println!(
        "{} games ({} from an earlier run, {} now, {:.1} s)\n",
        s.games.len(),
        outcome.resumed,
        outcome.played,
        t0.elapsed().as_secs_f64()
    );
    print!("{}", s.text());
    let list = a.out.join("games.txt");
    std::fs::write(&list, s.game_lines())
        .with_context(|| format!("cannot write {}", list.display()))?;
    if let Some(path) = &a.report {
        let prefix = record_prefix(path, &a.out);
        let title = format!("Hayate arena: {}", a.out.display());
        std::fs::write(path, report::html(s, &title, &prefix))
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("\nreport: {}", path.display());
    }
    Ok(())
}

/// The link prefix from the report's folder to the output folder (`""`, `"runs/a/"`, or an
/// absolute path when neither is inside the other).
fn record_prefix(report: &Path, out: &Path) -> String {
    let abs = |p: &Path| {
        std::path::absolute(p)
            .unwrap_or_else(|_| p.to_path_buf())
            .components()
            .filter(|c| *c != Component::CurDir)
            .collect::<PathBuf>()
    };
    let report_dir = abs(report.parent().unwrap_or(Path::new(".")));
    let out = abs(out);
    match out.strip_prefix(&report_dir) {
        Ok(rel) if rel.as_os_str().is_empty() => String::new(),
        Ok(rel) => format!("{}/", rel.display()),
        Err(_) => format!("file://{}/", out.display()),
    }
}
