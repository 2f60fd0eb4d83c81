//! The df-pn entry point for engines and tools: options, result, and the mate line.

use crate::checks::generate_checks;
use crate::dfpn::Solver;
use crate::exact::exact_mate_line_until;
use crate::futile::{Defence, only_futile};
use crate::mate1::mate_in_1_with;
use crate::tt::INF;
use hayate_core::{Move, MoveList, Position};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Limits and sizes for [`solve`].
#[derive(Clone, Debug)]
pub struct DfpnOptions {
    /// Wall-clock limit; `None` for none.
    pub time_limit: Option<Duration>,
    /// Limit on moves made; `None` for none.
    pub max_nodes: Option<u64>,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Mate lines up to this many plies are made exact (shortest mate, longest defence) by a
    /// fixed-depth search after the proof; 0 turns this off.
    pub exact_line_plies: u32,
    /// Moves the exact-line search may make before the df-pn line is kept as it is.
    pub exact_line_budget: u64,
    /// Which defender moves count: all legal evasions (the default, for `go mate`), or all but
    /// futile interposition drops (problem-collection convention).
    pub defence: Defence,
}

impl Default for DfpnOptions {
    fn default() -> DfpnOptions {
        DfpnOptions {
            time_limit: None,
            max_nodes: None,
            hash_mb: 64,
            exact_line_plies: 11,
            exact_line_budget: 2_000_000,
            defence: Defence::AllLegal,
        }
    }
}

/// The answer of a mate search, as `checkmate` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A mate: the moves, attacker first, ending in checkmate.
    Mate(Vec<Move>),
    /// Proven: no mate exists.
    NoMate,
    /// Stopped (flag, time or node limit) before an answer.
    Timeout,
}

impl MateResult {
    /// The USI `checkmate` line: `checkmate <moves>`, `checkmate nomate` or `checkmate timeout`.
    pub fn to_usi(&self) -> String {
        match self {
            MateResult::Mate(line) => {
                let moves: Vec<String> = line.iter().map(|m| m.to_usi()).collect();
                format!("checkmate {}", moves.join(" "))
            }
            MateResult::NoMate => "checkmate nomate".to_string(),
            MateResult::Timeout => "checkmate timeout".to_string(),
        }
    }
}

/// A result with the work it took.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// The answer.
    pub result: MateResult,
    /// Moves made by df-pn (line extraction included).
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Solves the position for the side to move (the attacker) with df-pn. Returns when proven,
/// disproven, `stop` is set, or a limit is reached.
pub fn solve(pos: &Position, opts: &DfpnOptions, stop: &AtomicBool) -> MateResult {
    solve_with_report(pos, opts, stop).result
}

/// [`solve`], also reporting nodes and time.
pub fn solve_with_report(pos: &Position, opts: &DfpnOptions, stop: &AtomicBool) -> SolveReport {
    // Positions before the root are not part of the problem: start from a bare copy.
    let root = pos.without_history();
    // The recursion follows the proof, hundreds of plies deep for long problems: give it room.
    let fallback = root.clone();
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("dfpn".into())
            .stack_size(512 << 20)
            .spawn_scoped(s, move || run(root, opts, stop));
        match spawned {
            Ok(h) => h.join().unwrap_or(SolveReport {
                result: MateResult::Timeout,
                nodes: 0,
                elapsed: Duration::ZERO,
            }),
            Err(_) => run(fallback, opts, stop),
        }
    })
}

fn run(mut root: Position, opts: &DfpnOptions, stop: &AtomicBool) -> SolveReport {
    let t0 = Instant::now();
    let attacker = root.side_to_move();
    let deadline = opts.time_limit.map(|d| t0 + d);
    let mut solver = Solver::new(
        attacker,
        opts.hash_mb,
        opts.max_nodes.unwrap_or(u64::MAX),
        deadline,
        stop,
    );
    solver.defence = opts.defence;
    let result = if root.king_square(!attacker).is_none() {
        MateResult::NoMate
    } else {
        let r = solver.mid(&mut root, INF, INF, 0);
        if r.pn == 0 {
            // The proof is in: give the line extraction a tenth more time and nodes.
            let extra = opts
                .time_limit
                .map(|t| Instant::now() + t / 10 + Duration::from_millis(100));
            solver.extend(extra, solver.nodes / 10 + 100_000);
            match extract_line(&mut solver, &mut root) {
                Some(line) => MateResult::Mate(shorten(&mut root, line, opts, extra, stop)),
                None => MateResult::Timeout,
            }
        } else if r.dn == 0 {
            MateResult::NoMate
        } else {
            MateResult::Timeout
        }
    };
    SolveReport {
        result,
        nodes: solver.nodes,
        elapsed: t0.elapsed(),
    }
}

/// Replaces the line by the exact one (shortest mate, longest defence) when there is a mate of
/// at most `exact_line_plies` and the fixed-depth search finds it within its budget.
fn shorten(
    root: &mut Position,
    line: Vec<Move>,
    opts: &DfpnOptions,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Vec<Move> {
    let max = (line.len() as u32).min(opts.exact_line_plies);
    if max == 0 {
        return line;
    }
    match exact_mate_line_until(
        root,
        max,
        opts.exact_line_budget,
        opts.defence,
        deadline,
        Some(stop),
    ) {
        Ok(Some(exact)) if exact.len() <= line.len() => exact,
        _ => line,
    }
}

/// Follows the proof in the table: at attacker nodes the proven check with the shortest
/// proof, at defender nodes the evasion with the longest. Children the table lost are proved
/// again. `None` if the line cannot be completed (stopped, or a cycle).
fn extract_line(solver: &mut Solver<'_>, pos: &mut Position) -> Option<Vec<Move>> {
    let mut line: Vec<Move> = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut result = None;
    for _ in 0..4000 {
        seen.insert(pos.key());
        let or = pos.side_to_move() == solver.attacker;
        let mut moves = MoveList::new();
        if or {
            generate_checks(pos, &mut moves);
        } else {
            pos.generate_legal(&mut moves);
        }
        if moves.is_empty() || (!or && only_futile(pos, &moves, solver.defence)) {
            if !or {
                result = Some(line.clone());
            }
            break;
        }
        let mut best: Option<(Move, u16)> = None;
        if or && let Some(m) = mate_in_1_with(pos, solver.defence) {
            best = Some((m, 0));
        }
        for pass in 0..2 {
            if best.is_some() {
                break;
            }
            if pass == 1 {
                // The table lost the proving child: prove this node again (its children's
                // first looks store the short proofs), then look once more.
                let r = solver.mid(pos, INF, INF, line.len());
                if r.pn != 0 {
                    break;
                }
            }
            for &m in moves.iter() {
                pos.do_move(m);
                let key = pos.key();
                let len = if seen.contains(&key) {
                    None
                } else {
                    proven_len(solver, pos, line.len() + 1, !or)
                };
                pos.undo_move(m);
                if solver.aborted {
                    break;
                }
                match (len, or) {
                    (Some(l), true) if best.is_none_or(|(_, b)| l < b) => best = Some((m, l)),
                    (Some(l), false) if best.is_none_or(|(_, b)| l > b) => best = Some((m, l)),
                    (None, false) => {
                        best = None;
                        break;
                    }
                    _ => {}
                }
            }
            if best.is_some() || !or {
                break;
            }
        }
        let Some((m, _)) = best else { break };
        solver.path_push(pos.board_key());
        pos.do_move(m);
        line.push(m);
    }
    for &m in line.iter().rev() {
        pos.undo_move(m);
        solver.path_pop(pos.board_key());
    }
    result
}

/// The proof length of the node at `pos` if the table holds a proof; with `reprove`, a node the
/// table does not know as proven is searched again first.
fn proven_len(
    solver: &mut Solver<'_>,
    pos: &mut Position,
    ply: usize,
    reprove: bool,
) -> Option<u16> {
    let key = pos.board_key();
    let hand = pos.hand(solver.attacker);
    if let Some(p) = solver.tt.probe(key, hand)
        && p.pn == 0
    {
        return Some(p.len);
    }
    if !reprove || solver.repeated(pos) {
        return None;
    }
    let r = solver.mid(pos, INF, INF, ply);
    (r.pn == 0).then_some(r.len)
}
