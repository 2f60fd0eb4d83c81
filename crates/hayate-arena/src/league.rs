//! Runs a league: worker threads (one per concurrent game) each keep their own engine processes,
//! take the next missing game from the schedule, and hand finished games to the main thread,
//! which writes the CSA record, appends the result line and decides whether to stop (SPRT).

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::sync_channel;

use hayate_core::Color;
use hayate_records::game::csa::write_csa;
use hayate_records::game::record::keys;

use crate::clock::{TimeControl, csa_time_limit};
use crate::config::EngineConfig;
use crate::game::{GameRules, PlayedGame, Side, forfeit, play_game};
use crate::openings::Opening;
use crate::process::{EngineError, EngineProcess, Timeouts};
use crate::rating::Wdl;
use crate::results::{GameEntry, ResultsError, ResultsFile};
use crate::schedule::{Format, Pairing, Schedule, ScheduleError};
use crate::sprt::SprtDecision;
use crate::summary::{Summary, summarize};

/// After this many failed starts in a row of one engine, the league stops (the engine is
/// misconfigured; forfeiting every game would only hide that).
const MAX_START_FAILURES: u32 = 3;

/// Everything a league needs.
#[derive(Clone, Debug)]
pub struct League {
    /// The engines (names unique).
    pub engines: Vec<EngineConfig>,
    /// Round robin, gauntlet or SPRT.
    pub format: Format,
    /// Games per pair (for SPRT: the cap).
    pub games_per_pair: u64,
    /// Openings; empty means the start position.
    pub openings: Vec<Opening>,
    /// The match's time control (engines may override it).
    pub time_control: TimeControl,
    /// Ply limit, margin, adjudication.
    pub rules: GameRules,
    /// Games played at once.
    pub concurrency: usize,
    /// Folder for `results.jsonl` and `games/*.csa`.
    pub out_dir: PathBuf,
    /// Handshake and answer timeouts.
    pub timeouts: Timeouts,
    /// Show a progress bar on the terminal.
    pub progress: bool,
    /// Stop after this many new games (to split a run; the rest is played on the next run).
    pub max_new_games: Option<u64>,
    /// Log every engine's USI traffic to `<out_dir>/logs/w<worker>-<engine>.log`.
    pub log_traffic: bool,
}

impl League {
    /// A round robin with defaults: one game at a time, byoyomi 1 s, start position.
    pub fn new(engines: Vec<EngineConfig>, out_dir: impl Into<PathBuf>) -> League {
        League {
            engines,
            format: Format::RoundRobin,
            games_per_pair: 2,
            openings: Vec::new(),
            time_control: TimeControl::byoyomi(1000),
            rules: GameRules::default(),
            concurrency: 1,
            out_dir: out_dir.into(),
            timeouts: Timeouts::default(),
            progress: false,
            max_new_games: None,
            log_traffic: false,
        }
    }

    /// The engines' names.
    pub fn names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }

    /// The results file's path.
    pub fn results_path(&self) -> PathBuf {
        self.out_dir.join("results.jsonl")
    }
}

/// What stops a league.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// The schedule cannot be built.
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    /// The results file failed.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// The results file holds a game this league would not schedule.
    #[error(
        "{path}: game {id} ({black} vs {white}) is not in this league's schedule; use another --out folder"
    )]
    ForeignResults {
        /// The file.
        path: PathBuf,
        /// The game.
        id: u64,
        /// Black's name there.
        black: String,
        /// White's name there.
        white: String,
    },
    /// An engine would be given no time and no depth or node limit.
    #[error(
        "engine {0:?} has no time (set a time control, or `go = \"depth N\"` in the engines file)"
    )]
    NoTime(String),
    /// Writing a record or creating the folder failed.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// An engine could not be started several times in a row.
    #[error("stopping: {0}")]
    EngineFailure(String),
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// Games found in the results file at the start.
    pub resumed: usize,
    /// Games played in this run.
    pub played: usize,
    /// The summary of every game in the file.
    pub summary: Summary,
}

/// Runs (or resumes) a league until every scheduled game is in the results file, the SPRT
/// decides, or `max_new_games` is reached.
///
/// # Errors
/// [`ArenaError`] for a bad schedule, a foreign or unwritable results file, an engine with no
/// time, or an engine that cannot be started.
pub fn run(league: &League) -> Result<RunOutcome, ArenaError> {
    let schedule = Schedule::new(
        league.format,
        league.engines.len(),
        league.games_per_pair,
        league.openings.len(),
    )?;
    for e in &league.engines {
        let tc = e.time_control.unwrap_or(league.time_control);
        if tc.is_zero() && e.go_extra.is_empty() {
            return Err(ArenaError::NoTime(e.name.clone()));
        }
    }
    if league.log_traffic {
        let logs = league.out_dir.join("logs");
        std::fs::create_dir_all(&logs).map_err(|source| ArenaError::Io {
            path: logs.clone(),
            source,
        })?;
    }
    let games_dir = league.out_dir.join("games");
    std::fs::create_dir_all(&games_dir).map_err(|source| ArenaError::Io {
        path: games_dir.clone(),
        source,
    })?;
    let results_path = league.results_path();
    let mut results = ResultsFile::open(&results_path)?;
    let names = league.names();
    let mut done = std::collections::HashSet::new();
    for e in &results.entries {
        let ok = schedule.game(e.id).is_some_and(|p| {
            names[p.black] == e.black && names[p.white] == e.white && p.opening == e.opening
        });
        if !ok {
            return Err(ArenaError::ForeignResults {
                path: results_path,
                id: e.id,
                black: e.black.clone(),
                white: e.white.clone(),
            });
        }
        done.insert(e.id);
    }
    let resumed = results.entries.len();
    let sprt = match league.format {
        Format::Sprt(p) => Some(p),
        _ => None,
    };
    // Engine 0's W/D/L against engine 1, kept up to date for the SPRT stop.
    let mut wdl = Wdl::default();
    for e in &results.entries {
        add_to_first(&mut wdl, &names, e);
    }
    let decided = |w: Wdl| sprt.is_some_and(|p| p.decide(w) != SprtDecision::Continue);
    let remaining = schedule.total().saturating_sub(done.len() as u64);
    let mut played = 0usize;
    if remaining > 0 && !decided(wdl) && league.max_new_games != Some(0) {
        // Lazily: an SPRT cap may be large.
        let cap = league.max_new_games.unwrap_or(u64::MAX).min(remaining);
        let pending = (0..schedule.total())
            .filter(move |id| !done.contains(id))
            .take(usize::try_from(cap).unwrap_or(usize::MAX));
        played = play_pending(
            league,
            &schedule,
            PendingGames {
                ids: Box::new(pending),
                count: cap,
            },
            &mut results,
            &names,
            (wdl, &decided),
        )?;
    }
    let summary = summarize(&names, &results.entries, sprt);
    Ok(RunOutcome {
        resumed,
        played,
        summary,
    })
}

/// The games still to play, in order, and how many there are.
struct PendingGames<'a> {
    ids: Box<dyn Iterator<Item = u64> + Send + 'a>,
    count: u64,
}

/// Adds a stored game to engine 0's W/D/L against engine 1 (other pairs are ignored).
fn add_to_first(wdl: &mut Wdl, names: &[String], e: &GameEntry) {
    if names.len() < 2 {
        return;
    }
    let first_points = if e.black == names[0] && e.white == names[1] {
        e.result.black_points()
    } else if e.black == names[1] && e.white == names[0] {
        1.0 - e.result.black_points()
    } else {
        return;
    };
    if first_points > 0.75 {
        wdl.wins += 1;
    } else if first_points < 0.25 {
        wdl.losses += 1;
    } else {
        wdl.draws += 1;
    }
}

fn play_pending(
    league: &League,
    schedule: &Schedule,
    pending: PendingGames<'_>,
    results: &mut ResultsFile,
    names: &[String],
    (mut wdl, decided): (Wdl, &dyn Fn(Wdl) -> bool),
) -> Result<usize, ArenaError> {
    let total = pending.count;
    let queue = Mutex::new(pending.ids);
    let stop = AtomicBool::new(false);
    let fatal: Mutex<Option<String>> = Mutex::new(None);
    // A rendezvous channel: a worker waits until its game is taken, so workers never run ahead of
    // the results file and the SPRT stop (at most one game per worker finishes after it).
    let (tx, rx) = sync_channel::<(Pairing, PlayedGame)>(0);
    let bar = if league.progress {
        indicatif::ProgressBar::new(total)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games [{elapsed_precise} < {eta_precise}] {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let start_openings = [Opening::startpos()];
    let openings: &[Opening] = if league.openings.is_empty() {
        &start_openings
    } else {
        &league.openings
    };
    let workers = league
        .concurrency
        .max(1)
        .min(usize::try_from(total).unwrap_or(usize::MAX));
    let mut played = 0usize;
    let mut write_error = None;
    std::thread::scope(|scope| {
        for w in 0..workers {
            let tx = tx.clone();
            let (queue, stop, fatal) = (&queue, &stop, &fatal);
            scope.spawn(move || worker(w, league, schedule, openings, queue, stop, fatal, tx));
        }
        drop(tx);
        for (p, game) in rx {
            match record_game(league, names, &p, &game, results) {
                Ok(()) => {}
                Err(e) => {
                    write_error = Some(e);
                    stop.store(true, Ordering::SeqCst);
                    continue;
                }
            }
            played += 1;
            bar.inc(1);
            if game.reason.is_engine_fault() {
                // Shown above the bar as it happens; the summary lists them all again.
                bar.println(format!(
                    "game {}: {} - {}: {}: {}",
                    p.id, names[p.black], names[p.white], game.reason, game.detail
                ));
            }
            if let Some(last) = results.entries.last() {
                add_to_first(&mut wdl, names, last);
            }
            if let Format::Sprt(params) = league.format {
                bar.set_message(format!(
                    "LLR {:.2} [{:.2}, {:.2}]",
                    params.llr(wdl),
                    params.lower_bound(),
                    params.upper_bound()
                ));
            } else {
                bar.set_message(format!(
                    "last: {} - {} {:?} ({})",
                    game.record.players[0], game.record.players[1], game.result, game.reason
                ));
            }
            if decided(wdl) {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }
    if let Some(msg) = fatal.lock().ok().and_then(|mut f| f.take()) {
        return Err(ArenaError::EngineFailure(msg));
    }
    Ok(played)
}

fn record_game(
    league: &League,
    names: &[String],
    p: &Pairing,
    game: &PlayedGame,
    results: &mut ResultsFile,
) -> Result<(), ArenaError> {
    let rel = format!(
        "games/{:06}-{}-vs-{}.csa",
        p.id, names[p.black], names[p.white]
    );
    let path = league.out_dir.join(&rel);
    let mut rec = game.record.clone();
    rec.metadata
        .push((keys::EVENT.to_string(), "hayate arena".to_string()));
    let tcs = [p.black, p.white].map(|i| {
        league.engines[i]
            .time_control
            .unwrap_or(league.time_control)
    });
    // `$TIME_LIMIT` has whole seconds only; sub-second controls are in the comment below.
    if tcs[0] == tcs[1]
        && tcs[0].increment_ms == 0
        && tcs[0].base_ms.is_multiple_of(60_000)
        && tcs[0].byoyomi_ms.is_multiple_of(1000)
    {
        rec.metadata
            .push((keys::TIME_LIMIT.to_string(), csa_time_limit(&tcs[0])));
    }
    rec.comments.insert(
        0,
        format!(
            "game {} opening {} time {} / {}",
            p.id, p.opening, tcs[0], tcs[1]
        ),
    );
    let text = write_csa(&rec).map_err(|e| ArenaError::Io {
        path: path.clone(),
        source: std::io::Error::other(e.to_string()),
    })?;
    std::fs::write(&path, text).map_err(|source| ArenaError::Io {
        path: path.clone(),
        source,
    })?;
    results.append(&GameEntry {
        id: p.id,
        black: names[p.black].clone(),
        white: names[p.white].clone(),
        opening: p.opening,
        result: game.result,
        reason: game.reason,
        plies: game.plies(),
        record: rel,
        detail: game.detail.clone(),
    })?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn worker(
    worker_index: usize,
    league: &League,
    schedule: &Schedule,
    openings: &[Opening],
    queue: &Mutex<Box<dyn Iterator<Item = u64> + Send + '_>>,
    stop: &AtomicBool,
    fatal: &Mutex<Option<String>>,
    tx: std::sync::mpsc::SyncSender<(Pairing, PlayedGame)>,
) {
    let n = league.engines.len();
    let mut procs: Vec<Option<EngineProcess>> = (0..n).map(|_| None).collect();
    let mut failures = vec![0u32; n];
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let next = queue.lock().ok().and_then(|mut q| q.next());
        let Some(id) = next else { break };
        let Some(p) = schedule.game(id) else { break };
        let opening = &openings[p.opening.min(openings.len() - 1)];
        // Start whichever of the two is missing or dead, both at once (engines may take
        // seconds to build their tables in `isready`).
        let need: Vec<(usize, Color)> = [(p.black, Color::Black), (p.white, Color::White)]
            .into_iter()
            .filter(|&(i, _)| procs[i].as_ref().is_none_or(|e| e.is_dead()))
            .collect();
        let started: Vec<(usize, Color, Result<EngineProcess, EngineError>)> =
            std::thread::scope(|sc| {
                let handles: Vec<_> = need
                    .iter()
                    .map(|&(i, c)| {
                        let cfg = &league.engines[i];
                        let t = league.timeouts;
                        let log = league.log_traffic.then(|| {
                            league
                                .out_dir
                                .join("logs")
                                .join(format!("w{worker_index}-{}.log", cfg.name))
                        });
                        let h =
                            sc.spawn(move || EngineProcess::start_logged(cfg, t, log.as_deref()));
                        (i, c, h)
                    })
                    .collect();
                handles
                    .into_iter()
                    .filter_map(|(i, c, h)| h.join().ok().map(|r| (i, c, r)))
                    .collect()
            });
        let mut failed = None;
        for (idx, colour, r) in started {
            // A dead engine (crash, hang, kill) is replaced by the fresh process.
            procs[idx] = None;
            match r {
                Ok(e) => {
                    procs[idx] = Some(e);
                    failures[idx] = 0;
                }
                Err(e) => {
                    failures[idx] += 1;
                    if failures[idx] >= MAX_START_FAILURES {
                        if let Ok(mut f) = fatal.lock() {
                            f.get_or_insert(format!(
                                "{e} ({MAX_START_FAILURES} failed starts in a row)"
                            ));
                        }
                        stop.store(true, Ordering::SeqCst);
                    }
                    // Black's failure is reported first if both fail.
                    if failed.is_none() {
                        failed = Some((colour, e.to_string()));
                    }
                }
            }
        }
        let game = match (failed, procs.get_disjoint_mut([p.black, p.white])) {
            (Some((c, msg)), _) => forfeit(
                opening,
                [&league.engines[p.black].name, &league.engines[p.white].name],
                c,
                msg,
            ),
            (None, Ok([Some(b), Some(w)])) => {
                let cfg = |i: usize| &league.engines[i];
                play_game(
                    opening,
                    [
                        Side {
                            engine: b,
                            time_control: cfg(p.black).time_control.unwrap_or(league.time_control),
                            go_extra: &cfg(p.black).go_extra,
                        },
                        Side {
                            engine: w,
                            time_control: cfg(p.white).time_control.unwrap_or(league.time_control),
                            go_extra: &cfg(p.white).go_extra,
                        },
                    ],
                    &league.rules,
                )
            }
            // Unreachable: both were started above and the indices differ.
            _ => break,
        };
        if tx.send((p, game)).is_err() {
            break;
        }
    }
    EngineProcess::quit_all(procs.into_iter().flatten().collect());
}
