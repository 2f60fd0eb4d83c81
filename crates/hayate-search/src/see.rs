//! Static exchange evaluation: the material balance of the capture sequence on one square,
//! each side recapturing with its least valuable attacker and free to stop.

use hayate_core::{Bitboard, Color, Move, Piece, PieceType, Position};
use hayate_eval::material::PIECE_VALUE;

/// What capturing a piece of type `pt` is worth: it leaves the board and joins the capturer's
/// hand unpromoted, so the swing is both values.
#[inline(always)]
pub fn capture_value(pt: PieceType) -> i32 {
    if pt == PieceType::KING {
        return PIECE_VALUE[PieceType::KING.index()];
    }
    PIECE_VALUE[pt.index()] + PIECE_VALUE[pt.unpromoted().index()]
}

/// Attacker order for recaptures: cheapest first.
const ORDER: [PieceType; 14] = [
    PieceType::PAWN,
    PieceType::LANCE,
    PieceType::KNIGHT,
    PieceType::PRO_PAWN,
    PieceType::PRO_LANCE,
    PieceType::PRO_KNIGHT,
    PieceType::SILVER,
    PieceType::PRO_SILVER,
    PieceType::GOLD,
    PieceType::BISHOP,
    PieceType::ROOK,
    PieceType::HORSE,
    PieceType::DRAGON,
    PieceType::KING,
];

/// Whether the exchange started by `m` gains at least `threshold`.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let to = m.to();
    let us = pos.side_to_move();
    let (mut occ, moved) = if m.is_drop() {
        (
            pos.occupied() | Bitboard::from_square(to),
            Piece::new(us, m.dropped_type()),
        )
    } else {
        let pc = pos.piece_on(m.from());
        (
            (pos.occupied() ^ Bitboard::from_square(m.from())) | Bitboard::from_square(to),
            if m.is_promotion() { pc.promoted() } else { pc },
        )
    };
    let captured = pos.piece_on(to);
    let mut gain = [0i32; 40];
    gain[0] = if captured.is_empty() {
        0
    } else {
        capture_value(captured.piece_type())
    };
    if m.is_promotion() {
        let pt = moved.piece_type();
        gain[0] += PIECE_VALUE[pt.index()] - PIECE_VALUE[pt.unpromoted().index()];
    }
    let mut on_square = capture_value(moved.piece_type());
    let mut side: Color = !us;
    let mut d = 0;
    loop {
        let attackers = pos.attackers_to(side, to, occ) & occ;
        if attackers.is_empty() {
            break;
        }
        let Some((sq, pt)) = ORDER
            .iter()
            .find_map(|&pt| (attackers & pos.pieces_of_type(pt)).lsb().map(|s| (s, pt)))
        else {
            break;
        };
        if pt == PieceType::KING {
            let after = occ ^ Bitboard::from_square(sq);
            if (pos.attackers_to(!side, to, after) & after).is_nonempty() {
                break;
            }
        }
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = on_square - gain[d - 1];
        on_square = capture_value(pt);
        occ ^= Bitboard::from_square(sq);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0] >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn see_of_simple_exchanges() {
        // Black rook takes a pawn defended by a gold: loses the rook for a pawn.
        let pos = Position::from_sfen("4k4/4g4/4p4/9/9/9/9/4R4/4K4 b - 1").unwrap();
        let m = pos.parse_usi_move("5h5c").unwrap();
        assert!(!see_ge(&pos, m, 0));
        assert!(see_ge(&pos, m, -3000));
        // Undefended pawn: a clean gain of 180 (board value plus hand value).
        let pos = Position::from_sfen("4k4/9/4p4/9/9/9/9/4R4/4K4 b - 1").unwrap();
        let m = pos.parse_usi_move("5h5c").unwrap();
        assert!(see_ge(&pos, m, 180));
        assert!(!see_ge(&pos, m, 181));
    }
}
