//! Packed position → [`Position`] for batch workers.
//!
//! The core builds positions only from SFEN text, so a packed position goes through text. The
//! records crate's `RawPosition::to_position` allocates a string per piece (about 2.5 µs of the
//! 4.5 µs per sample measured here); this writer fills one reused buffer and saves most of it.

use hayate_core::{Color, Piece, PieceType, Position, SfenError, Square};
use hayate_records::RawPosition;
use std::fmt::Write;

/// The position of `raw` with move number `ply` (at least 1), writing its SFEN into `buf`.
///
/// # Errors
/// The core's [`SfenError`] for a position the rules forbid.
pub fn position_from_raw(
    raw: &RawPosition,
    ply: u32,
    buf: &mut String,
) -> Result<Position, SfenError> {
    buf.clear();
    for rank in 1..=9u8 {
        let mut empty = 0u8;
        for file in (1..=9u8).rev() {
            let pc = match Square::from_file_rank(file, rank) {
                Some(sq) => raw.board[sq.index()],
                None => Piece::EMPTY,
            };
            if pc.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                buf.push((b'0' + empty) as char);
                empty = 0;
            }
            if pc.piece_type().is_promoted() {
                buf.push('+');
            }
            buf.push(letter(pc.piece_type(), pc.color()));
        }
        if empty > 0 {
            buf.push((b'0' + empty) as char);
        }
        if rank < 9 {
            buf.push('/');
        }
    }
    buf.push_str(if raw.side_to_move == Color::Black {
        " b "
    } else {
        " w "
    });
    let start = buf.len();
    for (c, h) in [(Color::Black, raw.hands[0]), (Color::White, raw.hands[1])] {
        for pt in PieceType::HAND_SFEN_ORDER {
            let n = h.count(pt);
            if n > 1 {
                let _ = write!(buf, "{n}");
            }
            if n > 0 {
                buf.push(letter(pt, c));
            }
        }
    }
    if buf.len() == start {
        buf.push('-');
    }
    let _ = write!(buf, " {}", ply.max(1));
    Position::from_sfen(buf)
}

fn letter(pt: PieceType, c: Color) -> char {
    let l = pt.sfen_letter();
    if c == Color::White {
        l.to_ascii_lowercase()
    } else {
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_as_the_records_conversion() {
        let mut buf = String::new();
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "6+B+L1/1k7/4+L3l/7R1/3B5/1G5P1/4PPP2/1SG1KS2+p/+l5G2 b R2S2N11Pg2n2p 121",
            "2G1k1s+B1/9/p1p4n1/9/2s6/4K2P1/G1n1P4/9/3+l5 w RBG2N5Prg2s3l9p 115",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let raw = RawPosition::from_position(&pos);
            let p = position_from_raw(&raw, pos.game_ply(), &mut buf).unwrap();
            assert_eq!(
                p.to_sfen(),
                raw.to_position(pos.game_ply()).unwrap().to_sfen()
            );
            assert_eq!(p.to_sfen(), sfen);
        }
    }
}
