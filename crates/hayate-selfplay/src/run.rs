//! A self-play run: shards split over threads, each shard's games played by the one game runner
//! with generators seeded from (seed, shard index), so a shard's bytes depend on neither the
//! thread count nor on which worker or restart plays it.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hayate_core::Position;
use hayate_core::game::{FinishedGame, GameRules, ScoreAdjudication, Side, play_game};
use hayate_core::player::Limits;

use crate::data::{DataFormat, Label, encode_game};
use crate::model::Stamp;
use crate::openings::Opening;
use crate::players::{Evaluation, RandomAt};
use crate::rng::Rng;
use crate::shard::{ShardWriter, shard_path};

/// Random moves in the opening, as YaneuraOu's `gensfen` makes them: `count` plies drawn from
/// move numbers `min_ply..=max_ply` get a uniformly random legal move instead of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomMoves {
    /// How many random moves per game.
    pub count: u32,
    /// First move number that may be random.
    pub min_ply: u32,
    /// Last move number that may be random.
    pub max_ply: u32,
}

/// Everything a run needs.
#[derive(Clone)]
pub struct Config {
    /// The output directory (created if missing).
    pub out_dir: PathBuf,
    /// The searchers' evaluation.
    pub evaluation: Evaluation,
    /// Per-move limits (`depth` or `nodes`).
    pub limits: Limits,
    /// Transposition table per player in MiB.
    pub hash_mb: usize,
    /// Start positions, drawn at random for each game.
    pub openings: Vec<Opening>,
    /// Random moves in the opening.
    pub random: RandomMoves,
    /// A game ends when the side to move scores ≤ −limit and its opponent scored ≥ limit
    /// (0: never).
    pub eval_limit: i32,
    /// Games are drawn at this many plies (opening moves included).
    pub max_plies: usize,
    /// Positions this worker writes.
    pub positions: u64,
    /// Positions per shard.
    pub shard_size: u64,
    /// Games in parallel (one search thread each).
    pub threads: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// The data format.
    pub format: DataFormat,
    /// Which score the records carry.
    pub label: Label,
    /// This worker's index: it writes shards `worker × k … worker × k + k − 1`, where `k` is
    /// `positions / shard_size` rounded up.
    pub worker: u64,
}

impl Config {
    /// Shards per worker.
    pub fn shards_per_worker(&self) -> u64 {
        self.positions.div_ceil(self.shard_size.max(1))
    }

    /// Shard indices of this worker with their sizes in positions.
    pub fn shards(&self) -> Vec<(u64, u64)> {
        let k = self.shards_per_worker();
        let size = self.shard_size.max(1);
        // Indices saturate rather than wrap for absurd worker numbers.
        (0..k)
            .map(|j| {
                (
                    self.worker.saturating_mul(k).saturating_add(j),
                    size.min(self.positions - j * size),
                )
            })
            .collect()
    }

    fn rules(&self) -> GameRules {
        GameRules {
            max_plies: self.max_plies,
            resign: (self.eval_limit > 0).then_some(ScoreAdjudication {
                cp: self.eval_limit,
                moves: 1,
            }),
            ..GameRules::default()
        }
    }
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    /// Reading or writing the output failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A position could not be packed (a bug: game positions are legal).
    #[error("cannot pack a position: {0}")]
    Pack(#[from] hayate_records::PackedError),
    /// The configuration cannot run (no opening, a shard size of 0).
    #[error("bad configuration: {0}")]
    Config(String),
    /// Games keep ending without a searched position (e.g. every opening is already over).
    #[error("{0} games in a row gave no position to write")]
    NoPositions(u32),
}

/// Counts of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Shards written by this run.
    pub shards_written: u64,
    /// Shards already there (from an earlier run), left alone.
    pub shards_present: u64,
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Games won by Black, by White, drawn.
    pub results: [u64; 3],
    /// Games by end reason.
    pub reasons: BTreeMap<String, u64>,
    /// Times a followed net file changed and was loaded again ([`Evaluation::NnueFile`]).
    pub net_changes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Threads used.
    pub threads: usize,
}

impl Summary {
    fn add_game(&mut self, g: &FinishedGame, positions: usize) {
        self.games += 1;
        self.positions += positions as u64;
        let i = g.result.winner().map_or(2, |c| c.index());
        self.results[i] += 1;
        *self.reasons.entry(g.reason.name().to_string()).or_default() += 1;
    }

    fn merge(&mut self, o: &Summary) {
        self.shards_written += o.shards_written;
        self.games += o.games;
        self.positions += o.positions;
        for i in 0..3 {
            self.results[i] += o.results[i];
        }
        for (k, v) in &o.reasons {
            *self.reasons.entry(k.clone()).or_default() += v;
        }
    }

    /// Positions per second of wall time.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// A few lines for people.
    pub fn text(&self) -> String {
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let nets = if self.net_changes > 0 {
            format!(
                "net reloaded {} times (its file changed)\n",
                self.net_changes
            )
        } else {
            String::new()
        };
        format!(
            "shards {} written, {} already present\n{nets}games {} (black {} white {} draw {}): {}\n\
             positions {} in {:.1} s: {:.1}/s, {:.1}/s per thread ({} threads)\n",
            self.shards_written,
            self.shards_present,
            self.games,
            self.results[0],
            self.results[1],
            self.results[2],
            reasons.join(", "),
            self.positions,
            self.elapsed.as_secs_f64(),
            self.positions_per_second(),
            self.positions_per_second() / self.threads.max(1) as f64,
            self.threads
        )
    }
}

/// Runs (or resumes) a worker: writes its shards that are not in the output directory yet.
/// `progress` receives the number of positions written as they are written.
///
/// # Errors
/// [`SelfplayError`] when the output cannot be written.
pub fn run(cfg: &Config, progress: &(dyn Fn(u64) + Sync)) -> Result<Summary, SelfplayError> {
    let t0 = Instant::now();
    if cfg.openings.is_empty() || cfg.shard_size == 0 {
        return Err(SelfplayError::Config(
            "self-play needs at least one opening and a shard size above 0".into(),
        ));
    }
    let io = |path: &PathBuf| {
        let path = path.clone();
        move |source| SelfplayError::Io { path, source }
    };
    std::fs::create_dir_all(&cfg.out_dir).map_err(io(&cfg.out_dir))?;
    let ext = cfg.format.extension();
    let (todo, present): (Vec<_>, Vec<_>) = cfg
        .shards()
        .into_iter()
        .partition(|&(i, _)| !shard_path(&cfg.out_dir, i, ext).exists());
    let queue = Mutex::new(todo.into_iter());
    let threads = cfg.threads.max(1);
    let results: Vec<Result<Summary, SelfplayError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| s.spawn(|| worker_thread(cfg, &queue, progress)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Ok(Summary::default())))
            .collect()
    });
    let mut total = Summary {
        shards_present: present.len() as u64,
        threads,
        ..Summary::default()
    };
    for r in results {
        total.merge(&r?);
    }
    if let Evaluation::NnueFile(f) = &cfg.evaluation {
        total.net_changes = f.changes();
    }
    total.elapsed = t0.elapsed();
    Ok(total)
}

fn worker_thread(
    cfg: &Config,
    queue: &Mutex<std::vec::IntoIter<(u64, u64)>>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Summary, SelfplayError> {
    let mut players = Players::new(cfg);
    let mut summary = Summary::default();
    loop {
        let next = queue.lock().ok().and_then(|mut q| q.next());
        let Some((index, size)) = next else {
            return Ok(summary);
        };
        write_shard(cfg, index, size, &mut players, &mut summary, progress)?;
    }
}

/// The two players of a thread and the version of the followed net they play with.
struct Players {
    pair: [RandomAt; 2],
    stamp: Option<Stamp>,
}

impl Players {
    fn new(cfg: &Config) -> Players {
        let (evaluation, stamp) = match &cfg.evaluation {
            Evaluation::NnueFile(f) => {
                let (stamp, net) = f.current();
                (Evaluation::Nnue(net), Some(stamp))
            }
            other => (other.clone(), None),
        };
        Players {
            pair: [
                RandomAt::new(evaluation.player(cfg.hash_mb)),
                RandomAt::new(evaluation.player(cfg.hash_mb)),
            ],
            stamp,
        }
    }

    /// Between games: new players (with new tables, which a new game clears anyway) when the
    /// followed net changed.
    fn refresh(&mut self, cfg: &Config) {
        if let Evaluation::NnueFile(f) = &cfg.evaluation
            && self.stamp.as_ref() != Some(&f.current().0)
        {
            *self = Players::new(cfg);
        }
    }
}

/// Plays games until shard `index` holds `size` positions, then renames it into place.
fn write_shard(
    cfg: &Config,
    index: u64,
    size: u64,
    players: &mut Players,
    summary: &mut Summary,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(), SelfplayError> {
    let ext = cfg.format.extension();
    let path = shard_path(&cfg.out_dir, index, ext);
    let io = |source| SelfplayError::Io {
        path: path.clone(),
        source,
    };
    let mut w = ShardWriter::create(&cfg.out_dir, index, ext).map_err(io)?;
    let mut rng = Rng::for_shard(cfg.seed, index);
    let (mut written, mut empty) = (0u64, 0u32);
    let mut buf = Vec::new();
    let static_eval = |pos: &Position| cfg.evaluation.static_eval(pos);
    let relabel: Option<&dyn Fn(&Position) -> i32> = match cfg.label {
        Label::Search => None,
        Label::Static => Some(&static_eval),
    };
    while written < size {
        players.refresh(cfg);
        let game = play_one(cfg, &mut rng, &mut players.pair);
        buf.clear();
        let n = encode_game(
            &game,
            cfg.format,
            (size - written) as usize,
            &mut buf,
            relabel,
        )?;
        w.write(&buf).map_err(io)?;
        written += n as u64;
        summary.add_game(&game, n);
        progress(n as u64);
        empty = if n == 0 { empty + 1 } else { 0 };
        if empty >= 100 {
            return Err(SelfplayError::NoPositions(empty));
        }
    }
    w.finish().map_err(io)?;
    summary.shards_written += 1;
    Ok(())
}

/// One game: an opening drawn from the list, random plies drawn from the range, both sides
/// searched to the same limits.
fn play_one(cfg: &Config, rng: &mut Rng, players: &mut [RandomAt; 2]) -> FinishedGame {
    let opening = &cfg.openings[rng.below(cfg.openings.len() as u64) as usize];
    let plies = random_plies(cfg.random, rng);
    for p in players.iter_mut() {
        p.set_random(plies.clone(), Rng::new(rng.next_u64()));
    }
    let [b, w] = players;
    let sides = [side(b, &cfg.limits), side(w, &cfg.limits)];
    play_game(
        &opening.start_position(),
        &opening.moves,
        sides,
        &cfg.rules(),
    )
}

fn side<'a>(player: &'a mut RandomAt, limits: &Limits) -> Side<'a> {
    Side {
        player,
        time_control: None,
        limits: limits.clone(),
    }
}

/// `count` distinct move numbers from `min_ply..=max_ply` (all of them when the range is
/// smaller).
fn random_plies(r: RandomMoves, rng: &mut Rng) -> Vec<u32> {
    let mut range: Vec<u32> = (r.min_ply..=r.max_ply).collect();
    let mut out = Vec::new();
    while out.len() < r.count as usize && !range.is_empty() {
        let i = rng.below(range.len() as u64) as usize;
        out.push(range.swap_remove(i));
    }
    out
}
