//! The mate line read off a proof: at attacker nodes a check proven within what is left, at
//! defender nodes the longest resistance. With `prove`, each defender move is shown to be the
//! longest by a bounded search (no mate within two plies less after it), so the line's length
//! is the node's true value whenever the root's length is proven shortest.

use crate::dfpn::Solver;
use crate::futile::only_futile;
use crate::mate1::mate_in_1_with;
use hayate_core::generate_checks;
use hayate_core::{Move, MoveList, Position};

/// A mate line and whether every defender move in it was proven a longest resistance.
pub(crate) struct Line {
    pub moves: Vec<Move>,
    pub proven: bool,
}

/// Plays out a mate of at most `value` plies from `pos` (proven in the table). `None` when the
/// table and the remaining budget cannot complete the line (or it would repeat a position).
pub(crate) fn mate_line(
    solver: &mut Solver<'_>,
    pos: &mut Position,
    value: u16,
    prove: bool,
) -> Option<Line> {
    let mut line = Line {
        moves: Vec::new(),
        proven: prove,
    };
    let mut v = value;
    let mut done = false;
    for _ in 0..value as usize + 1 {
        let or = pos.side_to_move() == solver.attacker;
        let ply = line.moves.len();
        let next = if or {
            attacker_move(solver, pos, ply, v)
        } else {
            let mut evasions = MoveList::new();
            pos.generate_legal(&mut evasions);
            if only_futile(pos, &evasions, solver.defence) {
                done = true;
                break;
            }
            defender_move(solver, pos, &evasions, ply, v, &mut line.proven, prove)
        };
        let Some((m, len)) = next else { break };
        solver.path_push(pos.board_key());
        pos.do_move(m);
        line.moves.push(m);
        v = len;
    }
    for &m in line.moves.iter().rev() {
        pos.undo_move(m);
        solver.path_pop(pos.board_key());
    }
    done.then_some(line)
}

/// The proof length of the child after `m` within `need` plies: from the table, else (with
/// `search`) by a bounded search. `None` when not proven (or the child repeats the path).
fn child_proof(
    solver: &mut Solver<'_>,
    pos: &mut Position,
    m: Move,
    ply: usize,
    need: u16,
    search: bool,
) -> Option<u16> {
    pos.do_move(m);
    let r = if solver.repeated(pos) {
        None
    } else if let Some(p) = solver
        .tt
        .probe(pos.board_key(), pos.hand(solver.attacker), need)
        && p.pn == 0
    {
        Some(p.len)
    } else if search {
        let r = solver.search_within(pos, ply + 1, need);
        (r.pn == 0).then_some(r.len)
    } else {
        None
    };
    pos.undo_move(m);
    r
}

/// A check after which the defender is mated within `v - 1` plies, the shortest the table
/// knows; the proof length of its child.
fn attacker_move(
    solver: &mut Solver<'_>,
    pos: &mut Position,
    ply: usize,
    v: u16,
) -> Option<(Move, u16)> {
    if v == 0 {
        return None;
    }
    if let Some(m) = mate_in_1_with(pos, solver.defence) {
        return Some((m, 0));
    }
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    for search in [false, true] {
        let mut best: Option<(Move, u16)> = None;
        for &m in checks.iter() {
            if let Some(l) = child_proof(solver, pos, m, ply, v - 1, search)
                && best.is_none_or(|(_, b)| l < b)
            {
                best = Some((m, l));
                if search {
                    break;
                }
            }
            if solver.aborted {
                return None;
            }
        }
        if best.is_some() {
            return best;
        }
    }
    None
}

/// The evasion that resists longest at a defender node mated within `v` plies, and the proof
/// length after it. With `prove`, bounded searches show that no other evasion lasts longer;
/// when they run out of budget the longest the table knows is taken and `proven` cleared.
fn defender_move(
    solver: &mut Solver<'_>,
    pos: &mut Position,
    evasions: &MoveList,
    ply: usize,
    v: u16,
    proven: &mut bool,
    prove: bool,
) -> Option<(Move, u16)> {
    // Every evasion with its proof length (within v - 1) as the table or a search has it.
    let mut known: Vec<(Move, u16)> = Vec::with_capacity(evasions.len());
    for &e in evasions.iter() {
        let l = child_proof(solver, pos, e, ply, v.saturating_sub(1), true)?;
        known.push((e, l));
    }
    // Longest first; on equal lengths a move before a drop (a drop is the likelier futile).
    known.sort_by_key(|&(e, l)| (std::cmp::Reverse(l), e.is_drop()));
    let mut v = known.first()?.1.saturating_add(1);
    if !prove {
        return known.first().copied();
    }
    // The node's value is v (mated within v) unless every evasion is mated within v - 3. Each
    // bounded search gets this node's share of what is left, so that the time is spread over
    // the whole line instead of running out near the root.
    let limit = solver.max_nodes();
    while v >= 4 {
        for i in 0..known.len() {
            let e = known[i].0;
            let share = node_share(solver, v);
            solver.set_max_nodes(limit.min(solver.nodes.saturating_add(share)));
            pos.do_move(e);
            let r = solver.search_within(pos, ply + 1, v - 3);
            pos.undo_move(e);
            solver.set_max_nodes(limit);
            if solver.aborted {
                *proven = false;
                if out_of_limits(solver, limit) {
                    return known.first().copied();
                }
                // Its share ran out: e was not shown to be mated sooner, the best evidence
                // there is that it resists longest (the table's bounds are only upper ones).
                solver.aborted = false;
                return Some((e, known[i].1.min(v - 1)));
            }
            if r.dn == 0 {
                return Some((e, known[i].1.min(v - 1)));
            }
            known[i].1 = known[i].1.min(r.len);
        }
        // Every evasion is mated sooner: the node's value is smaller than the table said.
        known.sort_by_key(|&(e, l)| (std::cmp::Reverse(l), e.is_drop()));
        v = known[0].1.saturating_add(1).min(v - 2);
    }
    known.first().copied()
}

/// A defender node's share of the nodes left before the solver's limits, at the speed so far:
/// twice an even split over the defender nodes of a line of `v` plies (the top ones search
/// deepest; at least 20,000 nodes).
fn node_share(solver: &Solver<'_>, v: u16) -> u64 {
    let by_nodes = solver.max_nodes().saturating_sub(solver.nodes);
    let by_time = solver.deadline().map_or(u64::MAX, |d| {
        let left = d.saturating_duration_since(std::time::Instant::now());
        let nps = solver.nodes as f64 / solver.elapsed().as_secs_f64().max(1e-3);
        (nps * left.as_secs_f64()) as u64
    });
    (by_nodes.min(by_time) / (v as u64 / 4 + 1)).max(20_000)
}

/// Whether the solver's own limits (time, nodes, stop), not a node's share, ended its search.
fn out_of_limits(solver: &Solver<'_>, limit: u64) -> bool {
    solver.nodes >= limit
        || solver
            .deadline()
            .is_some_and(|d| std::time::Instant::now() >= d)
        || solver.stop().load(std::sync::atomic::Ordering::Relaxed)
}
