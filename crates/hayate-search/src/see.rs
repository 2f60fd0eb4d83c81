//! Static exchange evaluation: the material balance of the capture sequence on one square,
//! each side recapturing with its least valuable attacker and free to stop.

use hayate_core::attacks::{bishop_attacks, lance_attacks, rook_attacks, rook_file_attacks};
use hayate_core::{Bitboard, Color, Move, Piece, PieceType, Position, Square, line_through};
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

/// Each piece type's place in [`ORDER`].
const RANK: [u8; PieceType::NUM] = {
    let mut r = [u8::MAX; PieceType::NUM];
    let mut i = 0;
    while i < ORDER.len() {
        r[ORDER[i].index()] = i as u8;
        i += 1;
    }
    r
};

/// The first piece of `set` in [`ORDER`] (the lowest square among pieces of that type): the
/// pieces are few, so walking them beats a lookup per type.
#[inline(always)]
fn least_valuable(pos: &Position, set: Bitboard) -> Option<(Square, PieceType)> {
    let mut best: Option<(Square, PieceType)> = None;
    let mut best_rank = u8::MAX;
    for sq in set {
        let pt = pos.piece_on(sq).piece_type();
        let rank = RANK[pt.index()];
        if rank < best_rank {
            best_rank = rank;
            best = Some((sq, pt));
        }
    }
    best
}

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
    exchange_ge(pos, m, first - threshold, moved)
}

/// Whether the exchange started by `m` keeps the mover at or above the threshold, given
/// `margin` = `first` less the threshold (≥ 0: the first capture alone passes) and a first
/// recapture that fails it. The exchange walks the same recaptures as [`exchange`] but stops
/// as soon as the side to capture can no longer change the answer: `swap` is how far that side
/// stands from turning it, and `passes` the answer should it stop here.
fn exchange_ge(pos: &Position, m: Move, margin: i32, moved: Piece) -> bool {
    let mut ex = Exchange::new(pos, m);
    let mut swap = capture_value(moved.piece_type()) - margin;
    let mut side = pos.side_to_move();
    let mut passes = true;
    loop {
        side = !side;
        let Some((sq, pt)) = ex.next_capturer(side) else {
            break;
        };
        passes = !passes;
        swap = capture_value(pt) - swap;
        if swap < i32::from(passes) {
            break;
        }
        ex.take(sq);
    }
    passes
}

/// The recaptures on `m`'s square as both SEE walks see them: the attackers of both colours
/// found once; a capture removes its piece, and only when a slider not yet attacking stands
/// on the line through the vacated square are the sliders looked up again (the x-rays). The
/// set is at every step what [`Position::attackers_to`] would give for the remaining pieces.
struct Exchange<'a> {
    pos: &'a Position,
    to: Square,
    occ: Bitboard,
    attackers: Bitboard,
    sliders: Bitboard,
}

impl<'a> Exchange<'a> {
    /// After `m` (its first capture made).
    #[inline(always)]
    fn new(pos: &'a Position, m: Move) -> Self {
        let to = m.to();
        let mut occ = pos.occupied() | Bitboard::from_square(to);
        if !m.is_drop() {
            occ ^= Bitboard::from_square(m.from());
        }
        Exchange {
            pos,
            to,
            occ,
            attackers: pos.attackers_to_both(to, occ) & occ,
            sliders: pos.pieces_of_type(PieceType::LANCE)
                | pos.pieces_of_type(PieceType::BISHOP)
                | pos.pieces_of_type(PieceType::ROOK)
                | pos.pieces_of_type(PieceType::HORSE)
                | pos.pieces_of_type(PieceType::DRAGON),
        }
    }

    /// `side`'s least valuable attacker, if it may capture (a king only where nothing of
    /// the other side would attack it there).
    #[inline(always)]
    fn next_capturer(&self, side: Color) -> Option<(Square, PieceType)> {
        let (sq, pt) = least_valuable(self.pos, self.attackers & self.pos.pieces(side))?;
        if pt == PieceType::KING {
            let after = self.occ ^ Bitboard::from_square(sq);
            if (self.pos.attackers_to(!side, self.to, after) & after).is_nonempty() {
                return None;
            }
        }
        Some((sq, pt))
    }

    /// The piece on `sq` captures: it leaves its square, uncovering what stood behind it.
    #[inline(always)]
    fn take(&mut self, sq: Square) {
        let sq_bb = Bitboard::from_square(sq);
        self.occ ^= sq_bb;
        self.attackers ^= sq_bb;
        if (line_through(self.to, sq) & self.sliders & self.occ)
            .and_not(self.attackers)
            .is_nonempty()
        {
            self.attackers |= x_rays(self.pos, self.to, sq, self.occ);
        }
    }
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

/// [`see_value`] given `m`'s [`first_capture`]: the whole exchange ([`Exchange`]) played out
/// and its gains folded back.
fn exchange(pos: &Position, m: Move, first: i32, moved: Piece) -> i32 {
    let mut ex = Exchange::new(pos, m);
    let mut side: Color = !pos.side_to_move();
    let mut gain = [0i32; 40];
    gain[0] = first;
    let mut on_square = capture_value(moved.piece_type());
    let mut d = 0;
    while let Some((sq, pt)) = ex.next_capturer(side) {
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = on_square - gain[d - 1];
        on_square = capture_value(pt);
        ex.take(sq);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// The sliders that attack `to` given `occ` along the line through `vacated` (a square in line
/// with `to`): the pieces a capture from `vacated` uncovers, with those already attacking.
#[inline(always)]
fn x_rays(pos: &Position, to: Square, vacated: Square, occ: Bitboard) -> Bitboard {
    let of = |pt: PieceType| pos.pieces_of_type(pt);
    let found = if vacated.file() == to.file() {
        let lances = of(PieceType::LANCE);
        (rook_file_attacks(to, occ) & (of(PieceType::ROOK) | of(PieceType::DRAGON)))
            | (lance_attacks(Color::White, to, occ) & lances & pos.pieces(Color::Black))
            | (lance_attacks(Color::Black, to, occ) & lances & pos.pieces(Color::White))
    } else if vacated.rank() == to.rank() {
        rook_attacks(to, occ) & (of(PieceType::ROOK) | of(PieceType::DRAGON))
    } else {
        bishop_attacks(to, occ) & (of(PieceType::BISHOP) | of(PieceType::HORSE))
    };
    found & occ
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exchange the plain way, every attacker set looked up afresh:
    /// [`exchange`]'s reference.
    fn reference_exchange(pos: &Position, m: Move) -> i32 {
        let (first, moved) = first_capture(pos, m);
        let to = m.to();
        let mut occ = pos.occupied() | Bitboard::from_square(to);
        if !m.is_drop() {
            occ ^= Bitboard::from_square(m.from());
        }
        let mut gain = vec![first];
        let mut on_square = capture_value(moved.piece_type());
        let mut side: Color = !pos.side_to_move();
        loop {
            let attackers = pos.attackers_to(side, to, occ) & occ;
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
            gain.push(on_square - gain[gain.len() - 1]);
            on_square = capture_value(pt);
            occ ^= Bitboard::from_square(sq);
            side = !side;
        }
        while gain.len() > 1 {
            let last = gain.pop().unwrap_or_default();
            let prev = gain.len() - 1;
            gain[prev] = -(-gain[prev]).max(last);
        }
        gain[0]
    }

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
                    assert_eq!(v, reference_exchange(&pos, m), "{} {m:?}", pos.to_sfen());
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
