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

/// Whether the exchange started by `m` gains at least `threshold`: [`see_value`] compared,
/// without the exchange when its first capture decides. The first capture (with a promotion's
/// gain) is the most it can gain, as the opponent may recapture; that less the moved piece is
/// the least, as the mover may stop after one recapture (so a capture by a piece worth no
/// more than its victim passes a threshold of 0 at once).
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (first, moved) = first_capture(pos, m);
    if first < threshold {
        return false;
    }
    if first - capture_value(moved.piece_type()) >= threshold {
        return true;
    }
    exchange(pos, m, first, moved) >= threshold
}

/// What `m` gains before any recapture (the captured piece, a promotion's gain), and the
/// piece that then stands on its square.
#[inline(always)]
fn first_capture(pos: &Position, m: Move) -> (i32, Piece) {
    let moved = if m.is_drop() {
        Piece::new(pos.side_to_move(), m.dropped_type())
    } else {
        let pc = pos.piece_on(m.from());
        if m.is_promotion() { pc.promoted() } else { pc }
    };
    let captured = pos.piece_on(m.to());
    let mut gain = if captured.is_empty() {
        0
    } else {
        capture_value(captured.piece_type())
    };
    if m.is_promotion() {
        let pt = moved.piece_type();
        gain += PIECE_VALUE[pt.index()] - PIECE_VALUE[pt.unpromoted().index()];
    }
    (gain, moved)
}

/// The material balance of the exchange started by `m`, both sides recapturing with their
/// least valuable attacker and free to stop (the first capture is made).
pub fn see_value(pos: &Position, m: Move) -> i32 {
    let (first, moved) = first_capture(pos, m);
    exchange(pos, m, first, moved)
}

/// [`see_value`] given `m`'s [`first_capture`] (`see_ge` has it already).
fn exchange(pos: &Position, m: Move, first: i32, moved: Piece) -> i32 {
    let to = m.to();
    let mut occ = pos.occupied() | Bitboard::from_square(to);
    if !m.is_drop() {
        occ ^= Bitboard::from_square(m.from());
    }
    let mut gain = [0i32; 40];
    gain[0] = first;
    let mut on_square = capture_value(moved.piece_type());
    let mut side: Color = !pos.side_to_move();
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
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `see_ge` is `see_value` compared, on every legal move of the positions of random games
    /// and thresholds around the value and at the shortcuts' bounds.
    #[test]
    fn see_ge_is_the_exchange_value_compared() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut asked, mut exchanges) = (0u32, 0u32);
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let v = see_value(&pos, m);
                    let (first, moved) = first_capture(&pos, m);
                    for t in [v - 1, v, v + 1, 0, -32, -120, -500, first, first + 1]
                        .into_iter()
                        .chain([first - capture_value(moved.piece_type())])
                    {
                        assert_eq!(see_ge(&pos, m, t), v >= t, "{} {m:?} {t}", pos.to_sfen());
                        asked += 1;
                    }
                    exchanges += u32::from(v != first);
                }
                pos.do_move(moves[(next() % moves.len() as u64) as usize]);
            }
        }
        assert!(asked > 100_000 && exchanges > 5_000, "{asked} {exchanges}");
    }

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
