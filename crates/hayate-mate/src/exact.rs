//! Exact short mate lines: the shortest mate, with the defence that lasts longest, found by
//! iterative deepening of the fixed-depth search. Used to make df-pn's short answers exact.

use crate::futile::{Defence, only_futile};
use crate::oddply::{OddPlyResult, OddPlySearch};
use hayate_core::{Move, MoveList, Position};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The shortest mate (at most `max_plies`) in which every defender move is one that delays mate
/// longest; `Ok(None)` when there is no mate within `max_plies`, `Err(())` when `budget` moves
/// made were not enough to tell.
#[allow(clippy::result_unit_err)]
pub fn exact_mate_line(
    pos: &mut Position,
    max_plies: u32,
    budget: u64,
    defence: Defence,
) -> Result<Option<Vec<Move>>, ()> {
    exact_mate_line_until(pos, max_plies, budget, defence, None, None)
}

/// [`exact_mate_line`], also giving up at `deadline` or once `stop` is set.
#[allow(clippy::result_unit_err)]
pub fn exact_mate_line_until(
    pos: &mut Position,
    max_plies: u32,
    budget: u64,
    defence: Defence,
    deadline: Option<Instant>,
    stop: Option<&AtomicBool>,
) -> Result<Option<Vec<Move>>, ()> {
    let mut search = OddPlySearch::new(budget)
        .with_defence(defence)
        .with_limits(deadline, stop);
    let Some((len, _)) = shortest(pos, max_plies, &mut search)? else {
        return Ok(None);
    };
    let mut line = Vec::with_capacity(len as usize);
    let r = build(pos, len, &mut search, &mut line, defence);
    for &m in line.iter().rev() {
        pos.undo_move(m);
    }
    r.map(|()| Some(line))
}

/// The length and first move of the shortest mate within `max_plies`.
fn shortest(
    pos: &mut Position,
    max_plies: u32,
    s: &mut OddPlySearch<'_>,
) -> Result<Option<(u32, Move)>, ()> {
    let mut d = 1;
    while d <= max_plies {
        match s.search(pos, d) {
            OddPlyResult::Mate(m) => return Ok(Some((d, m))),
            OddPlyResult::NoMate => {}
            OddPlyResult::Aborted => return Err(()),
        }
        d += 2;
    }
    Ok(None)
}

/// Plays out (and records) a mate of exactly `len` plies with the longest defence. The moves
/// stay made: the caller takes them back.
fn build(
    pos: &mut Position,
    len: u32,
    s: &mut OddPlySearch<'_>,
    line: &mut Vec<Move>,
    defence: Defence,
) -> Result<(), ()> {
    let Some((_, m)) = shortest(pos, len, s)? else {
        return Err(());
    };
    pos.do_move(m);
    line.push(m);
    let mut evasions = MoveList::new();
    pos.generate_legal(&mut evasions);
    if only_futile(pos, &evasions, defence) {
        return Ok(());
    }
    let mut best: Option<(u32, Move)> = None;
    for &e in evasions.iter() {
        pos.do_move(e);
        let r = shortest(pos, len.saturating_sub(2), s);
        pos.undo_move(e);
        let Some((l, _)) = r? else {
            return Err(());
        };
        if best.is_none_or(|(bl, _)| l > bl) {
            best = Some((l, e));
        }
    }
    let Some((l, e)) = best else {
        return Err(());
    };
    pos.do_move(e);
    line.push(e);
    build(pos, l, s, line, defence)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::check_mate_line_with;

    #[test]
    fn exact_lines_have_the_expected_lengths() {
        for p in crate::testdata::exact_short() {
            if !p.mate {
                continue;
            }
            let mut pos = Position::from_sfen(&p.sfen).expect("valid sfen");
            let line = exact_mate_line(&mut pos, p.plies, u64::MAX, Defence::NoFutileDrops)
                .expect("no budget")
                .expect("a mate");
            assert_eq!(line.len() as u32, p.plies, "{}", p.sfen);
            check_mate_line_with(&pos, &line, Defence::NoFutileDrops)
                .expect("a checkmate sequence");
        }
    }
}
