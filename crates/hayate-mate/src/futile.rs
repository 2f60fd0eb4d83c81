//! Futile interpositions (無駄合): a drop between a distant checker and the king that the
//! checker simply captures, mating at once. Problem collections that follow the composition
//! convention do not count such drops as defences; the rules of the game do. Searches take
//! the convention as an option ([`Defence`]).

use hayate_core::{Move, MoveList, Position, between};
use std::collections::HashMap;

/// Answers already worked out inside one futility question, by full position key: the same
/// capture positions recur for every drop type and order.
type Memo = HashMap<u64, bool>;

/// Which defender moves a mate search must refute.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Defence {
    /// Every legal evasion (the rules of the game; the final position is checkmate).
    #[default]
    AllLegal,
    /// Every legal evasion except futile interposition drops (the composition convention used
    /// by many problem collections): a check whose only answers are futile drops mates.
    NoFutileDrops,
}

/// Whether the defender's drop `d` (the side to move is in check from one distant slider) is
/// futile: the checker can capture the dropped piece, with or without promotion, and that
/// capture mates, counting a further futile drop as no defence (so a drop far from the king,
/// taken by a slider that then stands nearer, is futile when the nearer ones are). The
/// recursion ends: each capture brings the checker closer to the king.
pub fn is_futile_drop(pos: &mut Position, d: Move) -> bool {
    futile_drop(pos, d, &mut Memo::new())
}

fn futile_drop(pos: &mut Position, d: Move, memo: &mut Memo) -> bool {
    if !d.is_drop() || !pos.in_check() {
        return false;
    }
    let checkers = pos.checkers();
    let (Some(c), Some(k)) = (checkers.lsb(), pos.king_square(pos.side_to_move())) else {
        return false;
    };
    if checkers.has_more_than_one() || !between(k, c).contains(d.to()) {
        return false;
    }
    pos.do_move(d);
    let mut futile = false;
    let checker = pos.piece_on(c);
    let captured = pos.piece_on(d.to());
    for promote in [false, true] {
        if promote && !checker.piece_type().can_promote() {
            continue;
        }
        let m = Move::new_board(c, d.to(), promote, checker, captured);
        if !legal(pos, m) {
            continue;
        }
        pos.do_move(m);
        futile = match memo.get(&pos.key()) {
            Some(&v) => v,
            None => {
                let v = mated_memo(pos, memo);
                memo.insert(pos.key(), v);
                v
            }
        };
        pos.undo_move(m);
        if futile {
            break;
        }
    }
    pos.undo_move(d);
    futile
}

/// Whether board move `m` is among the legal moves here (promotion flag included).
fn legal(pos: &Position, m: Move) -> bool {
    pos.legal_moves().iter().any(|x| x.same(m))
}

/// Whether the side to move (in check) is mated under `defence`: no evasion at all, or, under
/// [`Defence::NoFutileDrops`], only futile drops.
pub fn is_mated(pos: &mut Position, defence: Defence) -> bool {
    if !pos.in_check() {
        return false;
    }
    let mut evasions = MoveList::new();
    pos.generate_legal(&mut evasions);
    only_futile(pos, &evasions, defence)
}

/// [`is_mated`] under [`Defence::NoFutileDrops`] sharing `memo`.
fn mated_memo(pos: &mut Position, memo: &mut Memo) -> bool {
    if !pos.in_check() {
        return false;
    }
    let mut evasions = MoveList::new();
    pos.generate_legal(&mut evasions);
    if evasions.iter().any(|e| !e.is_drop()) {
        return false;
    }
    evasions.iter().all(|&e| futile_drop(pos, e, memo))
}

/// Whether `evasions` (legal here) hold nothing but futile drops under `defence` (true when
/// empty).
pub(crate) fn only_futile(pos: &mut Position, evasions: &MoveList, defence: Defence) -> bool {
    if evasions.is_empty() {
        return true;
    }
    if defence == Defence::AllLegal || evasions.iter().any(|e| !e.is_drop()) {
        return false;
    }
    let mut memo = Memo::new();
    evasions.iter().all(|&e| futile_drop(pos, e, &mut memo))
}
