//! One game between two [`Player`](crate::player::Player)s, adjudicated by the rules core: the
//! one game runner that the arena (USI engine processes behind an adapter), self-play and the
//! examples share.
//!
//! The runner, not the players, decides every ending: checkmate (no legal move for the side to
//! move), resignation, time loss (by the runner's clock, with a margin), an illegal move, a
//! declaration (`bestmove win`, checked with the rules' declaration rule), fourfold repetition
//! and perpetual check ([`Position::game_repetition`]), the ply limit, a player's fault (a
//! crashed or hung engine) and optionally resign/draw adjudication from the players' own scores.
//! The record keeps each move with the time it took and what the player reported while thinking.

mod clock;
pub mod opening;
mod outcome;
mod rules;
mod runner;

pub use clock::{Clock, TimeControl, TimeLoss};
pub use opening::{Opening, OpeningError, parse_openings};
pub use outcome::{EndReason, GameResult};
pub use rules::{GameRules, ScoreAdjudication};
pub use runner::{Side, play_game};

use crate::player::Info;
use crate::{Move, Position};
use std::time::SystemTime;

/// One move of a game.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// Milliseconds the player took, by the runner's clock (`None` for opening moves, which no
    /// player chose).
    pub time_ms: Option<u64>,
    /// What the player reported while thinking, merged over its `info` lines (the last score,
    /// depth, nodes and PV of the main line); empty for opening moves.
    pub info: Info,
}

/// A finished game: the start, every move, and one result with one reason.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// The position the game started from (before the opening moves).
    pub start: Position,
    /// Black's and White's player names.
    pub names: [String; 2],
    /// How many of the first moves were the given opening rather than the players' choice.
    pub opening_plies: usize,
    /// Every move, opening moves included.
    pub moves: Vec<PlayedMove>,
    /// Who won.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: EndReason,
    /// A sentence for people (the fault, the illegal move, ...); empty if nothing to add.
    pub detail: String,
    /// Milliseconds the last player spent on an ending that is not a move (a resignation, a
    /// declaration, an illegal move, a time loss).
    pub end_time_ms: Option<u64>,
    /// When the game started.
    pub started: SystemTime,
    /// When it ended.
    pub ended: SystemTime,
}

impl FinishedGame {
    /// Plies in the record (opening moves included).
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Calls `f` with each position before a move, and the move played there, in order.
    pub fn replay(&self, mut f: impl FnMut(&Position, &PlayedMove)) {
        let mut pos = self.start.clone();
        for m in &self.moves {
            f(&pos, m);
            pos.do_move(m.mv);
        }
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start.clone();
        for m in &self.moves {
            pos.do_move(m.mv);
        }
        pos
    }
}
