//! Format names, file extensions and dispatch for the four game-record formats.

use super::error::ParseError;
use super::record::GameRecord;
use super::text::{self, TextEncoding};
use super::{csa, jkf, ki2, kif, usi};

/// A game-record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameFormat {
    /// CSA (`.csa`).
    Csa,
    /// KIF (`.kif` Shift_JIS, `.kifu` UTF-8).
    Kif,
    /// KI2 (`.ki2` Shift_JIS, `.ki2u` UTF-8).
    Ki2,
    /// JKF (`.jkf`, `.json`).
    Jkf,
    /// USI position lines, one game per line (`.sfen`, `.usi`).
    Usi,
}

impl GameFormat {
    /// The format and the encoding to write for a name or extension (`csa`, `kif`, `kifu`,
    /// `ki2`, `ki2u`, `jkf`, `json`, `sfen`, `usi`; case-insensitive).
    pub fn from_name(name: &str) -> Option<(GameFormat, TextEncoding)> {
        Some(match name.to_ascii_lowercase().as_str() {
            // CSA is ASCII apart from names and comments; UTF-8 is what our reader and V3.0 use.
            "csa" => (GameFormat::Csa, TextEncoding::Utf8),
            "kif" => (GameFormat::Kif, TextEncoding::ShiftJis),
            "kifu" => (GameFormat::Kif, TextEncoding::Utf8),
            "ki2" => (GameFormat::Ki2, TextEncoding::ShiftJis),
            "ki2u" => (GameFormat::Ki2, TextEncoding::Utf8),
            "jkf" | "json" => (GameFormat::Jkf, TextEncoding::Utf8),
            "sfen" | "usi" => (GameFormat::Usi, TextEncoding::Utf8),
            _ => return None,
        })
    }

    /// Parses a file's bytes (UTF-8 or Shift_JIS) into its games (CSA and USI files may hold
    /// several).
    ///
    /// # Errors
    /// The first [`ParseError`].
    pub fn parse(self, bytes: &[u8]) -> Result<Vec<GameRecord>, ParseError> {
        let t = text::decode(bytes);
        Ok(match self {
            GameFormat::Csa => csa::parse_csa_multi(&t)?,
            GameFormat::Kif => vec![kif::parse_kif(&t)?],
            GameFormat::Ki2 => vec![ki2::parse_ki2(&t)?],
            GameFormat::Jkf => vec![jkf::parse_jkf(&t)?],
            GameFormat::Usi => usi::parse_usi_lines(&t)?,
        })
    }

    /// Writes one game as text.
    ///
    /// # Errors
    /// The core's error if the record's start SFEN is invalid.
    pub fn write(self, rec: &GameRecord) -> Result<String, hayate_core::SfenError> {
        match self {
            GameFormat::Csa => csa::write_csa(rec),
            GameFormat::Kif => kif::write_kif(rec),
            GameFormat::Ki2 => ki2::write_ki2(rec),
            GameFormat::Jkf => jkf::write_jkf(rec),
            GameFormat::Usi => Ok(usi::write_usi_line(rec) + "\n"),
        }
    }

    /// Writes one game as bytes in the given encoding.
    ///
    /// # Errors
    /// As [`GameFormat::write`].
    pub fn write_bytes(
        self,
        rec: &GameRecord,
        enc: TextEncoding,
    ) -> Result<Vec<u8>, hayate_core::SfenError> {
        Ok(text::encode(&self.write(rec)?, enc))
    }
}
