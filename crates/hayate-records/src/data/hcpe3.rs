//! hcpe3: dlshogi's self-play format, one variable-length record per game.
//!
//! Per game (little-endian): a 36-byte header `hcp[32]` (start position), `u16 moveNum`,
//! `u8 result` (bits 0–1 [`GameResult`], flags `RESULT_*`), `u8 opponent` (0 self-play, 1 the
//! USI engine played Black, 2 it played White); then `moveNum` times a 6-byte `MoveInfo`
//! (`u16 selectedMove16` in the Apery encoding, `i16 eval`, `u16 candidateNum`) followed by
//! `candidateNum` 4-byte `MoveVisits` (`u16 move16`, `u16 visitNum`). A position with no
//! candidates is not for training (opening moves, forced moves, ...) but its move is replayed.

use super::error::{ErrorPolicy, RecordError, RecordErrorKind};
use super::hcp::Hcp;
use super::hcpe::{GameResult, result_byte_ok};
use super::move16::AperyMove16;
use super::raw::PositionError;
use super::reader::{KEPT_ERRORS, Record, read_full};
use hayate_core::{Move, Position};
use std::io::Read;

/// dlshogi's limit on moves per game (its reader asserts it).
pub const MAX_MOVES: u16 = 513;
/// The most legal moves a shogi position has (dlshogi's reader asserts it).
pub const MAX_CANDIDATES: u16 = 593;

/// A searched move and its visit count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveVisits {
    /// The candidate move (Apery encoding).
    pub move16: AperyMove16,
    /// Its visit count.
    pub visits: u16,
}

/// One position of a game: the move played, the eval, the visit counts.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Hcpe3Move {
    /// The move played (Apery encoding).
    pub move16: AperyMove16,
    /// Evaluation from the side to move's view (±30000 for a proven result).
    pub eval: i16,
    /// The searched candidates; empty when the position is not for training.
    pub candidates: Vec<MoveVisits>,
}

/// One hcpe3 game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hcpe3Game {
    /// The start position.
    pub start: Hcp,
    /// Bits 0–1: [`GameResult`]; bits 2–4: `RESULT_*` flags.
    pub result: u8,
    /// 0 self-play, 1 the USI engine played Black, 2 it played White.
    pub opponent: u8,
    /// The moves in order.
    pub moves: Vec<Hcpe3Move>,
}

/// Why a game's moves could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The start position is not valid.
    #[error("start position: {0}")]
    Start(#[from] PositionError),
    /// Move `ply` (0-based) is not legal in its position.
    #[error("move {ply} ({move16:#06x}) is not legal")]
    IllegalMove {
        /// Index of the move in the game.
        ply: usize,
        /// Its raw Apery encoding.
        move16: u16,
    },
}

impl Hcpe3Game {
    /// The game result (bits 0–1 of the result byte).
    pub fn game_result(&self) -> GameResult {
        GameResult::from_bits(self.result).unwrap_or(GameResult::Draw)
    }

    /// The size of the record in bytes.
    pub fn byte_len(&self) -> usize {
        36 + self
            .moves
            .iter()
            .map(|m| 6 + 4 * m.candidates.len())
            .sum::<usize>()
    }

    /// Replays the game: calls `f(position, info, move)` for each position before its move is
    /// made, with the played move checked for legality.
    ///
    /// # Errors
    /// [`ReplayError`] at the first invalid start position or illegal move; `f` has then seen
    /// every position before it.
    pub fn replay<F: FnMut(&Position, &Hcpe3Move, Move)>(
        &self,
        mut f: F,
    ) -> Result<Position, ReplayError> {
        let mut pos = self
            .start
            .decode()
            .map_err(PositionError::from)?
            .to_position(1)
            .map_err(PositionError::from)?;
        for (ply, info) in self.moves.iter().enumerate() {
            let m = info.move16.to_move(&pos).ok_or(ReplayError::IllegalMove {
                ply,
                move16: info.move16.0,
            })?;
            f(&pos, info, m);
            pos.do_move(m);
        }
        Ok(pos)
    }
}

impl Record for Hcpe3Game {
    fn encode(&self, out: &mut Vec<u8>) {
        out.reserve(self.byte_len());
        out.extend_from_slice(&self.start.0);
        out.extend_from_slice(&(self.moves.len() as u16).to_le_bytes());
        out.push(self.result);
        out.push(self.opponent);
        for m in &self.moves {
            out.extend_from_slice(&m.move16.0.to_le_bytes());
            out.extend_from_slice(&m.eval.to_le_bytes());
            out.extend_from_slice(&(m.candidates.len() as u16).to_le_bytes());
            for c in &m.candidates {
                out.extend_from_slice(&c.move16.0.to_le_bytes());
                out.extend_from_slice(&c.visits.to_le_bytes());
            }
        }
    }
}

/// Reads hcpe3 games one by one.
///
/// Framing faults (a move or candidate count over dlshogi's limits, a cut-off game, a read
/// failure) are yielded as `Err` and end the stream: the next game's start is unknown. A game
/// whose framing is sound but whose start position, result or opponent byte is bad is a corrupt
/// record: it ends the stream under [`ErrorPolicy::Stop`] and is skipped under
/// [`ErrorPolicy::Skip`]. Moves are not replayed here; see [`Hcpe3Game::replay`].
///
/// ```no_run
/// use hayate_records::{ErrorPolicy, Hcpe3Reader};
/// let file = std::io::BufReader::new(std::fs::File::open("selfplay.hcpe3")?);
/// for game in Hcpe3Reader::new(file, ErrorPolicy::Skip) {
///     let game = game?;
///     game.replay(|pos, info, mv| {
///         let total: u32 = info.candidates.iter().map(|c| c.visits as u32).sum();
///         println!("{} {} {} {total}", pos.to_sfen(), mv, info.eval);
///     })?;
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Hcpe3Reader<R> {
    inner: R,
    policy: ErrorPolicy,
    offset: u64,
    /// Offset of the game being read.
    game_start: u64,
    done: bool,
    rejected: u64,
    errors: Vec<RecordError>,
}

impl<R: Read> Hcpe3Reader<R> {
    /// A reader over `inner` (wrap files in a `BufReader`).
    pub fn new(inner: R, policy: ErrorPolicy) -> Self {
        Hcpe3Reader {
            inner,
            policy,
            offset: 0,
            game_start: 0,
            done: false,
            rejected: 0,
            errors: Vec::new(),
        }
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// How many corrupt games were skipped under [`ErrorPolicy::Skip`].
    pub fn rejected(&self) -> u64 {
        self.rejected
    }

    /// The errors of the first skipped games.
    pub fn rejected_errors(&self) -> &[RecordError] {
        &self.errors
    }

    /// Reads exactly `buf.len()` bytes; `Ok(false)` at a clean end before the first byte when
    /// `eof_ok`.
    fn fill(&mut self, buf: &mut [u8], eof_ok: bool) -> Result<bool, RecordErrorKind> {
        let n = read_full(&mut self.inner, buf)?;
        self.offset += n as u64;
        if n == 0 && eof_ok {
            return Ok(false);
        }
        if n < buf.len() {
            // Report the game's bytes, not this piece's: the error's offset is the game's.
            let got = (self.offset - self.game_start) as usize;
            return Err(RecordErrorKind::Truncated {
                got,
                need: got - n + buf.len(),
            });
        }
        Ok(true)
    }

    /// Reads one game; `Ok(None)` at the end. The flag says whether an error is resumable.
    fn read_game(&mut self) -> Result<Option<Hcpe3Game>, (RecordErrorKind, bool)> {
        self.game_start = self.offset;
        let mut head = [0u8; 36];
        if !self.fill(&mut head, true).map_err(|e| (e, false))? {
            return Ok(None);
        }
        let move_num = u16::from_le_bytes([head[32], head[33]]);
        if move_num > MAX_MOVES {
            return Err((RecordErrorKind::TooManyMoves(move_num), false));
        }
        let mut moves = Vec::with_capacity(move_num as usize);
        let mut info = [0u8; 6];
        let mut cand = Vec::new();
        for _ in 0..move_num {
            self.fill(&mut info, false).map_err(|e| (e, false))?;
            let n = u16::from_le_bytes([info[4], info[5]]);
            if n > MAX_CANDIDATES {
                return Err((RecordErrorKind::TooManyCandidates(n), false));
            }
            cand.resize(4 * n as usize, 0);
            self.fill(&mut cand, false).map_err(|e| (e, false))?;
            moves.push(Hcpe3Move {
                move16: AperyMove16(u16::from_le_bytes([info[0], info[1]])),
                eval: i16::from_le_bytes([info[2], info[3]]),
                candidates: cand
                    .chunks_exact(4)
                    .map(|c| MoveVisits {
                        move16: AperyMove16(u16::from_le_bytes([c[0], c[1]])),
                        visits: u16::from_le_bytes([c[2], c[3]]),
                    })
                    .collect(),
            });
        }
        let mut hcp = [0u8; 32];
        hcp.copy_from_slice(&head[..32]);
        let start = Hcp(hcp);
        start
            .decode()
            .map_err(|e| (RecordErrorKind::Packed(e), true))?;
        if !result_byte_ok(head[34]) {
            return Err((RecordErrorKind::BadResult(head[34]), true));
        }
        if head[35] > 2 {
            return Err((RecordErrorKind::BadOpponent(head[35]), true));
        }
        Ok(Some(Hcpe3Game {
            start,
            result: head[34],
            opponent: head[35],
            moves,
        }))
    }
}

impl<R: Read> Iterator for Hcpe3Reader<R> {
    type Item = Result<Hcpe3Game, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            let offset = self.offset;
            match self.read_game() {
                Ok(Some(g)) => return Some(Ok(g)),
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err((kind, resumable)) => {
                    if resumable && self.policy == ErrorPolicy::Skip {
                        self.rejected += 1;
                        if self.errors.len() < KEPT_ERRORS {
                            self.errors.push(RecordError { offset, kind });
                        }
                        continue;
                    }
                    self.done = true;
                    return Some(Err(RecordError { offset, kind }));
                }
            }
        }
    }
}
