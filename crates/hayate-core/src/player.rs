//! The one player interface: αβ, MCTS and hybrid players all implement [`Player`], and the USI
//! loop, the CSA client, self-play and the arena drive them through it.

use crate::{Move, OptionError, Position, UsiOption};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Limits of one search, as a `go` command gives them. Times are per side, index by `Color`.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Remaining main time per colour (`btime`, `wtime`).
    pub time: [Option<Duration>; 2],
    /// Fischer increment per colour (`binc`, `winc`).
    pub increment: [Option<Duration>; 2],
    /// Byoyomi per move.
    pub byoyomi: Option<Duration>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Depth limit (plies).
    pub depth: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Pondering: search until `ponderhit` turns this into a normal search, or `stop`.
    pub ponder: bool,
    /// Search only these root moves (empty = all).
    pub search_moves: Vec<Move>,
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units (pawn = 90 in Hayate's evaluations, as in YaneuraOu's).
    Cp(i32),
    /// Mate in this many plies: positive when the side to move mates, negative when it is mated.
    Mate(i32),
}

/// Whether a reported score is exact or a bound from a failed aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// Exact.
    #[default]
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// One progress report (a USI `info` line).
#[derive(Clone, Debug, Default)]
pub struct Info {
    /// Nominal depth.
    pub depth: Option<u32>,
    /// Selective depth.
    pub seldepth: Option<u32>,
    /// Milliseconds since the search started.
    pub time_ms: Option<u64>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Transposition-table fill in permille.
    pub hashfull: Option<u32>,
    /// Score of this line.
    pub score: Option<Score>,
    /// Bound of the score.
    pub bound: Bound,
    /// MultiPV index (1-based) when more than one line is searched.
    pub multipv: Option<u32>,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Free text (`info string`).
    pub string: Option<String>,
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// Play `best`; `ponder` is the expected reply.
    Move {
        /// The move to play.
        best: Move,
        /// The move to ponder on.
        ponder: Option<Move>,
    },
    /// Resign (`bestmove resign`): also what a player with no legal move answers.
    Resign,
    /// Declare a win by entering king (`bestmove win`).
    Win,
}

/// Signals shared between a running search and whoever drives it.
#[derive(Debug, Default)]
pub struct Signals {
    stop: AtomicBool,
    ponderhit: AtomicBool,
}

impl Signals {
    /// Fresh signals, shareable between threads.
    pub fn new() -> Arc<Signals> {
        Arc::new(Signals::default())
    }
    /// Asks the search to stop as soon as it can and return its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }
    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }
    /// The opponent played the pondered move: keep searching, now on our own clock.
    pub fn ponderhit(&self) {
        self.ponderhit.store(true, Ordering::Release);
    }
    /// Whether `ponderhit` arrived.
    pub fn is_ponderhit(&self) -> bool {
        self.ponderhit.load(Ordering::Acquire)
    }
    /// The stop flag itself, for solvers that poll an `AtomicBool`.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }
    /// Clears both signals before a new search.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::Release);
        self.ponderhit.store(false, Ordering::Release);
    }
}

/// Why a player gave no usable answer: what the game runner adjudicates as that player's loss.
/// In-process players never fail; a USI engine process can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The player stopped working (a process that exited, or could not be readied).
    Crash(String),
    /// The player did not answer, even after it was told to stop.
    Hang(String),
    /// The answer was not a legal move (text that is not a move, or a move not legal here).
    IllegalMove(String),
}

/// How a game ended for one player (USI `gameover`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOver {
    /// This player won.
    Win,
    /// This player lost.
    Lose,
    /// A draw.
    Draw,
}

impl GameOver {
    /// The word of USI `gameover <word>`.
    pub fn usi_word(self) -> &'static str {
        match self {
            GameOver::Win => "win",
            GameOver::Lose => "lose",
            GameOver::Draw => "draw",
        }
    }

    /// The result a USI `gameover` word names (`None` for any other word).
    pub fn from_usi_word(word: &str) -> Option<GameOver> {
        [GameOver::Win, GameOver::Lose, GameOver::Draw]
            .into_iter()
            .find(|r| r.usi_word() == word)
    }
}

/// Something that thinks: given a position with its history, limits and signals, it streams
/// progress and returns a best move.
pub trait Player: Send {
    /// A short name for logs and `id name`.
    fn name(&self) -> String;
    /// The options this player takes, typed, with their current values as defaults (what the
    /// USI `option` lines declare). Listing them must be cheap: no tables, no files.
    fn options(&self) -> Vec<UsiOption> {
        Vec::new()
    }
    /// Sets an option. It should be cheap (record the value): heavy work such as resizing a
    /// table or loading a file belongs in [`Player::prepare`].
    ///
    /// # Errors
    /// The problem when the name is unknown or the value invalid.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError>;
    /// Heavy initialisation (tables, networks); called before the first search (`isready`).
    ///
    /// # Errors
    /// A message when initialisation fails (e.g. an evaluation file cannot be read).
    fn prepare(&mut self) -> Result<(), String> {
        Ok(())
    }
    /// A new game starts (clear per-game state such as the transposition table age).
    fn new_game(&mut self) {}
    /// The game is over (USI `gameover`).
    fn game_over(&mut self, _result: GameOver) {}
    /// The fault behind the last `new_game` or `think`, taken (so it is reported once). Players
    /// that can fail (USI child processes) answer `Resign` from `think` and say why here.
    fn take_fault(&mut self) -> Option<Fault> {
        None
    }
    /// Searches `pos` and returns the move to play. `info` receives progress reports.
    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove;
}
