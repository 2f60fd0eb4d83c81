//! psv (YaneuraOu `PackedSfenValue`, 40 bytes).

use super::error::RecordErrorKind;
use super::hcp::PackedSfen;
use super::move16::PsvMove16;
use super::raw::PositionError;
use super::reader::{FixedRecord, Record};
use hayate_core::{Move, Position};

/// One psv record. Layout (little-endian): `sfen[32]` (PackedSfen), `i16 score`, `u16 move`
/// (YaneuraOu encoding), `u16 gamePly`, `i8 game_result` (1 win, 0 draw, -1 loss for the side to
/// move), `u8` padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Psv {
    /// The position.
    pub sfen: PackedSfen,
    /// Score from the side to move's view.
    pub score: i16,
    /// The move played or searched best.
    pub mv: PsvMove16,
    /// The move number of the position (SFEN's fourth field).
    pub game_ply: u16,
    /// 1, 0 or -1 from the side to move's view.
    pub game_result: i8,
    /// The padding byte, kept for an exact round trip.
    pub padding: u8,
}

const _: () = assert!(Psv::SIZE == 40);

impl Psv {
    /// The position with its move number, checked by the rules core.
    ///
    /// # Errors
    /// [`PositionError`] if the packed position does not decode (the reader has checked that
    /// already) or the position breaks the rules.
    pub fn position(&self) -> Result<Position, PositionError> {
        Ok(self.sfen.decode()?.to_position(self.game_ply as u32)?)
    }

    /// The move as a legal move of `pos` (the record's position), or `None`.
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        self.mv.to_move(pos)
    }
}

impl FixedRecord for Psv {
    const SIZE: usize = 40;

    fn parse(b: &[u8]) -> Result<Self, RecordErrorKind> {
        let mut sfen = [0u8; 32];
        sfen.copy_from_slice(&b[..32]);
        let sfen = PackedSfen(sfen);
        sfen.decode()?;
        let game_result = b[38] as i8;
        if !(-1..=1).contains(&game_result) {
            return Err(RecordErrorKind::BadResult(b[38]));
        }
        Ok(Psv {
            sfen,
            score: i16::from_le_bytes([b[32], b[33]]),
            mv: PsvMove16(u16::from_le_bytes([b[34], b[35]])),
            game_ply: u16::from_le_bytes([b[36], b[37]]),
            game_result,
            padding: b[39],
        })
    }
}

impl Record for Psv {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.sfen.0);
        out.extend_from_slice(&self.score.to_le_bytes());
        out.extend_from_slice(&self.mv.0.to_le_bytes());
        out.extend_from_slice(&self.game_ply.to_le_bytes());
        out.push(self.game_result as u8);
        out.push(self.padding);
    }
}
