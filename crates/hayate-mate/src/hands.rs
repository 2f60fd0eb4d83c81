//! Proof and disproof hands (証明駒・反証駒): the least attacker hand a proof needs, the most
//! attacker hand a disproof survives. The rest of the pieces off the board are the defender's.

use hayate_core::dead_ranks;
use hayate_core::{Bitboard, Color, Hand, Move, PieceType, Position, attacks, between};

/// `h` with the count of `pt` set to `n`, clamped to what the field can hold.
#[inline]
pub(crate) fn with(h: Hand, pt: PieceType, n: u32) -> Hand {
    let n = n.min(pt.full_set_count() as u32);
    h.with_count(pt, n).unwrap_or(h)
}

/// The per-type maximum of two hands.
pub(crate) fn union(a: Hand, b: Hand) -> Hand {
    let mut h = a;
    for pt in PieceType::HAND_TYPES {
        if b.count(pt) > a.count(pt) {
            h = with(h, pt, b.count(pt));
        }
    }
    h
}

/// The per-type minimum of two hands.
pub(crate) fn intersection(a: Hand, b: Hand) -> Hand {
    let mut h = a;
    for pt in PieceType::HAND_TYPES {
        if b.count(pt) < a.count(pt) {
            h = with(h, pt, b.count(pt));
        }
    }
    h
}

/// The attacker hand before attacker move `m`, given the hand `after` it (for proof and
/// disproof hands alike): a dropped piece comes back, a captured piece goes away.
pub(crate) fn before(after: Hand, m: Move) -> Hand {
    if m.is_drop() {
        let pt = m.dropped_type();
        with(after, pt, after.count(pt) + 1)
    } else if m.is_capture() {
        let pt = m.captured().piece_type().unpromoted();
        with(after, pt, after.count(pt).saturating_sub(1))
    } else {
        after
    }
}

/// The pieces off the board (both hands together), per type.
pub(crate) fn off_board(pos: &Position) -> Hand {
    let a = pos.hand(Color::Black);
    let b = pos.hand(Color::White);
    let mut h = a;
    for pt in PieceType::HAND_TYPES {
        h = with(h, pt, a.count(pt) + b.count(pt));
    }
    h
}

/// At a defender node (side to move in check, attacker `!side`): the proof hand must keep every
/// type the attacker holds all of whenever the defender could interpose on an empty square;
/// with one piece fewer the defender would hold one and could drop it there.
pub(crate) fn add_interposition_types(pos: &Position, proof: Hand) -> Hand {
    let def = pos.side_to_move();
    let att_hand = pos.hand(!def);
    let def_hand = pos.hand(def);
    let checkers = pos.checkers();
    let (Some(ksq), Some(c)) = (pos.king_square(def), checkers.lsb()) else {
        return proof;
    };
    if checkers.has_more_than_one() || between(ksq, c).is_empty() {
        return proof;
    }
    let mut h = proof;
    for pt in PieceType::HAND_TYPES {
        if def_hand.count(pt) == 0 && att_hand.count(pt) > h.count(pt) {
            h = with(h, pt, att_hand.count(pt));
        }
    }
    h
}

/// The proof hand of a defender node with no evasion: nothing, unless interpositions matter.
pub(crate) fn terminal_proof_hand(pos: &Position) -> Hand {
    add_interposition_types(pos, Hand::EMPTY)
}

/// At an attacker node: the disproof hand may not claim more of a type the attacker lacks if a
/// drop of that type could give check (that would be a move the disproof never looked at).
pub(crate) fn remove_checking_drop_types(pos: &Position, disproof: Hand) -> Hand {
    let att = pos.side_to_move();
    let att_hand = pos.hand(att);
    let Some(ksq) = pos.king_square(!att) else {
        return disproof;
    };
    let occ = pos.occupied();
    let empty = Bitboard::ALL.and_not(occ);
    let mut h = disproof;
    for pt in PieceType::HAND_TYPES {
        if att_hand.count(pt) > 0 || h.count(pt) == 0 {
            continue;
        }
        let squares = (attacks(!att, pt, ksq, occ) & empty).and_not(dead_ranks(att, pt));
        if squares.is_nonempty() {
            h = with(h, pt, 0);
        }
    }
    h
}

/// The disproof hand of an attacker node with no check: everything off the board, less the
/// types whose drop could check.
pub(crate) fn terminal_disproof_hand(pos: &Position) -> Hand {
    remove_checking_drop_types(pos, off_board(pos))
}

/// At a defender node disproved by a drop of `m`'s type: the defender must still hold one, so
/// the attacker may hold at most all but one of those off the board.
pub(crate) fn limit_for_defender_drop(pos: &Position, disproof: Hand, m: Move) -> Hand {
    if !m.is_drop() {
        return disproof;
    }
    let pt = m.dropped_type();
    let limit = off_board(pos).count(pt).saturating_sub(1);
    if disproof.count(pt) > limit {
        with(disproof, pt, limit)
    } else {
        disproof
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_and_intersection_are_per_type() {
        let a = Hand::EMPTY
            .with_count(PieceType::GOLD, 2)
            .and_then(|h| h.with_count(PieceType::PAWN, 1));
        let b = Hand::EMPTY
            .with_count(PieceType::GOLD, 1)
            .and_then(|h| h.with_count(PieceType::ROOK, 1));
        let (Some(a), Some(b)) = (a, b) else {
            panic!("hands")
        };
        let u = union(a, b);
        assert_eq!(
            (
                u.count(PieceType::GOLD),
                u.count(PieceType::PAWN),
                u.count(PieceType::ROOK)
            ),
            (2, 1, 1)
        );
        let i = intersection(a, b);
        assert_eq!(
            (
                i.count(PieceType::GOLD),
                i.count(PieceType::PAWN),
                i.count(PieceType::ROOK)
            ),
            (1, 0, 0)
        );
    }
}
