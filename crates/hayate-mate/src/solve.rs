//! The df-pn entry point for engines and tools: options, result, and the mate line. After the
//! first proof, an optional post-search proves the shortest mate (KomoringHeights' idea: "mate
//! within L" and "no mate within L - 2" make "exactly L"), then the line is read off with every
//! defender move proven a longest resistance.

use crate::dfpn::Solver;
use crate::exact::exact_mate_line_until;
use crate::futile::Defence;
use crate::line::{Line, mate_line};
use crate::progress::Progress;
use crate::tt::NO_MATE;
use hayate_core::{Move, Position};
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
    /// Which defender moves count: all legal evasions (the default, the rules of the game), or
    /// all but futile interposition drops (the tsume-shogi convention).
    pub defence: Defence,
    /// After the first mate, go on (within the limits) to prove the shortest, and prove each
    /// defender move of the line a longest resistance. Off by default: players that only need
    /// a mate stop at the first.
    pub post_search: bool,
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
            post_search: false,
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
    /// The first mate found: its length in plies, when, and after how many nodes.
    pub first_mate: Option<(usize, Duration, u64)>,
    /// Whether the mate's length is proven the shortest and every defender move of the line a
    /// longest resistance.
    pub shortest: bool,
    /// The table size used in MiB (less than asked when memory is short).
    pub hash_mb: usize,
}

/// Solves the position for the side to move (the attacker) with df-pn. Returns when proven,
/// disproven, `stop` is set, or a limit is reached.
pub fn solve(pos: &Position, opts: &DfpnOptions, stop: &AtomicBool) -> MateResult {
    solve_with_report(pos, opts, stop).result
}

/// [`solve`], also reporting nodes and time.
pub fn solve_with_report(pos: &Position, opts: &DfpnOptions, stop: &AtomicBool) -> SolveReport {
    solve_with_progress(pos, opts, stop, &mut |_| {})
}

/// [`solve_with_report`], telling `progress` how it goes: about once a second, and at each
/// mate proven (the first, each shorter one, the one proven shortest).
pub fn solve_with_progress(
    pos: &Position,
    opts: &DfpnOptions,
    stop: &AtomicBool,
    progress: &mut (dyn FnMut(&Progress) + Send),
) -> SolveReport {
    // Positions before the root are not part of the problem: start from a bare copy.
    let root = pos.without_history();
    // The recursion follows the proof, hundreds of plies deep for long problems: give it room.
    let fallback = root.clone();
    let mut spawned_ok = false;
    let report = std::thread::scope(|s| {
        let progress = &mut *progress;
        let spawned = std::thread::Builder::new()
            .name("dfpn".into())
            .stack_size(512 << 20)
            .spawn_scoped(s, move || run(root, opts, stop, progress));
        match spawned {
            Ok(h) => {
                spawned_ok = true;
                h.join().ok()
            }
            Err(_) => None,
        }
    });
    match report {
        Some(r) => r,
        None if !spawned_ok => run(fallback, opts, stop, progress),
        None => SolveReport {
            result: MateResult::Timeout,
            nodes: 0,
            elapsed: Duration::ZERO,
            first_mate: None,
            shortest: false,
            hash_mb: 0,
        },
    }
}

fn run(
    mut root: Position,
    opts: &DfpnOptions,
    stop: &AtomicBool,
    progress: &mut (dyn FnMut(&Progress) + Send),
) -> SolveReport {
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
    solver.progress = Some(progress);
    let mut report = SolveReport {
        result: MateResult::Timeout,
        nodes: 0,
        elapsed: Duration::ZERO,
        first_mate: None,
        shortest: false,
        hash_mb: solver.tt.mb(),
    };
    if root.king_square(!attacker).is_none() {
        report.result = MateResult::NoMate;
    } else {
        let r = solver.search_within(&mut root, 0, NO_MATE);
        if r.pn == 0 {
            report.first_mate = Some((r.len as usize, t0.elapsed(), solver.nodes));
            let (line, shortest) = mate_after_proof(&mut solver, &mut root, r.len, opts);
            report.shortest = shortest;
            if let Some(line) = line {
                report.result = MateResult::Mate(line);
            }
        } else if r.dn == 0 {
            report.result = MateResult::NoMate;
        }
    }
    report.nodes = solver.nodes;
    report.elapsed = t0.elapsed();
    report
}

/// A deadline a little past `deadline` (a tenth of the limit more, and 100 ms) for reading
/// the line off a proof that is in.
fn grace(opts: &DfpnOptions, deadline: Option<Instant>) -> Option<Instant> {
    opts.time_limit.map(|t| {
        let base = deadline.map_or_else(Instant::now, |d| d.max(Instant::now()));
        base + t / 10 + Duration::from_millis(100)
    })
}

/// Once the root is proven within `len` plies: the first line; then (with `post_search`) the
/// line with every defence proven a longest resistance (a line that is not could be shorter
/// than the mate), and shorter mates, each read off the same way, until the shortest is proven
/// or the limits are reached. Returns the line and whether it is proven shortest.
fn mate_after_proof(
    solver: &mut Solver<'_>,
    root: &mut Position,
    len: u16,
    opts: &DfpnOptions,
) -> (Option<Vec<Move>>, bool) {
    let deadline = solver.deadline();
    let max_nodes = solver.max_nodes();
    solver.extend(grace(opts, None), solver.nodes / 10 + 100_000);
    let quick = mate_line(solver, root, len, false);
    tell(solver, quick.as_ref(), true, false);
    if !opts.post_search {
        let line = quick.map(|l| shorten(root, l.moves, opts, grace(opts, None), solver.stop()));
        return (line, false);
    }
    // The post-search first, for half the time left: a read-off from an exact length finds
    // each longest resistance at the first try (one bounded search), from a loose one it must
    // first lower the length at every defender node. Then the read-off, a little past the limit.
    let end = grace(opts, deadline);
    let post_deadline = deadline.map(|d| {
        let now = Instant::now();
        now + d.saturating_duration_since(now) / 2
    });
    let mut len = len;
    let mut shortest = len <= 1;
    let mut told = quick.as_ref().map_or(usize::MAX, |l| l.moves.len());
    while !shortest && len >= 3 {
        solver.extend(post_deadline, 0);
        solver.set_max_nodes(max_nodes);
        let r = solver.search_within(root, 0, len - 2);
        if r.pn == 0 {
            len = r.len;
            shortest = len <= 1;
            solver.extend(end, 100_000);
            if let Some(l) = mate_line(solver, root, len, false)
                && l.moves.len() < told
            {
                told = l.moves.len();
                tell(solver, Some(&l), false, false);
            }
        } else {
            shortest = r.dn == 0;
            break;
        }
    }
    solver.extend(end, solver.nodes / 10 + 100_000);
    // A line whose read-off ran out of budget has some defences taken from the table.
    let (best, partial) = match mate_line(solver, root, len, true) {
        Some(l) if l.proven => (Some(l), None),
        other => (None, other),
    };
    let exact = shortest && best.as_ref().is_some_and(|l| l.moves.len() == len as usize);
    if exact {
        tell(solver, best.as_ref(), false, true);
    }
    let line = match best {
        // A longer line than the fixed-depth search reaches has had the post-search instead.
        Some(l) if exact || l.moves.len() > opts.exact_line_plies as usize => l.moves,
        Some(l) => shorten(root, l.moves, opts, end, solver.stop()),
        // No line with proven defences in time: the longer of the first and the partly
        // proven one (either may be shorter than the mate).
        None => match [quick, partial]
            .into_iter()
            .flatten()
            .max_by_key(|l| l.moves.len())
        {
            Some(l) => shorten(root, l.moves, opts, end, solver.stop()),
            None => return (None, false),
        },
    };
    (Some(line), exact)
}

/// Reports a mate line to the progress callback.
fn tell(solver: &mut Solver<'_>, line: Option<&Line>, first: bool, shortest: bool) {
    if let Some(l) = line {
        let p = Progress::Mate {
            line: &l.moves,
            shortest,
            first,
            nodes: solver.nodes,
            elapsed: solver.elapsed(),
        };
        solver.report(&p);
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
