//! The MCTS player of self-play, as AlphaZero and dlshogi make their games: every game of a run
//! searches with the one network through a [`Multiplexer`] (the games' leaves share each network
//! call), with Dirichlet noise on the root's priors and moves drawn in proportion to their
//! visits in the first plies. Each game is also played under settings drawn for it (Novice's
//! tricks, written beside the record in the shard's sidecar, see [`GameMeta`]):
//!
//! - a random maximum length: reaching it is a draw, and the search knows it (`Draw_Ply`);
//! - draw-rate control: while more than `draw_control` of the games so far are scored as draws,
//!   the next games score a draw as a win for White when Black has won more, for Black when
//!   White has (the search plays for it: `Draw_Value_Black`/`White`); the hcpe3 record keeps
//!   the game's real result, the sidecar the scored one;
//! - no resignation in a share of the games, to measure how often resigning would have been
//!   wrong.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use hayate_core::game::{EndReason, FinishedGame, GameResult, GameRules, Side, play_game};
use hayate_core::player::{BestMove, Info, Limits, Player, Signals};
use hayate_core::usi_option::OptionError;
use hayate_core::{Color, Move, Position};
use hayate_infer::kind::LoadOptions;
use hayate_infer::{BackendError, BackendKind, Multiplexer, MuxClient};
use hayate_mcts::MctsPlayer;
use hayate_mcts::noise::RootNoise;

use crate::model::{DEFAULT_INTERVAL, FollowedModel};
use crate::openings::Opening;
use crate::rng::Rng;

/// How the MCTS player plays self-play games.
#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// The ONNX model (dlshogi's inputs and outputs).
    pub model: String,
    /// The inference backend.
    pub backend: BackendKind,
    /// CPU threads of one network call.
    pub dnn_threads: usize,
    /// Playouts per move.
    pub playouts: u64,
    /// Leaves one game's search gathers before it asks the network (`DNN_Batch_Size`).
    pub batch_per_game: usize,
    /// Most positions in one network call (the games' batches together).
    pub max_batch: usize,
    /// How long the network waits for more games' leaves once one game has asked.
    pub max_wait: Duration,
    /// Root noise (ε 0: none).
    pub noise: RootNoise,
    /// Moves up to this game ply are drawn in proportion to visits^(1 / `temperature`).
    pub sample_plies: u32,
    /// Temperature of those draws.
    pub temperature: f64,
    /// A player resigns when its root value falls below this (0: never).
    pub resign: f64,
    /// Share of the games played without resignation.
    pub no_resign_share: f64,
    /// Draw-rate target of Novice's control (0: off).
    pub draw_control: f64,
    /// Each game's ply limit is drawn from this range (inclusive).
    pub max_plies: (usize, usize),
    /// The root df-pn thread of each search (costly on a CPU with many games at once).
    pub root_mate: bool,
    /// Depth of the odd-ply mate search at each new node (0: off).
    pub leaf_mate_depth: u32,
}

impl MctsConfig {
    /// The network of all the games of a run, behind one multiplexer, and the count of times
    /// the model file changed. The file is followed (a training loop's `current.onnx`): when it
    /// changes, the network calls from then on use the new one.
    ///
    /// # Errors
    /// The backend's error when the model cannot be loaded.
    pub fn multiplexer(&self) -> Result<(Multiplexer, Arc<AtomicU64>), BackendError> {
        let (kind, threads) = (self.backend, self.dnn_threads.max(1));
        let load = move |path: &Path| {
            let model = path.display().to_string();
            let opts = LoadOptions {
                model: &model,
                seed: 1,
                threads,
            };
            hayate_infer::load(kind, &opts)
        };
        let backend = if matches!(kind, BackendKind::Tract | BackendKind::Ort) {
            FollowedModel::open(&self.model, DEFAULT_INTERVAL, Box::new(load))?
        } else {
            // Test networks have no file to follow.
            return Ok((
                Multiplexer::new(load(Path::new(""))?, self.max_batch.max(1), self.max_wait),
                Arc::default(),
            ));
        };
        let version = backend.version();
        let mux = Multiplexer::new(Box::new(backend), self.max_batch.max(1), self.max_wait);
        Ok((mux, version))
    }
}

/// The settings and outcome of one game, one JSON line per game in the shard's sidecar.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameMeta {
    /// Value of a draw for Black and for White (0.5 both: a draw is a draw).
    pub draw_value: [f32; 2],
    /// Plies at which the game is drawn.
    pub max_plies: usize,
    /// Whether the players could resign.
    pub resign: bool,
    /// The result as played (stored `black`, `white` or `draw`).
    pub result: GameResult,
    /// The result as scored under `draw_value` (a draw that counts as a win is that win).
    pub scored: GameResult,
    /// How the game ended.
    pub reason: EndReason,
    /// Plies played.
    pub plies: usize,
    /// For Black and White: whether its root value fell below the resign threshold.
    pub would_resign: [bool; 2],
    /// Games of the run scored before this one began: its place in the run's order (the
    /// draw-rate curve).
    #[serde(default)]
    pub scored_before: u64,
}

impl GameMeta {
    /// A game with no winner but a draw value of 1 for one side is scored as that side's win.
    fn scored_winner(&self, winner: Option<Color>) -> Option<Color> {
        winner.or(if self.draw_value[0] >= 1.0 {
            Some(Color::Black)
        } else if self.draw_value[1] >= 1.0 {
            Some(Color::White)
        } else {
            None
        })
    }

    /// Whether a side would have resigned in a game without resignation and did not lose.
    pub fn false_resignations(&self) -> usize {
        if self.resign {
            return 0;
        }
        [Color::Black, Color::White]
            .iter()
            .filter(|&&c| self.would_resign[c.index()] && self.result != GameResult::win(!c))
            .count()
    }
}

/// Novice's draw-rate control over the games scored so far (this run's and those already in
/// the output directory's sidecars).
pub struct DrawControl {
    target: f64,
    /// Scored results: Black wins, White wins, draws.
    counts: Mutex<[u64; 3]>,
}

impl DrawControl {
    /// Control towards `target` (0: off), starting from the games in `dir`'s sidecars.
    pub fn new(target: f64, dir: &Path) -> DrawControl {
        let mut counts = [0u64; 3];
        for meta in read_sidecars(dir) {
            counts[result_index(meta.scored)] += 1;
        }
        DrawControl {
            target,
            counts: Mutex::new(counts),
        }
    }

    /// The scored results so far: Black wins, White wins, draws.
    pub fn counts(&self) -> [u64; 3] {
        *self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The draw values of the next game: even while the draw rate is at or below the target,
    /// otherwise a draw is a win for the side that has won less (with equal wins, e.g. when
    /// every game so far was drawn, for each side in turn).
    pub fn draw_values(&self) -> [f32; 2] {
        let [b, w, d] = self.counts();
        let games = b + w + d;
        if self.target <= 0.0 || games == 0 || (d as f64) <= self.target * games as f64 {
            return [0.5, 0.5];
        }
        let white = match b.cmp(&w) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => games % 2 == 0,
        };
        if white { [0.0, 1.0] } else { [1.0, 0.0] }
    }

    fn record(&self, scored: Option<Color>) {
        let mut c = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        c[scored.map_or(2, |c| c.index())] += 1;
    }
}

/// The index of a result in the counts: Black 0, White 1, a draw 2.
pub(crate) fn result_index(r: GameResult) -> usize {
    r.winner().map_or(2, |c| c.index())
}

/// The sidecar of shard `index`: `shard-NNNNNN.games.jsonl`, where the trainer looks for it.
pub fn sidecar_path(dir: &Path, index: u64) -> std::path::PathBuf {
    hayate_nn::dataset::sidecar_path(&crate::shard::shard_path(dir, index, "hcpe3"))
}

/// Every game line of the sidecars in `dir` whose shard is there (a sidecar is renamed into
/// place just before its shard; unreadable lines are skipped).
pub fn read_sidecars(dir: &Path) -> Vec<GameMeta> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".games.jsonl") else {
            continue;
        };
        if !dir.join(format!("{stem}.hcpe3")).exists() {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(e.path()) else {
            continue;
        };
        out.extend(text.lines().filter_map(|l| serde_json::from_str(l).ok()));
    }
    out
}

/// The searcher both sides of a game share (one tree, reused across the two sides' moves),
/// and what it saw at each searched ply.
struct Searcher {
    player: MctsPlayer,
    rng: Rng,
    sample_plies: u32,
    temperature: f64,
    searched: BTreeMap<u32, Vec<(Move, u32)>>,
    min_value: [f64; 2],
}

impl Searcher {
    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        let best = self.player.think(pos, limits, signals, info);
        let Some((visits, value)) = self.player.root_visits() else {
            return best;
        };
        let us = pos.side_to_move().index();
        self.min_value[us] = self.min_value[us].min(value);
        let BestMove::Move { best: chosen, .. } = best else {
            return best;
        };
        let best = if pos.game_ply() <= self.sample_plies {
            sample(&visits, self.temperature, &mut self.rng).unwrap_or(chosen)
        } else {
            chosen
        };
        self.searched.insert(pos.game_ply(), visits);
        BestMove::Move { best, ponder: None }
    }
}

/// A move drawn in proportion to visits^(1 / `temperature`).
fn sample(visits: &[(Move, u32)], temperature: f64, rng: &mut Rng) -> Option<Move> {
    let t = temperature.max(0.05);
    let w: Vec<f64> = visits
        .iter()
        .map(|&(_, n)| f64::from(n).powf(1.0 / t))
        .collect();
    let total: f64 = w.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return None;
    }
    let mut x = rng.unit() * total;
    for (i, wi) in w.iter().enumerate() {
        if x < *wi {
            return Some(visits[i].0);
        }
        x -= wi;
    }
    visits.last().map(|v| v.0)
}

/// One side of the game: the shared searcher, locked for each move (the two sides never
/// think at once, so the lock is never contended).
struct SideOf<'a>(&'a Mutex<Searcher>);

impl SideOf<'_> {
    fn get(&self) -> MutexGuard<'_, Searcher> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Player for SideOf<'_> {
    fn name(&self) -> String {
        self.get().player.name()
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        self.get().player.set_option(name, value)
    }
    fn new_game(&mut self) {
        self.get().player.new_game();
    }
    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        self.get().think(pos, limits, signals, info)
    }
}

/// One finished game with what the data needs.
pub struct MctsGame {
    /// The game.
    pub game: FinishedGame,
    /// Visits by game ply.
    pub searched: BTreeMap<u32, Vec<(Move, u32)>>,
    /// Its settings and outcome.
    pub meta: GameMeta,
}

/// The games of one thread: its searcher (network calls through one multiplexer client).
pub struct MctsGames {
    cfg: MctsConfig,
    searcher: Mutex<Searcher>,
    /// The model file's changes, and how many this thread's cache has seen.
    version: (Arc<AtomicU64>, u64),
}

impl MctsGames {
    /// A thread's player over `client`.
    pub fn new(cfg: &MctsConfig, client: MuxClient, version: Arc<AtomicU64>) -> MctsGames {
        let mut player = MctsPlayer::with_backend(Box::new(client));
        let p = player.params_mut();
        p.threads = 1;
        p.batch_size = cfg.batch_per_game.clamp(1, 256);
        p.root_mate = cfg.root_mate;
        p.root_noise = cfg.noise;
        player.set_cache_entries(65536);
        player.set_pv_interval_ms(0);
        MctsGames {
            cfg: cfg.clone(),
            searcher: Mutex::new(Searcher {
                player,
                rng: Rng::new(0),
                sample_plies: cfg.sample_plies,
                temperature: cfg.temperature,
                searched: BTreeMap::new(),
                min_value: [1.0; 2],
            }),
            version: (version, 0),
        }
    }

    /// Plays one game from `opening` with settings drawn from `rng` and `control`.
    pub fn play(&mut self, opening: &Opening, rng: &mut Rng, control: &DrawControl) -> MctsGame {
        let (lo, hi) = self.cfg.max_plies;
        let max_plies = lo.min(hi) + rng.below((hi.max(lo) - lo.min(hi) + 1) as u64) as usize;
        let resign = self.cfg.resign > 0.0 && rng.unit() >= self.cfg.no_resign_share;
        let draw_value = control.draw_values();
        let scored_before = control.counts().iter().sum();
        let seed = rng.next_u64();
        let start = opening.start_position();
        let version = self.version.0.load(Ordering::Acquire);
        {
            let mut s = self.searcher.lock().unwrap_or_else(|p| p.into_inner());
            if version != self.version.1 {
                // The network changed: what the cache holds came from the old one.
                s.player.clear_cache();
                self.version.1 = version;
            }
            s.rng = Rng::new(seed);
            s.searched.clear();
            s.min_value = [1.0; 2];
            let threshold = if resign { self.cfg.resign } else { 0.0 };
            // The search's draw ply is a position's move number past which it is drawn.
            let draw_ply = (start.game_ply() as usize + max_plies).saturating_sub(1);
            s.player.set_resign_threshold(threshold);
            let p = s.player.params_mut();
            p.draw_value = draw_value;
            p.draw_ply = draw_ply as u32;
            s.player.set_random_seed(seed >> 1);
        }
        let rules = GameRules {
            max_plies,
            ..GameRules::default()
        };
        let limits = Limits {
            nodes: Some(self.cfg.playouts.max(1)),
            ..Limits::default()
        };
        let (mut b, mut w) = (SideOf(&self.searcher), SideOf(&self.searcher));
        let sides = [
            Side {
                player: &mut b,
                time_control: None,
                limits: limits.clone(),
            },
            Side {
                player: &mut w,
                time_control: None,
                limits,
            },
        ];
        let game = play_game(&start, &opening.moves, sides, &rules);
        let s = self.searcher.get_mut().unwrap_or_else(|p| p.into_inner());
        let threshold = self.cfg.resign;
        let mut meta = GameMeta {
            draw_value,
            max_plies,
            resign,
            result: game.result,
            scored: game.result,
            reason: game.reason,
            plies: game.plies(),
            would_resign: [s.min_value[0] < threshold, s.min_value[1] < threshold],
            scored_before,
        };
        let scored = meta.scored_winner(game.result.winner());
        meta.scored = scored.map_or(GameResult::Draw, GameResult::win);
        control.record(scored);
        MctsGame {
            game,
            searched: std::mem::take(&mut s.searched),
            meta,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(draw_value: [f32; 2], result: &str, resign: bool, would: [bool; 2]) -> GameMeta {
        let result: GameResult = result.parse().expect("a result name");
        GameMeta {
            draw_value,
            max_plies: 320,
            resign,
            result,
            scored: result,
            reason: EndReason::Resign,
            plies: 100,
            would_resign: would,
            scored_before: 0,
        }
    }

    #[test]
    fn draw_control_favours_the_side_that_wins_less() {
        let dir = std::env::temp_dir().join(format!("hayate-dc-{}", std::process::id()));
        let c = DrawControl::new(0.02, &dir);
        assert_eq!(c.draw_values(), [0.5, 0.5], "no games yet");
        // Only draws so far: each side in turn.
        c.record(None);
        assert_eq!(c.draw_values(), [1.0, 0.0]);
        c.record(None);
        assert_eq!(c.draw_values(), [0.0, 1.0]);
        let c = DrawControl::new(0.02, &dir);
        for _ in 0..60 {
            c.record(Some(Color::Black));
        }
        for _ in 0..39 {
            c.record(Some(Color::White));
        }
        c.record(None);
        // 1 % draws: under the target.
        assert_eq!(c.draw_values(), [0.5, 0.5]);
        for _ in 0..3 {
            c.record(None);
        }
        // 4 of 103 drawn, Black ahead: a draw is White's win.
        assert_eq!(c.draw_values(), [0.0, 1.0]);
        for _ in 0..30 {
            c.record(Some(Color::White));
        }
        assert_eq!(c.draw_values(), [1.0, 0.0]);
        assert_eq!(DrawControl::new(0.0, &dir).draw_values(), [0.5, 0.5]);
    }

    #[test]
    fn a_draw_scored_as_a_win_and_false_resignations() {
        let m = meta([0.0, 1.0], "draw", true, [false; 2]);
        assert_eq!(m.scored_winner(None), Some(Color::White));
        assert_eq!(m.scored_winner(Some(Color::Black)), Some(Color::Black));
        let even = meta([0.5, 0.5], "draw", true, [false; 2]);
        assert_eq!(even.scored_winner(None), None);
        // Black would have resigned but won: one false resignation; White's was right.
        assert_eq!(
            meta([0.5; 2], "black", false, [true, true]).false_resignations(),
            1
        );
        assert_eq!(
            meta([0.5; 2], "draw", false, [true, false]).false_resignations(),
            1
        );
        assert_eq!(
            meta([0.5; 2], "white", false, [false, true]).false_resignations(),
            1,
            "White would have resigned a game it won"
        );
        assert_eq!(
            meta([0.5; 2], "white", false, [true, false]).false_resignations(),
            0,
            "Black's resignation would have been right"
        );
        assert_eq!(
            meta([0.5; 2], "black", true, [true, false]).false_resignations(),
            0,
            "a game with resignation measures nothing"
        );
    }

    #[test]
    fn sampling_follows_the_visits() {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let visits = vec![(moves[0], 300), (moves[1], 100), (moves[2], 0)];
        let mut rng = Rng::new(5);
        let mut counts = [0u32; 3];
        for _ in 0..4000 {
            let m = sample(&visits, 1.0, &mut rng).expect("a move");
            counts[visits.iter().position(|v| v.0 == m).expect("known")] += 1;
        }
        assert_eq!(counts[2], 0);
        let share = f64::from(counts[0]) / 4000.0;
        assert!((0.72..0.78).contains(&share), "share {share}");
        // A low temperature picks the most visited.
        assert!((0..200).all(|_| sample(&visits, 0.05, &mut rng) == Some(moves[0])));
        assert_eq!(sample(&[(moves[0], 0)], 1.0, &mut rng), None);
    }
}
