//! `HuffmanCodedPos` (hcp): Apery/dlshogi/cshogi's 32-byte position.

use super::huffman::{HCP, PACKED_SFEN, PackedError};
use super::raw::RawPosition;
use hayate_core::Position;

/// A position packed into 256 bits the Apery way (`cshogi.Board.to_hcp`). It holds no move
/// number.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Hcp(pub [u8; 32]);

impl Hcp {
    /// Packs the raw data of a position.
    ///
    /// # Errors
    /// [`PackedError::MissingKing`] or [`PackedError::NotFullSet`]: only positions with both
    /// kings and all 40 pieces fit the format exactly (mate problems usually do not).
    pub fn encode(raw: &RawPosition) -> Result<Hcp, PackedError> {
        HCP.encode(raw).map(Hcp)
    }

    /// Packs a position (see [`Hcp::encode`]).
    ///
    /// # Errors
    /// As [`Hcp::encode`].
    pub fn from_position(pos: &Position) -> Result<Hcp, PackedError> {
        Hcp::encode(&RawPosition::from_position(pos))
    }

    /// Unpacks into raw data: checks the codes and the full set, not the rules.
    ///
    /// # Errors
    /// A [`PackedError`] naming the first fault.
    pub fn decode(&self) -> Result<RawPosition, PackedError> {
        HCP.decode(&self.0)
    }
}

impl std::fmt::Debug for Hcp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hcp(")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

/// YaneuraOu's `PackedSfen`: a position packed into 256 bits (the first 32 bytes of a psv
/// record). It holds no move number.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct PackedSfen(pub [u8; 32]);

impl PackedSfen {
    /// Packs the raw data of a position.
    ///
    /// # Errors
    /// [`PackedError::NotFullSet`] unless board and hands hold all 40 pieces.
    pub fn encode(raw: &RawPosition) -> Result<PackedSfen, PackedError> {
        PACKED_SFEN.encode(raw).map(PackedSfen)
    }

    /// Packs a position (see [`PackedSfen::encode`]).
    ///
    /// # Errors
    /// As [`PackedSfen::encode`].
    pub fn from_position(pos: &Position) -> Result<PackedSfen, PackedError> {
        PackedSfen::encode(&RawPosition::from_position(pos))
    }

    /// Unpacks into raw data: checks the codes and the full set, not the rules.
    ///
    /// # Errors
    /// A [`PackedError`] naming the first fault.
    pub fn decode(&self) -> Result<RawPosition, PackedError> {
        PACKED_SFEN.decode(&self.0)
    }
}

impl std::fmt::Debug for PackedSfen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PackedSfen(")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl super::reader::Record for Hcp {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0);
    }
}

/// A file of bare hcp records (dlshogi's start-position files).
impl super::reader::FixedRecord for Hcp {
    const SIZE: usize = 32;

    fn parse(bytes: &[u8]) -> Result<Self, super::error::RecordErrorKind> {
        let mut b = [0u8; 32];
        b.copy_from_slice(&bytes[..32]);
        let hcp = Hcp(b);
        hcp.decode()?;
        Ok(hcp)
    }
}
