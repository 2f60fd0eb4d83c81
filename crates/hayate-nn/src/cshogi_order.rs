//! The order in which cshogi (Apery's `MoveList<LegalAll>`) lists the legal moves, so that
//! `hayate dataset features` can print the labels in the same order as the reference dump and
//! the two diff byte for byte.
//!
//! Apery generates pseudo-legal moves in a fixed order and then removes the illegal ones by
//! overwriting each with the last move of the list, which permutes the tail. The generation
//! order, as read from its behaviour on the reference data:
//!
//! - not in check: drops, then pawns (those entering the promotion zone first), lances, knights, silvers, bishops, rooks, the gold-likes
//!   with horses and dragons, and the king, each origin in ascending square order and each
//!   destination ascending, the promotion before the non-promotion. King moves into attacked
//!   squares and moves of pinned pieces are generated and later removed.
//! - drops: pawns first, the drop in front of the enemy king (when it is no pawn-drop mate)
//!   before the others; then the other pieces by bands of destination ranks (the last rank,
//!   the second last, the rest), each square ascending, and per square the types in the order
//!   knight, lance, silver, gold, bishop, rook (as far as the band allows them).
//! - in check: king moves away from the checkers' lines (attacked or not), then, against a
//!   single checker, captures and interpositions by the pieces in the order above, then
//!   interposing drops.
//!
//! Whatever this emulation misses is appended at the end, so the result always holds every
//! legal move exactly once.

use crate::orient::orient;
use hayate_core::attacks::{king_attacks, pawn_attacks};
use hayate_core::{
    Bitboard, Color, Move, MoveList, Piece, PieceType, Position, Square, attacks, between,
};

/// The legal moves of `pos` in cshogi's order.
pub fn cshogi_legal_order(pos: &Position) -> Vec<Move> {
    let legal = pos.legal_moves();
    let mut list = Vec::with_capacity(legal.len() + 32);
    if pos.in_check() {
        evasions(pos, &mut list);
    } else {
        let us = pos.side_to_move();
        drops(pos, !pos.occupied(), &mut list);
        piece_moves(pos, !pos.pieces(us), &mut list);
        let ksq = pos.king_square(us);
        if let Some(k) = ksq {
            let pc = pos.piece_on(k);
            for to in king_attacks(k) & !pos.pieces(us) {
                list.push(Move::new_board(k, to, false, pc, pos.piece_on(to)));
            }
        }
    }
    remove_illegal(&mut list, &legal);
    for &m in legal.iter() {
        if !list.iter().any(|x| x.same(m)) {
            list.push(m);
        }
    }
    list
}

/// Apery's legality filter: an illegal move is overwritten by the last move, which is checked
/// in its turn.
fn remove_illegal(list: &mut Vec<Move>, legal: &MoveList) {
    let mut i = 0;
    while i < list.len() {
        let m = list[i];
        let dup = list[..i].iter().any(|x| x.same(m));
        if !dup && legal.iter().any(|x| x.same(m)) {
            i += 1;
        } else {
            list.swap_remove(i);
        }
    }
}

/// Relative rank 1..=9 of `sq` for `c` (1 = the far rank).
fn rel_rank(sq: Square, c: Color) -> u8 {
    match c {
        Color::Black => sq.rank(),
        Color::White => 10 - sq.rank(),
    }
}

fn drops(pos: &Position, target: Bitboard, list: &mut Vec<Move>) {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    if hand.count(PieceType::PAWN) > 0 {
        let mut to_bb = target & !orient(Bitboard::rank(1), us) & !pos.pawn_files(us);
        if let Some(ksq) = pos.king_square(!us)
            && rel_rank(ksq, us) != 9
        {
            // The square from which a pawn of ours would check the enemy king.
            let check_sq = pawn_attacks(!us, ksq).lsb();
            if let Some(sq) = check_sq
                && to_bb.contains(sq)
                && pos.piece_on(sq).is_empty()
            {
                if !pos.is_pawn_drop_mate(sq) {
                    list.push(Move::new_drop(Piece::new(us, PieceType::PAWN), sq));
                }
                to_bb.clear(sq);
            }
        }
        for to in to_bb {
            list.push(Move::new_drop(Piece::new(us, PieceType::PAWN), to));
        }
    }
    let order = [
        PieceType::KNIGHT,
        PieceType::LANCE,
        PieceType::SILVER,
        PieceType::GOLD,
        PieceType::BISHOP,
        PieceType::ROOK,
    ];
    let have: Vec<PieceType> = order.into_iter().filter(|&pt| hand.count(pt) > 0).collect();
    if have.is_empty() {
        return;
    }
    let no_knight: Vec<PieceType> = have
        .iter()
        .copied()
        .filter(|&pt| pt != PieceType::KNIGHT)
        .collect();
    let no_knight_lance: Vec<PieceType> = no_knight
        .iter()
        .copied()
        .filter(|&pt| pt != PieceType::LANCE)
        .collect();
    let rank1 = orient(Bitboard::rank(1), us);
    let rank2 = orient(Bitboard::rank(2), us);
    let bands = [
        (target & rank1, &no_knight_lance),
        (target & rank2, &no_knight),
        (target & !(rank1 | rank2), &have),
    ];
    for (squares, types) in bands {
        for to in squares {
            for &pt in types.iter() {
                list.push(Move::new_drop(Piece::new(us, pt), to));
            }
        }
    }
}

/// Board moves of every piece but the king to `target`, in Apery's piece order.
fn piece_moves(pos: &Position, target: Bitboard, list: &mut Vec<Move>) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let zone = orient(Bitboard::ranks(1, 3), us);
    // Pawns: by destination.
    let pawns = pos.pieces_of(us, PieceType::PAWN);
    let mut pawn_moves: Vec<(Square, Square)> = pawns
        .into_iter()
        .flat_map(|from| {
            (pawn_attacks(us, from) & target)
                .into_iter()
                .map(move |to| (from, to))
        })
        .collect();
    // Pawns entering the promotion zone come first, then the others, each by destination.
    pawn_moves.sort_by_key(|&(_, to)| (!zone.contains(to), to.index()));
    for (from, to) in pawn_moves {
        push_promotions(pos, from, to, zone, list);
    }
    for pt in [
        PieceType::LANCE,
        PieceType::KNIGHT,
        PieceType::SILVER,
        PieceType::BISHOP,
        PieceType::ROOK,
    ] {
        for from in pos.pieces_of(us, pt) {
            for to in attacks(us, pt, from, occ) & target {
                push_promotions(pos, from, to, zone, list);
            }
        }
    }
    let gold_likes =
        pos.golds() | pos.pieces_of_type(PieceType::HORSE) | pos.pieces_of_type(PieceType::DRAGON);
    for from in gold_likes & pos.pieces(us) {
        let pc = pos.piece_on(from);
        for to in attacks(us, pc.piece_type(), from, occ) & target {
            list.push(Move::new_board(from, to, false, pc, pos.piece_on(to)));
        }
    }
}

/// The promotion (when allowed) then the non-promotion (when not a dead piece) of one move.
fn push_promotions(pos: &Position, from: Square, to: Square, zone: Bitboard, list: &mut Vec<Move>) {
    let us = pos.side_to_move();
    let pc = pos.piece_on(from);
    let pt = pc.piece_type();
    let cap = pos.piece_on(to);
    if pt.can_promote() && (zone.contains(from) || zone.contains(to)) {
        list.push(Move::new_board(from, to, true, pc, cap));
    }
    let r = rel_rank(to, us);
    let dead = match pt.raw() {
        1 | 2 => r == 1,
        3 => r <= 2,
        _ => false,
    };
    if !dead {
        list.push(Move::new_board(from, to, false, pc, cap));
    }
}

fn evasions(pos: &Position, list: &mut Vec<Move>) {
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(us) else {
        return;
    };
    let checkers = pos.checkers();
    // Squares a checker still reaches once the king has left its square.
    let occ_without_king = pos.occupied() ^ Bitboard::from_square(ksq);
    let mut banned = Bitboard::EMPTY;
    for sq in checkers {
        let pc = pos.piece_on(sq);
        banned |= attacks(!us, pc.piece_type(), sq, occ_without_king);
    }
    let king = pos.piece_on(ksq);
    for to in king_attacks(ksq) & !pos.pieces(us) & !banned {
        list.push(Move::new_board(ksq, to, false, king, pos.piece_on(to)));
    }
    if checkers.has_more_than_one() {
        return;
    }
    let Some(checker) = checkers.lsb() else {
        return;
    };
    let block = between(checker, ksq);
    piece_moves(pos, block | Bitboard::from_square(checker), list);
    if block.is_nonempty() {
        drops(pos, block, list);
    }
}
