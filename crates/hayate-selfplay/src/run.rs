//! A self-play run: shards split over threads, each shard's games played by the one game runner
//! with generators seeded from (seed, shard index), so a shard's bytes depend on neither the
//! thread count nor on which worker or restart plays it (αβ players with a fixed evaluation;
//! MCTS games also depend on how the network calls were batched and on the draw-rate control's
//! counts).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hayate_core::Position;
use hayate_core::game::{FinishedGame, GameRules, ScoreAdjudication, Side, play_game};
use hayate_core::player::Limits;

use crate::data::{DataFormat, Label, encode_game, encode_hcpe3};
use crate::mcts::{DrawControl, GameMeta, MctsConfig, MctsGames, result_index};
use crate::model::Stamp;
use crate::openings::Opening;
use crate::players::{Evaluation, RandomAt};
use crate::rng::Rng;
use crate::shard::{ShardWriter, shard_path, write_atomically};

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

/// Who plays the games.
#[derive(Clone)]
pub enum Engine {
    /// αβ searchers with this evaluation, to the run's `limits`, with random opening moves.
    AlphaBeta(Evaluation),
    /// The MCTS player with a network (hcpe3 data with visit counts).
    Mcts(Box<MctsConfig>),
}

/// Everything a run needs.
#[derive(Clone)]
pub struct Config {
    /// The output directory (created if missing).
    pub out_dir: PathBuf,
    /// The players.
    pub engine: Engine,
    /// Per-move limits of the αβ players (`depth` or `nodes`).
    pub limits: Limits,
    /// Transposition table per player in MiB.
    pub hash_mb: usize,
    /// Start positions, drawn at random for each game.
    pub openings: Vec<Opening>,
    /// Random moves in the opening (αβ players).
    pub random: RandomMoves,
    /// A game ends when the side to move scores ≤ −limit and its opponent scored ≥ limit
    /// (0: never).
    pub eval_limit: i32,
    /// Games are drawn at this many plies (opening moves included; the MCTS player draws each
    /// game's limit from its own range).
    pub max_plies: usize,
    /// Positions this worker writes.
    pub positions: u64,
    /// Positions per shard.
    pub shard_size: u64,
    /// Games in parallel (one search thread each; the MCTS games share the network's calls).
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
    /// The network could not be loaded.
    #[error("MCTS player: {0}")]
    Mcts(String),
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
    /// Times a followed net file changed and was loaded again ([`Evaluation::NnueFile`], or the
    /// MCTS player's model).
    pub net_changes: u64,
    /// MCTS games: games without resignation, how often a side would have resigned in them, and
    /// how often that side then did not lose (a false resignation).
    pub no_resign: [u64; 3],
    /// MCTS games: scored results (draws under draw-rate control count as wins), Black, White,
    /// draw.
    pub scored: [u64; 3],
    /// MCTS games: network calls and positions evaluated (their ratio is the mean batch).
    pub nn_calls: [u64; 2],
    /// Wall time.
    pub elapsed: Duration,
    /// Threads used.
    pub threads: usize,
}

impl Summary {
    fn add_game(&mut self, g: &FinishedGame, positions: usize, meta: Option<&GameMeta>) {
        self.games += 1;
        self.positions += positions as u64;
        let i = g.result.winner().map_or(2, |c| c.index());
        self.results[i] += 1;
        *self.reasons.entry(g.reason.name().to_string()).or_default() += 1;
        if let Some(m) = meta {
            self.scored[result_index(m.scored)] += 1;
            if !m.resign {
                self.no_resign[0] += 1;
                self.no_resign[1] += m.would_resign.iter().filter(|&&w| w).count() as u64;
                self.no_resign[2] += m.false_resignations() as u64;
            }
        }
    }

    fn merge(&mut self, o: &Summary) {
        self.shards_written += o.shards_written;
        self.games += o.games;
        self.positions += o.positions;
        for i in 0..3 {
            self.results[i] += o.results[i];
            self.scored[i] += o.scored[i];
            self.no_resign[i] += o.no_resign[i];
        }
        for (k, v) in &o.reasons {
            *self.reasons.entry(k.clone()).or_default() += v;
        }
    }

    /// The MCTS lines: scored results, resignation checks, network batches.
    fn mcts_text(&self) -> String {
        if self.nn_calls[0] == 0 {
            return String::new();
        }
        let [b, w, d] = self.scored;
        let [games, would, wrong] = self.no_resign;
        format!(
            "scored (draw-rate control): black {b} white {w} draw {d} ({:.1} % draws)\n\
             without resignation: {games} games, {would} sides would have resigned, {wrong} of them \
             did not lose\n\
             network: {} calls, {} positions, {:.1} a call\n",
            100.0 * d as f64 / (b + w + d).max(1) as f64,
            self.nn_calls[0],
            self.nn_calls[1],
            self.nn_calls[1] as f64 / self.nn_calls[0] as f64
        )
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
             {}positions {} in {:.1} s: {:.1}/s, {:.1}/s per thread ({} threads)\n",
            self.shards_written,
            self.shards_present,
            self.games,
            self.results[0],
            self.results[1],
            self.results[2],
            reasons.join(", "),
            self.mcts_text(),
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
    let ext = cfg.format.name();
    let (todo, present): (Vec<_>, Vec<_>) = cfg
        .shards()
        .into_iter()
        .partition(|&(i, _)| !shard_path(&cfg.out_dir, i, ext).exists());
    let queue = Mutex::new(todo.into_iter());
    let threads = cfg.threads.max(1);
    let shared = Shared::new(cfg)?;
    let results: Vec<Result<Summary, SelfplayError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| s.spawn(|| worker_thread(cfg, &shared, &queue, progress)))
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
    if let Engine::AlphaBeta(Evaluation::NnueFile(f)) = &cfg.engine {
        total.net_changes = f.changes();
    }
    if let Some(m) = &shared.mcts {
        let st = m.mux.stats();
        total.nn_calls = [st.calls, st.positions];
        total.net_changes = m.version.load(std::sync::atomic::Ordering::Relaxed);
    }
    total.elapsed = t0.elapsed();
    Ok(total)
}

/// What the threads of a run share: for MCTS games, the network and the draw-rate control.
struct Shared {
    mcts: Option<McShared>,
}

/// The MCTS games' shared parts.
struct McShared {
    mux: hayate_infer::Multiplexer,
    /// Changes of the followed model file.
    version: std::sync::Arc<std::sync::atomic::AtomicU64>,
    control: DrawControl,
}

impl Shared {
    fn new(cfg: &Config) -> Result<Shared, SelfplayError> {
        let mcts = match &cfg.engine {
            Engine::AlphaBeta(_) => None,
            Engine::Mcts(m) => {
                if cfg.format != DataFormat::Hcpe3 {
                    return Err(SelfplayError::Config(
                        "the MCTS player writes hcpe3 (its visit counts)".into(),
                    ));
                }
                let (mux, version) = m
                    .multiplexer()
                    .map_err(|e| SelfplayError::Mcts(e.to_string()))?;
                Some(McShared {
                    mux,
                    version,
                    control: DrawControl::new(m.draw_control, &cfg.out_dir),
                })
            }
        };
        Ok(Shared { mcts })
    }
}

fn worker_thread(
    cfg: &Config,
    shared: &Shared,
    queue: &Mutex<std::vec::IntoIter<(u64, u64)>>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Summary, SelfplayError> {
    let mut games: Box<dyn Games + '_> = match (&cfg.engine, &shared.mcts) {
        (Engine::Mcts(m), Some(sh)) => Box::new(McGames {
            games: MctsGames::new(m, sh.mux.client(), sh.version.clone()),
            control: &sh.control,
        }),
        _ => Box::new(Players::new(cfg)),
    };
    let mut summary = Summary::default();
    loop {
        let next = queue.lock().ok().and_then(|mut q| q.next());
        let Some((index, size)) = next else {
            return Ok(summary);
        };
        write_shard(cfg, index, size, games.as_mut(), &mut summary, progress)?;
    }
}

/// One game played and written.
struct Played {
    game: FinishedGame,
    positions: usize,
    meta: Option<GameMeta>,
}

/// What plays a thread's games: one game from the shard's generator, its records appended to
/// `out` (at most `limit` positions where the format allows a game to be cut).
trait Games {
    fn play(
        &mut self,
        cfg: &Config,
        rng: &mut Rng,
        limit: usize,
        out: &mut Vec<u8>,
    ) -> Result<Played, SelfplayError>;
}

impl Games for Players {
    fn play(
        &mut self,
        cfg: &Config,
        rng: &mut Rng,
        limit: usize,
        out: &mut Vec<u8>,
    ) -> Result<Played, SelfplayError> {
        self.refresh(cfg);
        let Engine::AlphaBeta(evaluation) = &cfg.engine else {
            return Err(SelfplayError::Config("αβ games need an evaluation".into()));
        };
        let game = play_one(cfg, rng, &mut self.pair);
        let static_eval = |pos: &Position| evaluation.static_eval(pos);
        let relabel: Option<&dyn Fn(&Position) -> i32> = match cfg.label {
            Label::Search => None,
            Label::Static => Some(&static_eval),
        };
        let positions = encode_game(&game, cfg.format, limit, out, relabel)?;
        Ok(Played {
            game,
            positions,
            meta: None,
        })
    }
}

/// A thread's MCTS games and the run's draw-rate control.
struct McGames<'a> {
    games: MctsGames,
    control: &'a DrawControl,
}

impl Games for McGames<'_> {
    fn play(
        &mut self,
        cfg: &Config,
        rng: &mut Rng,
        _limit: usize,
        out: &mut Vec<u8>,
    ) -> Result<Played, SelfplayError> {
        let opening = &cfg.openings[rng.below(cfg.openings.len() as u64) as usize];
        let g = self.games.play(opening, rng, self.control);
        let positions = encode_hcpe3(&g.game, &g.searched, out)?;
        Ok(Played {
            game: g.game,
            positions,
            meta: Some(g.meta),
        })
    }
}

/// The two players of a thread and the version of the followed net they play with.
struct Players {
    pair: [RandomAt; 2],
    stamp: Option<Stamp>,
}

impl Players {
    fn new(cfg: &Config) -> Players {
        let (evaluation, stamp) = match &cfg.engine {
            Engine::AlphaBeta(Evaluation::NnueFile(f)) => {
                let (stamp, net) = f.current();
                (Evaluation::Nnue(net), Some(stamp))
            }
            Engine::AlphaBeta(other) => (other.clone(), None),
            Engine::Mcts(_) => (Evaluation::Material, None),
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
        if let Engine::AlphaBeta(Evaluation::NnueFile(f)) = &cfg.engine
            && self.stamp.as_ref() != Some(&f.current().0)
        {
            *self = Players::new(cfg);
        }
    }
}

/// Plays games until shard `index` holds `size` positions, then renames it (and its sidecar of
/// game lines, when the games have one) into place.
fn write_shard(
    cfg: &Config,
    index: u64,
    size: u64,
    games: &mut dyn Games,
    summary: &mut Summary,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(), SelfplayError> {
    let ext = cfg.format.name();
    let path = shard_path(&cfg.out_dir, index, ext);
    let io = |source| SelfplayError::Io {
        path: path.clone(),
        source,
    };
    let mut w = ShardWriter::create(&cfg.out_dir, index, ext).map_err(io)?;
    let mut rng = Rng::for_shard(cfg.seed, index);
    let (mut written, mut empty) = (0u64, 0u32);
    let mut buf = Vec::new();
    let mut lines = String::new();
    while written < size {
        buf.clear();
        let p = games.play(cfg, &mut rng, (size - written) as usize, &mut buf)?;
        w.write(&buf).map_err(io)?;
        if let Some(m) = &p.meta {
            lines.push_str(&serde_json::to_string(m).unwrap_or_default());
            lines.push('\n');
        }
        written += p.positions as u64;
        summary.add_game(&p.game, p.positions, p.meta.as_ref());
        progress(p.positions as u64);
        empty = if p.positions == 0 { empty + 1 } else { 0 };
        if empty >= 100 {
            return Err(SelfplayError::NoPositions(empty));
        }
    }
    if !lines.is_empty() {
        let sidecar = crate::mcts::sidecar_path(&cfg.out_dir, index);
        write_atomically(&sidecar, lines.as_bytes()).map_err(|source| SelfplayError::Io {
            path: sidecar.clone(),
            source,
        })?;
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
