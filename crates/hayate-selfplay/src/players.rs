//! The in-process players of self-play: an αβ searcher over the chosen evaluation, wrapped so
//! that it plays a random legal move at chosen plies (variety in the opening).

use std::path::Path;
use std::sync::Arc;

use hayate_core::Position;
use hayate_core::player::{BestMove, Info, Limits, Player, Signals};
use hayate_core::usi_option::OptionError;
use hayate_eval::{Evaluator, Kkpee9, Material, Nnue, NnueError};
use hayate_search::see::see_ge;
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

    /// The static evaluation of `pos` from the side to move's view (a followed file: the net
    /// it holds now).
    pub fn static_eval(&self, pos: &Position) -> i32 {
        match self {
            Evaluation::Material => Material.evaluate_once(pos),
            Evaluation::Kkpee9(t) => t.evaluate_once(pos),
            Evaluation::Nnue(n) => n.evaluate_once(pos),
            Evaluation::NnueFile(f) => f.current().1.evaluate_once(pos),
        }
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

/// A player that answers a random move when the position's move number is one of `plies`, and
/// asks `inner` otherwise. The random move is drawn uniformly from the legal moves that do not
/// lose material on their square (static exchange ≥ 0; all legal moves when none is): a
/// uniformly random legal move hangs a piece so often that most games are decided in the
/// opening and the data is lopsided. Random moves report no score, so they are not written as
/// training data.
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
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
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
            let mut moves: Vec<_> = pos.legal_moves().iter().copied().collect();
            let safe: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| see_ge(pos, m, 0))
                .collect();
            if !safe.is_empty() {
                moves = safe;
            }
            if !moves.is_empty() {
                let best = moves[self.rng.below(moves.len() as u64) as usize];
                return BestMove::Move { best, ponder: None };
            }
        }
        self.inner.think(pos, limits, signals, info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate_core::player::Signals;

    /// A player that must not be asked: every ply of the test is a random one.
    struct Never;
    impl Player for Never {
        fn name(&self) -> String {
            "never".into()
        }
        fn set_option(&mut self, _: &str, _: &str) -> Result<(), OptionError> {
            Ok(())
        }
        fn new_game(&mut self) {}
        fn think(
            &mut self,
            _: &Position,
            _: &Limits,
            _: &Signals,
            _: &mut dyn FnMut(&Info),
        ) -> BestMove {
            panic!("asked on a random ply")
        }
    }

    #[test]
    fn random_moves_do_not_hang_material() {
        // White's horse on 8h attacks much of Black's camp: some legal moves lose material (a uniform draw of 300 would pick them about 30 times).
        let mut pos = Position::startpos();
        for m in [
            "3i4h", "3c3d", "6i7h", "2b5e", "5g5f", "5e4d", "7g7f", "4d8h+",
        ] {
            let mv = pos.parse_usi_move(m).expect("legal");
            pos.do_move(mv);
        }
        let legal = pos.legal_moves();
        let losing = legal.iter().filter(|&&m| !see_ge(&pos, m, 0)).count();
        assert!(
            losing >= 3,
            "{losing} of {} moves lose material",
            legal.len()
        );
        let mut p = RandomAt::new(Box::new(Never));
        let mut seen = std::collections::HashSet::new();
        for seed in 0..300 {
            p.set_random(vec![pos.game_ply()], Rng::new(seed));
            let r = p.think(&pos, &Limits::default(), &Signals::default(), &mut |_| {});
            let BestMove::Move { best, .. } = r else {
                panic!("{r:?}")
            };
            assert!(see_ge(&pos, best, 0), "{} loses material", best.to_usi());
            seen.insert(best);
        }
        assert!(seen.len() >= 10, "varied: {} distinct moves", seen.len());
    }
}
