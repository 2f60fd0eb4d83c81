//! hcpe (`HuffmanCodedPosAndEval`, 38 bytes): dlshogi's training record.

use super::error::RecordErrorKind;
use super::hcp::Hcp;
use super::move16::AperyMove16;
use super::raw::PositionError;
use super::reader::{FixedRecord, Record};
use hayate_core::{Move, Position};

/// Outcome of the game a training position comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum GameResult {
    /// Draw (0).
    Draw = 0,
    /// Black won (1).
    BlackWin = 1,
    /// White won (2).
    WhiteWin = 2,
}

impl GameResult {
    /// The result in bits 0–1 of a dlshogi result byte (the higher bits are reason flags).
    pub fn from_bits(v: u8) -> Option<GameResult> {
        match v & 3 {
            0 => Some(GameResult::Draw),
            1 => Some(GameResult::BlackWin),
            2 => Some(GameResult::WhiteWin),
            _ => None,
        }
    }
}

/// dlshogi result-byte flag: the game ended by repetition (sennichite).
pub const RESULT_SENNICHITE: u8 = 0x4;
/// dlshogi result-byte flag: the game ended by an entering-king declaration (nyugyoku).
pub const RESULT_NYUGYOKU: u8 = 0x8;
/// dlshogi result-byte flag: the game reached the move limit.
pub const RESULT_MAX_MOVES: u8 = 0x10;

/// Whether a dlshogi result byte is a result (bits 0–1 ≤ 2) plus known flags only.
pub(crate) fn result_byte_ok(v: u8) -> bool {
    v & 3 != 3 && v & !0x1f == 0
}

/// One hcpe record. Layout (little-endian): `hcp[32]`, `i16 eval`, `u16 bestMove16` (Apery
/// encoding), `u8 gameResult`, `u8` padding. dlshogi's `HuffmanCodedPosAndEval2` uses the
/// result byte's bits 2–4 as the flags `RESULT_*`; both read here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hcpe {
    /// The position.
    pub hcp: Hcp,
    /// Evaluation from the side to move's view (centipawn-like).
    pub eval: i16,
    /// The move played or searched best.
    pub best_move16: AperyMove16,
    /// Bits 0–1: [`GameResult`]; bits 2–4: `RESULT_*` flags.
    pub result: u8,
    /// The padding byte, kept for an exact round trip.
    pub padding: u8,
}

const _: () = assert!(Hcpe::SIZE == 38);

impl Hcpe {
    /// The game result (bits 0–1 of the result byte).
    pub fn game_result(&self) -> GameResult {
        GameResult::from_bits(self.result).unwrap_or(GameResult::Draw)
    }

    /// The position, checked by the rules core; its move number is 1 (hcp stores none).
    ///
    /// # Errors
    /// [`PositionError`] if the hcp does not decode (the reader has checked that already) or
    /// the position breaks the rules.
    pub fn position(&self) -> Result<Position, PositionError> {
        Ok(self.hcp.decode()?.to_position(1)?)
    }

    /// The best move as a legal move of `pos` (the record's position), or `None`.
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        self.best_move16.to_move(pos)
    }
}

impl FixedRecord for Hcpe {
    const SIZE: usize = 38;

    fn parse(b: &[u8]) -> Result<Self, RecordErrorKind> {
        let mut hcp = [0u8; 32];
        hcp.copy_from_slice(&b[..32]);
        let hcp = Hcp(hcp);
        hcp.decode()?;
        let result = b[36];
        if !result_byte_ok(result) {
            return Err(RecordErrorKind::BadResult(result));
        }
        Ok(Hcpe {
            hcp,
            eval: i16::from_le_bytes([b[32], b[33]]),
            best_move16: AperyMove16(u16::from_le_bytes([b[34], b[35]])),
            result,
            padding: b[37],
        })
    }
}

impl Record for Hcpe {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.hcp.0);
        out.extend_from_slice(&self.eval.to_le_bytes());
        out.extend_from_slice(&self.best_move16.0.to_le_bytes());
        out.push(self.result);
        out.push(self.padding);
    }
}
