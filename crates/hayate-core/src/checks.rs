//! The attacker's legal checking moves, generated from the squares that attack the enemy king
//! instead of filtering every legal move: mate searches call this at every attacker node, and
//! it is [`Stage::Checks`](crate::Stage::Checks).

use crate::attacks::{WITHIN_2, WITHIN_4, king_attacks, line_through};
use crate::movegen::{dead_ranks, promotion_zone};
use crate::{Bitboard, Move, MoveList, Piece, PieceType, Position, attacks};

/// Appends every legal move of the side to move that gives check. Nothing when the enemy king
/// is absent. Pawn drops that would mate are left out (打ち歩詰め), as in the rules core.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    if pos.king_square(!us).is_none() {
        return;
    }
    if pos.in_check() {
        // Rare in problems: the attacker must answer a check first, so filter its evasions.
        let mut all = MoveList::new();
        pos.generate_legal(&mut all);
        for &m in all.iter() {
            if pos.gives_check(m) {
                list.push(m);
            }
        }
        return;
    }
    let hand = pos.hand(us);
    if !hand.is_empty() {
        for pt in PieceType::HAND_TYPES {
            if !hand.has(pt) {
                continue;
            }
            let mut tos = drop_check_squares(pos, pt);
            if pt == PieceType::PAWN {
                tos = tos.and_not(pos.pawn_files(us));
                if let Some(sq) = tos.lsb()
                    && pos.is_pawn_drop_mate(sq)
                {
                    tos.clear(sq);
                }
            }
            let pc = Piece::new(us, pt);
            for to in tos {
                list.push(Move::new_drop(pc, to));
            }
        }
    }
    generate_board_checks(pos, list, |_| true);
}

/// The empty squares where a drop of `pt` by the side to move checks the enemy king, the
/// ranks the piece could never leave excluded (the pawn's file and drop-mate rules are not
/// applied). A piece of ours on a square it attacks the king from is a piece of theirs on
/// the king's square attacking that square. Empty without the enemy king.
#[inline]
pub fn drop_check_squares(pos: &Position, pt: PieceType) -> Bitboard {
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(!us) else {
        return Bitboard::EMPTY;
    };
    let occ = pos.occupied();
    (attacks(!us, pt, ksq, occ) & Bitboard::ALL.and_not(occ)).and_not(dead_ranks(us, pt))
}

/// Appends the board moves (no drops) of the side to move that give check and that `wanted`
/// accepts (asked before the check test, so a cheap refusal saves it), in the order
/// [`generate_checks`] lists them after its drops. The side to move must not be in check.
#[inline]
pub fn generate_board_checks(pos: &Position, list: &mut MoveList, wanted: impl Fn(Move) -> bool) {
    debug_assert!(!pos.in_check());
    let us = pos.side_to_move();
    let them = !us;
    let Some(ksq) = pos.king_square(them) else {
        return;
    };
    let occ = pos.occupied();

    // Board moves: direct checks land on a checking square of the moved (or promoted) type;
    // a piece shielding the king from one of our sliders checks by moving off the line.
    let discoverers = pos.state().blockers[them.index()] & pos.pieces(us);
    let pinned = pos.pinned(us);
    let our_king = pos.king_square(us);
    let targets = Bitboard::ALL.and_not(pos.pieces(us));
    let zone = promotion_zone(us);
    // A stepping piece checks from next to the king, so it starts within 2 squares of it; a
    // knight checks from two ranks away after jumping two ranks, so within 4. Farther pieces
    // can only check by uncovering a slider. The set keeps the board's square order, so the
    // list comes out as if every piece were tried.
    let sliders = pos.pieces_of(us, PieceType::LANCE)
        | pos.pieces_of(us, PieceType::BISHOP)
        | pos.pieces_of(us, PieceType::ROOK)
        | pos.pieces_of(us, PieceType::HORSE)
        | pos.pieces_of(us, PieceType::DRAGON);
    let froms = (pos.pieces(us) & Bitboard(WITHIN_2[ksq.index()]))
        | (pos.pieces_of(us, PieceType::KNIGHT) & Bitboard(WITHIN_4[ksq.index()]))
        | sliders
        | discoverers;
    for from in froms {
        let pc = pos.piece_on(from);
        let pt = pc.piece_type();
        let from_bb = Bitboard::from_square(from);
        let mut tos = attacks(us, pt, from, occ) & targets;
        if let (true, Some(k)) = (pinned.contains(from), our_king) {
            tos &= line_through(k, from);
        }
        if !discoverers.contains(from) {
            let occ_wo = occ ^ from_bb;
            let mut cand = attacks(them, pt, ksq, occ_wo);
            if pt.can_promote() {
                cand |= attacks(them, pt.promoted(), ksq, occ_wo);
            }
            tos &= cand;
        }
        if tos.is_empty() {
            continue;
        }
        if pt == PieceType::KING {
            let occ_wo = occ ^ from_bb;
            for to in tos & king_attacks(from) {
                if !pos.is_attacked_by(them, to, occ_wo) {
                    let m = Move::new_board(from, to, false, pc, pos.piece_on(to));
                    push_if_check(pos, list, &wanted, m);
                }
            }
            continue;
        }
        let dead = dead_ranks(us, pt);
        let can_promote = pt.can_promote();
        for to in tos {
            let cap = pos.piece_on(to);
            if can_promote && (zone.contains(from) || zone.contains(to)) {
                push_if_check(pos, list, &wanted, Move::new_board(from, to, true, pc, cap));
            }
            if !dead.contains(to) {
                push_if_check(
                    pos,
                    list,
                    &wanted,
                    Move::new_board(from, to, false, pc, cap),
                );
            }
        }
    }
}

/// Appends `m` when the caller wants it (asked first: it is the cheaper test) and it checks.
#[inline(always)]
fn push_if_check(pos: &Position, list: &mut MoveList, wanted: &impl Fn(Move) -> bool, m: Move) {
    if wanted(m) && pos.gives_check(m) {
        list.push(m);
    }
}
