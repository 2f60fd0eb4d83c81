//! A tuning run: SPSA ([`crate::spsa`]) over an engine's `spin` options. Each iteration is a
//! game pair (one opening, both colours) between the two perturbed settings, played by the
//! arena's own league in `<out>/iter-<k>/`; several pairs may run at once, all perturbed around
//! the same values, their updates applied in order afterwards. After the pairs the state is
//! rewritten (`<out>/state.json`, through a temporary file and a rename), a line per pair is
//! appended to `<out>/history.csv` and the pairs' folders removed; a run killed mid-batch
//! resumes that batch (the same settings: the signs derive from the seed and `k`); one killed
//! after the state was written may miss those iterations' history lines, never a step.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::clock::TimeControl;
use crate::config::EngineConfig;
use crate::game::GameRules;
use crate::league::{ArenaError, League, run};
use crate::openings::Opening;
use crate::process::Timeouts;
use crate::schedule::Format;
use crate::spsa::{Perturbation, Spsa};

/// What a tuning run plays.
#[derive(Clone, Debug)]
pub struct Tuning {
    /// The engine (its options are sent before the tuned ones).
    pub engine: EngineConfig,
    /// Openings, taken in turn (one per iteration); empty means the start position.
    pub openings: Vec<Opening>,
    /// The games' time control.
    pub time_control: TimeControl,
    /// Ply limit, margin, adjudication.
    pub rules: GameRules,
    /// Handshake and answer timeouts.
    pub timeouts: Timeouts,
    /// Folder of `state.json`, `history.csv` and the pairs in progress.
    pub out_dir: PathBuf,
    /// Pairs played at once (each pair's two games run side by side: two cores a pair).
    pub pairs_at_once: usize,
}

/// Why a tuning run stopped.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A game pair could not be played.
    #[error(transparent)]
    Arena(#[from] ArenaError),
    /// The state or history could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// `state.json` is not a tuning state.
    #[error("{path}: {message}")]
    State {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TuneError + '_ {
    move |source| TuneError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The state saved in `out_dir`, if any.
///
/// # Errors
/// An unreadable or malformed `state.json`.
pub fn load_state(out_dir: &Path) -> Result<Option<Spsa>, TuneError> {
    let path = out_dir.join("state.json");
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| TuneError::State {
                path,
                message: e.to_string(),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(&path)(e)),
    }
}

/// Writes `state.json` whole or not at all.
fn save_state(out_dir: &Path, spsa: &Spsa) -> Result<(), TuneError> {
    let path = out_dir.join("state.json");
    let tmp = out_dir.join("state.json.tmp");
    let text = serde_json::to_string_pretty(spsa).map_err(|e| TuneError::State {
        path: path.clone(),
        message: e.to_string(),
    })?;
    let mut f = std::fs::File::create(&tmp).map_err(io(&tmp))?;
    f.write_all(text.as_bytes()).map_err(io(&tmp))?;
    f.sync_all().map_err(io(&tmp))?;
    std::fs::rename(&tmp, &path).map_err(io(&path))
}

/// Appends iteration `k`'s line to `history.csv` (a header first on a new file) with the
/// values after its batch.
fn append_history(out_dir: &Path, spsa: &Spsa, k: u64, result: f64) -> Result<(), TuneError> {
    let path = out_dir.join("history.csv");
    let new = !path.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(io(&path))?;
    let mut line = String::new();
    if new {
        let names: Vec<&str> = spsa.params.iter().map(|p| p.name.as_str()).collect();
        line.push_str(&format!("k,result,{}\n", names.join(",")));
    }
    let theta: Vec<String> = spsa.theta.iter().map(|t| format!("{t:.2}")).collect();
    line.push_str(&format!("{k},{result},{}\n", theta.join(",")));
    f.write_all(line.as_bytes()).map_err(io(&path))
}

/// Plays iteration `k`'s pair (`p`'s two settings, in `<out>/iter-<k>/`) and returns the
/// points of `plus` less those of `minus`.
fn play_pair(t: &Tuning, spsa: &Spsa, k: u64, p: &Perturbation) -> Result<f64, TuneError> {
    let setting = |name: &str, values: &[i64]| {
        let mut e = t.engine.clone();
        e.name = name.into();
        for (q, v) in spsa.params.iter().zip(values) {
            e = e.option(&q.name, &v.to_string());
        }
        e
    };
    let opening = (!t.openings.is_empty())
        .then(|| t.openings[((k - 1) % t.openings.len() as u64) as usize].clone());
    let mut league = League::new(
        vec![setting("plus", &p.plus), setting("minus", &p.minus)],
        t.out_dir.join(format!("iter-{k}")),
    );
    league.format = Format::RoundRobin;
    league.games_per_pair = 2;
    league.openings = opening.into_iter().collect();
    league.time_control = t.time_control;
    league.rules = t.rules;
    league.concurrency = 2;
    league.timeouts = t.timeouts;
    league.progress = false;
    let outcome = run(&league)?;
    let w = outcome.summary.crosstable.get(0, 1);
    Ok(f64::from(w.wins) - f64::from(w.losses))
}

/// Runs iterations until `spsa.k == spsa.iterations`, `t.pairs_at_once` pairs at a time (each
/// perturbed around the same values, then the updates applied in order), calling
/// `on_iteration` after each with the state after its batch, the iteration and the pair's
/// result (points of the `+` setting less the `−` setting's).
///
/// # Errors
/// A pair that cannot be played (an engine that does not start) or a file that cannot be
/// written; the state on disk is that of the last whole batch of pairs.
pub fn run_tuning(
    t: &Tuning,
    spsa: &mut Spsa,
    mut on_iteration: impl FnMut(&Spsa, u64, f64),
) -> Result<(), TuneError> {
    std::fs::create_dir_all(&t.out_dir).map_err(io(&t.out_dir))?;
    save_state(&t.out_dir, spsa)?;
    // Pairs already in the state (a run killed before it removed their folder).
    for k in 1..=spsa.k {
        let _ = std::fs::remove_dir_all(t.out_dir.join(format!("iter-{k}")));
    }
    while spsa.k < spsa.iterations {
        let last = (spsa.k + t.pairs_at_once.max(1) as u64).min(spsa.iterations);
        let batch: Vec<(u64, Perturbation)> = (spsa.k + 1..=last)
            .map(|k| (k, spsa.perturb_at(k)))
            .collect();
        let current = &*spsa;
        let results: Vec<Result<f64, TuneError>> = std::thread::scope(|s| {
            let handles: Vec<_> = batch
                .iter()
                .map(|(k, p)| s.spawn(move || play_pair(t, current, *k, p)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let results = results.into_iter().collect::<Result<Vec<f64>, _>>()?;
        for ((_, p), &result) in batch.iter().zip(&results) {
            spsa.update(p, result);
        }
        save_state(&t.out_dir, spsa)?;
        for ((k, _), &result) in batch.iter().zip(&results) {
            append_history(&t.out_dir, spsa, *k, result)?;
            // The pair is in the state now; its records are not needed.
            let _ = std::fs::remove_dir_all(t.out_dir.join(format!("iter-{k}")));
            on_iteration(spsa, *k, result);
        }
    }
    Ok(())
}
