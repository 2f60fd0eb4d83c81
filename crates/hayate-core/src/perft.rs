//! Perft: counts the leaves of the legal-move tree, the standard check of a move generator.

use crate::{Move, MoveList, Position};

/// Leaves of the legal-move tree of depth `depth`. Bulk-counts at the last ply: the length of the
/// legal list is the number of leaves below a leaf parent.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal() as u64;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut n = 0;
    for &m in list.iter() {
        pos.do_move(m);
        n += perft(pos, depth - 1);
        pos.undo_move(m);
    }
    n
}

/// Perft split by root move.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    for &m in pos.legal_moves().iter() {
        pos.do_move(m);
        out.push((m, perft(pos, depth - 1)));
        pos.undo_move(m);
    }
    out
}
