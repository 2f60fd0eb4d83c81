//! The in-process players of self-play: an αβ searcher over the chosen evaluation, wrapped so
//! that it plays a random legal move at chosen plies (variety in the opening).

use std::path::Path;
use std::sync::Arc;

use hayate_core::Position;
use hayate_core::player::{BestMove, Info, Limits, Player, Signals};
use hayate_eval::{Kkpee9, Material, Nnue, NnueError};
use hayate_search::{AlphaBeta, Options};

use crate::model::FollowedNnue;
use crate::rng::Rng;

/// The evaluation the searchers use. Cloning shares the tables (KKPEE9, NNUE) between threads.
#[derive(Clone)]
pub enum Evaluation {
    /// Material only.
    Material,
    /// The KKPEE9 effect tables (built once).
    Kkpee9(Kkpee9),
    /// An NNUE HalfKP network.
    Nnue(Nnue),
    /// An NNUE file (e.g. a `current` symlink) re-read between games when it changes.
    NnueFile(Arc<FollowedNnue>),
}

impl Evaluation {
    /// Follows the NNUE file `path`: loaded now, and again between games whenever it changes.
    ///
    /// # Errors
    /// The file cannot be resolved or is not a HalfKP 256x2-32-32 `nn.bin`.
    pub fn nnue_file(path: impl AsRef<Path>) -> Result<Evaluation, NnueError> {
        Ok(Evaluation::NnueFile(Arc::new(FollowedNnue::open(path)?)))
    }

    /// A single-threaded αβ player with a `hash_mb` transposition table (a followed file
    /// plays with the net it holds now).
    pub fn player(&self, hash_mb: usize) -> Box<dyn Player> {
        let o = Options {
            hash_mb,
            threads: 1,
            ..Options::default()
        };
        match self {
            Evaluation::Material => Box::new(AlphaBeta::with_options(Material, o)),
            Evaluation::Kkpee9(t) => Box::new(AlphaBeta::with_options(t.clone(), o)),
            Evaluation::Nnue(n) => Box::new(AlphaBeta::with_options(n.clone(), o)),
            Evaluation::NnueFile(f) => Box::new(AlphaBeta::with_options(f.current().1, o)),
        }
    }
}

/// A player that answers a uniformly random legal move when the position's move number is one
/// of `plies`, and asks `inner` otherwise. Random moves report no score, so they are not
/// written as training data.
pub struct RandomAt {
    inner: Box<dyn Player>,
    plies: Vec<u32>,
    rng: Rng,
}

impl RandomAt {
    /// Wraps `inner`, with no random plies yet.
    pub fn new(inner: Box<dyn Player>) -> RandomAt {
        RandomAt {
            inner,
            plies: Vec::new(),
            rng: Rng::new(0),
        }
    }

    /// Sets the random plies and the generator for the next game.
    pub fn set_random(&mut self, plies: Vec<u32>, rng: Rng) {
        self.plies = plies;
        self.rng = rng;
    }
}

impl Player for RandomAt {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.inner.set_option(name, value)
    }
    fn new_game(&mut self) {
        self.inner.new_game();
    }
    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        if self.plies.contains(&pos.game_ply()) {
            let moves = pos.legal_moves();
            if !moves.is_empty() {
                let best = moves[self.rng.below(moves.len() as u64) as usize];
                return BestMove::Move { best, ponder: None };
            }
        }
        self.inner.think(pos, limits, signals, info)
    }
}
