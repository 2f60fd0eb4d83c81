//! The search proper: one `Worker` per thread runs iterative deepening over a shared
//! transposition table (Lazy SMP). Principal variation search with aspiration windows,
//! quiescence (with a mate-in-1 probe at each of its nodes), null-move pruning, reverse futility,
//! razoring, singular extensions, late-move reductions and pruning, futility and
//! SEE pruning, a static eval corrected by what earlier searches found, mate-distance pruning,
//! repetition and entering-king handling from the rules core.

use crate::correction::CorrKeys;
use crate::history::{CONT_PLIES, ContKey, Conts, History, cont_key};
use crate::movepick::{MovePicker, QuietTerms, is_bad_capture_score};
use crate::params::SearchParams;
use crate::see::{capture_value, see_ge};
use crate::tt::{Bound, TranspositionTable};
use crate::value::*;
use hayate_core::player::{Bound as InfoBound, Info, Signals};
use hayate_core::timeman::TimePlan;
use hayate_core::{Color, DeclarationRule, Move, Move16, Position, Repetition};
use hayate_eval::Evaluator;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Settings of one search that every worker shares.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Lines to search at the root.
    pub multipv: usize,
    /// Value of a draw for the side to move at the root (the opponent gets its negation).
    pub draw_value: Value,
    /// Games end drawn after this many plies (SFEN move number > this); 0 = no limit.
    pub max_moves_to_draw: u32,
    /// Depth limit.
    pub depth_limit: i32,
    /// Node limit (0 = none).
    pub node_limit: u64,
    /// The tunable constants.
    pub params: SearchParams,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            multipv: 1,
            draw_value: 0,
            max_moves_to_draw: 0,
            depth_limit: MAX_PLY as i32 - 10,
            node_limit: 0,
            params: SearchParams::default(),
        }
    }
}

/// State shared by all workers of one search.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// External stop / ponderhit.
    pub signals: &'a Signals,
    /// Internal stop (time, nodes, main thread done).
    pub abort: AtomicBool,
    /// Nodes of all workers (published every 1024 nodes).
    pub total_nodes: AtomicU64,
    /// When the search started.
    pub start: Instant,
}

/// A root move with what the search learnt about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score of the latest search that gave this move one: the line's first move always gets
    /// one, another move only by raising alpha; one that fails low (or has not been searched
    /// yet) holds -INFINITE. Scores carry into the next iteration until its searches replace
    /// them.
    pub score: Value,
    /// Score at the previous iteration.
    pub prev_score: Value,
    /// Selective depth reached.
    pub sel_depth: usize,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
}

impl RootMove {
    /// The latest score known: this iteration's, else the previous one's (-INFINITE if none).
    pub fn last_score(&self) -> Value {
        if self.score == -INFINITE {
            self.prev_score
        } else {
            self.score
        }
    }
}

#[derive(Clone, Copy)]
struct Frame {
    static_eval: Value,
    killers: [Move; 2],
    current: Move,
    /// Continuation-history block of `current` (0 for none or a null move).
    cont: ContKey,
    /// The move a singular-extension search leaves out at this ply (NONE otherwise).
    excluded: Move,
    /// Beta cutoffs among this node's children so far (a child that often cuts is at a cut
    /// node that is probably one: reduce it more).
    cutoffs: u8,
    /// Plies by which LMR reduced the search of `current` (0 outside a reduced search).
    reduction: i32,
}

/// Time control of the main worker.
pub struct Clock {
    /// The plan.
    pub plan: TimePlan,
    /// Still pondering (no time limit until ponderhit).
    pub pondering: bool,
    /// When our own clock started (the search start, or ponderhit).
    pub start: Instant,
}

/// One search thread.
pub struct Worker<'a, E: Evaluator> {
    /// 0 for the main thread.
    pub id: usize,
    /// The thread's own copy of the position.
    pub pos: Position,
    eval: &'a E,
    est: E::Stack,
    shared: &'a Shared<'a>,
    cfg: SearchConfig,
    history: &'a mut History,
    frames: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    reductions: Vec<i32>,
    /// One move picker per ply, reused: filled in place, never copied.
    pickers: Vec<Option<Box<MovePicker>>>,
    /// Root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    /// Nodes searched by this worker.
    pub nodes: u64,
    published: u64,
    sel_depth: usize,
    pv_idx: usize,
    root_depth: i32,
    /// Last fully searched depth.
    pub completed_depth: i32,
    root_side: Color,
    /// Time control (main worker only).
    pub clock: Option<Clock>,
}

const QS_DEPTH: i32 = 0;

impl<'a, E: Evaluator> Worker<'a, E> {
    /// A worker over `pos` (with its history) searching `root_moves` (all legal moves if empty).
    pub fn new(
        id: usize,
        pos: Position,
        eval: &'a E,
        shared: &'a Shared<'a>,
        cfg: SearchConfig,
        history: &'a mut History,
        search_moves: &[Move],
    ) -> Worker<'a, E> {
        let mut est = eval.new_stack();
        eval.reset(&mut est, &pos);
        let legal = pos.legal_moves();
        let root_moves = legal
            .iter()
            .filter(|m| search_moves.is_empty() || search_moves.iter().any(|s| s.same(**m)))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                sel_depth: 0,
                pv: vec![mv],
            })
            .collect();
        let mut reductions = vec![0i32; 64 * 64];
        for d in 1..64 {
            for m in 1..64 {
                reductions[d * 64 + m] = cfg.params.reduction_1024(d, m);
            }
        }
        let root_side = pos.side_to_move();
        Worker {
            id,
            pos,
            eval,
            est,
            shared,
            cfg,
            history,
            frames: vec![
                Frame {
                    static_eval: 0,
                    killers: [Move::NONE; 2],
                    current: Move::NONE,
                    cont: 0,
                    excluded: Move::NONE,
                    cutoffs: 0,
                    reduction: 0,
                };
                MAX_PLY + 4
            ],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            reductions,
            pickers: (0..MAX_PLY + 4).map(|_| None).collect(),
            root_moves,
            nodes: 0,
            published: 0,
            sel_depth: 0,
            pv_idx: 0,
            root_depth: 0,
            completed_depth: 0,
            root_side,
            clock: None,
        }
    }

    /// The LMR table's reduction, in 1/1024 plies.
    #[inline(always)]
    fn reduction_1024(&self, depth: i32, move_count: usize) -> i32 {
        self.reductions[(depth.clamp(0, 63) as usize) * 64 + move_count.min(63)]
    }

    /// How much less a quiet move is reduced for its history, in 1/1024 plies (more reduction
    /// when its score is below `lmr_offset`).
    #[inline(always)]
    fn stat_reduction_1024(&self, us: Color, m: Move, conts: &Conts) -> i32 {
        self.cfg
            .params
            .stat_reduction_1024(self.history.quiet_score(us, m, conts))
    }

    /// The LMR table's reduction in whole plies (for the pruning's estimate of the depth).
    #[inline(always)]
    fn reduction(&self, depth: i32, move_count: usize) -> i32 {
        self.reduction_1024(depth, move_count) / 1024
    }

    /// The value of a node where `m` mates at once: the line and the TT entry say so.
    fn mate_in_1_found<const PV: bool>(&mut self, key: u64, ply: usize, m: Move) -> Value {
        let v = mate_in(ply + 1);
        if PV {
            self.pv_len[ply + 1] = ply + 1;
            self.update_pv(ply, m);
        }
        self.shared.tt.store(
            key,
            m.to_move16(),
            to_tt(v, ply),
            -INFINITE,
            MAX_PLY as i32 - 10,
            Bound::Exact,
        );
        v
    }

    /// The mate-in-1 probe: near checks only with `mate1_near`, else every check. The near
    /// probe takes our attacked squares from the evaluator when it keeps them (KKPEE9's
    /// effect counts, needed for this node's evaluation anyway).
    #[inline]
    fn mate_in_1(&mut self) -> Option<Move> {
        if self.cfg.params.mate1_near == 0 {
            return hayate_mate::mate_in_1(&self.pos);
        }
        let us = self.pos.side_to_move();
        match self.eval.attacked(&mut self.est, &self.pos, us) {
            Some(attacked) => hayate_mate::mate_in_1_near_attacked(&self.pos, attacked),
            None => hayate_mate::mate_in_1_near(&self.pos),
        }
    }

    #[inline(always)]
    fn aborted(&self) -> bool {
        self.shared.abort.load(Ordering::Relaxed)
    }

    fn elapsed_ms(&self) -> u64 {
        self.shared.start.elapsed().as_millis() as u64
    }

    /// Called every 1024 nodes: publishes the node count and, on the main worker, checks
    /// stop, ponderhit, time and the node limit.
    fn check_limits(&mut self) {
        let delta = self.nodes - self.published;
        self.published = self.nodes;
        let total = self.shared.total_nodes.fetch_add(delta, Ordering::Relaxed) + delta;
        if self.shared.signals.is_stopped() {
            self.shared.abort.store(true, Ordering::Relaxed);
            return;
        }
        if self.id != 0 {
            return;
        }
        if self.cfg.node_limit > 0 && total >= self.cfg.node_limit {
            self.shared.abort.store(true, Ordering::Relaxed);
        }
        let Some(clock) = &mut self.clock else { return };
        if clock.pondering {
            if !self.shared.signals.is_ponderhit() {
                return;
            }
            clock.pondering = false;
            clock.start = Instant::now();
        }
        if let Some(max) = clock.plan.maximum
            && clock.start.elapsed() >= max
        {
            self.shared.abort.store(true, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn evaluate(&mut self) -> Value {
        self.eval
            .evaluate(&mut self.est, &self.pos)
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    #[inline(always)]
    fn draw_value(&self) -> Value {
        if self.pos.side_to_move() == self.root_side {
            self.cfg.draw_value
        } else {
            -self.cfg.draw_value
        }
    }

    #[inline(always)]
    fn play(&mut self, m: Move, ply: usize) {
        self.frames[ply].current = m;
        self.frames[ply].cont = cont_key(m);
        self.shared.tt.prefetch(self.pos.key_after(m));
        self.eval.prepare(&mut self.est, &self.pos);
        self.pos.do_move(m);
        self.eval.push(&mut self.est, &self.pos, m);
    }

    #[inline(always)]
    fn unplay(&mut self, m: Move) {
        self.pos.undo_move(m);
        self.eval.pop(&mut self.est);
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        head[ply][ply] = m;
        for i in ply + 1..child_len {
            head[ply][i] = tail[0][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Iterative deepening until a limit or a stop. `report` receives `info` (main worker only).
    pub fn iterate(&mut self, report: &mut dyn FnMut(&Info)) {
        if self.root_moves.is_empty() {
            return;
        }
        let mut last_best = Move::NONE;
        let mut best_changes = 0.0f64;
        let mut prev_iter_score = -INFINITE;
        let multipv = self.cfg.multipv.clamp(1, self.root_moves.len());
        // The root's static eval, for `improving` two plies down.
        self.frames[0].static_eval = if self.pos.in_check() {
            -INFINITE
        } else {
            self.evaluate()
        };
        for depth in 1..=self.cfg.depth_limit.max(1) {
            // Lazy SMP diversity: odd helpers start each iteration one ply deeper.
            let depth = if self.id > 0 && self.id % 2 == 1 {
                depth + 1
            } else {
                depth
            };
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.sel_depth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = self.cfg.params.aspiration;
                let (mut alpha, mut beta) = if depth >= 4 && prev > -INFINITE && !is_mate(prev) {
                    ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let v = self.search_root(depth, alpha, beta);
                    self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.aborted() {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INFINITE);
                        if self.id == 0 && self.elapsed_ms() > 3000 {
                            self.report_line(pv_idx, depth, InfoBound::Upper, report);
                        }
                    } else if v >= beta {
                        beta = (v + delta).min(INFINITE);
                        if self.id == 0 && self.elapsed_ms() > 3000 {
                            self.report_line(pv_idx, depth, InfoBound::Lower, report);
                        }
                    } else {
                        break;
                    }
                    delta += delta / 2 + 10;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.aborted() {
                    break;
                }
            }
            if self.aborted() {
                // A stopped iteration's order stands: a move it put first beat the first move
                // at the greater depth, even when both score below the last completed
                // iteration's best (the first move failed low). The first move keeps the
                // completed iteration's score until its new search ends, so the first place
                // always holds a scored move.
                debug_assert!(self.completed_depth == 0 || self.root_moves[0].score > -INFINITE);
                if self.id == 0 && self.completed_depth > 0 {
                    // A last line at the stop: the move kept, with the nodes and time spent.
                    self.report_lines(multipv, self.completed_depth, report);
                }
                break;
            }
            self.completed_depth = depth;
            if self.id == 0 {
                self.report_lines(multipv, depth, report);
            }
            // Time: stop iterating when the best move has settled and its time is spent.
            let best = self.root_moves[0].mv;
            best_changes = best_changes / 2.0 + f64::from(u8::from(!best.same(last_best)));
            last_best = best;
            let score = self.root_moves[0].score;
            if is_mate(score) && depth >= 2 * (MATE - score.abs()) + 4 {
                break;
            }
            let drop = if prev_iter_score > -INFINITE {
                prev_iter_score - score
            } else {
                0
            };
            prev_iter_score = score;
            if self.id == 0 && self.iteration_time_up(best_changes, drop) {
                self.shared.abort.store(true, Ordering::Relaxed);
                break;
            }
        }
        self.check_limits();
    }

    /// After a completed iteration (main worker): whether to stop now. A single reply stops at
    /// once; use-it-or-lose-it time (byoyomi) is spent whole; otherwise the optimum is stretched
    /// while the best move keeps changing (`best_changes`, decayed per iteration) or the score
    /// falls (`score_drop` since the previous iteration).
    fn iteration_time_up(&self, best_changes: f64, score_drop: Value) -> bool {
        let Some(clock) = &self.clock else {
            return false;
        };
        let Some(opt) = clock.plan.optimum else {
            return false;
        };
        if clock.pondering {
            return false;
        }
        if self.root_moves.len() == 1 {
            return true;
        }
        if clock.plan.spend_all {
            return false;
        }
        let instability = (0.7 + 0.7 * best_changes).min(2.0);
        let falling = (1.0 + f64::from(score_drop) / 250.0).clamp(0.75, 1.5);
        clock.start.elapsed().as_secs_f64() > opt.as_secs_f64() * instability * falling * 0.7
    }

    /// The `multipv` lines of a finished (or stopped) iteration at `depth`.
    fn report_lines(&self, multipv: usize, depth: i32, report: &mut dyn FnMut(&Info)) {
        for i in 0..multipv {
            self.report_line(i, depth, InfoBound::Exact, report);
        }
    }

    fn report_line(&self, i: usize, depth: i32, bound: InfoBound, report: &mut dyn FnMut(&Info)) {
        let rm = &self.root_moves[i];
        let score = rm.last_score();
        if score == -INFINITE {
            return;
        }
        let ms = self.elapsed_ms();
        let nodes = self
            .shared
            .total_nodes
            .load(Ordering::Relaxed)
            .max(self.nodes);
        report(&Info {
            depth: Some(depth as u32),
            seldepth: Some(rm.sel_depth.max(depth as usize) as u32),
            time_ms: Some(ms),
            nodes: Some(nodes),
            nps: Some(nodes * 1000 / ms.max(1)),
            hashfull: Some(self.shared.tt.hashfull()),
            score: Some(to_score(score)),
            bound,
            multipv: (self.cfg.multipv > 1).then_some(i as u32 + 1),
            pv: rm.pv.clone(),
            string: None,
        });
    }

    /// Stores a node's result: a fail-high is a lower bound, a PV node's improved alpha exact,
    /// anything else an upper bound.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn store_result<const PV: bool>(
        &self,
        key: u64,
        best_move: Move,
        best_value: Value,
        beta: Value,
        static_eval: Value,
        depth: i32,
        ply: usize,
    ) {
        let bound = if best_value >= beta {
            Bound::Lower
        } else if PV && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move.to_move16(),
            to_tt(best_value, ply),
            static_eval,
            depth,
            bound,
        );
    }

    /// The continuation block of the move `n` plies before `ply` (0 before the root).
    #[inline(always)]
    fn cont_before(&self, ply: usize, n: usize) -> ContKey {
        if ply >= n {
            self.frames[ply - n].cont
        } else {
            0
        }
    }

    /// The correction-history entries of the node at `ply`.
    #[inline(always)]
    fn corr_keys(&self, ply: usize) -> CorrKeys {
        CorrKeys::of(
            &self.pos,
            self.cont_before(ply, 1),
            self.cont_before(ply, 2),
        )
    }

    /// Continuation-history blocks of the moves [`CONT_PLIES`] before `ply`.
    #[inline(always)]
    fn conts(&self, ply: usize) -> Conts {
        CONT_PLIES.map(|n| self.cont_before(ply, n))
    }

    /// After a beta cutoff by `best`: rewards it and penalises the moves tried before it (quiet
    /// moves in the butterfly and continuation histories, captures in the capture history);
    /// a quiet `best` also becomes a killer and the counter-move.
    fn update_stats(
        &mut self,
        ply: usize,
        best: Move,
        depth: i32,
        quiets: &[Move],
        captures: &[Move],
    ) {
        let bonus = self.cfg.params.stat_bonus(depth);
        let us = self.pos.side_to_move();
        let conts = self.conts(ply);
        if best.is_capture() {
            self.history.update_capture(best, bonus);
        } else if !best.is_promotion() {
            self.history.update_quiet(us, best, &conts, bonus);
            for &q in quiets.iter().filter(|q| !q.same(best)) {
                self.history.update_quiet(us, q, &conts, -bonus);
            }
            let f = &mut self.frames[ply];
            if !f.killers[0].same(best) {
                f.killers[1] = f.killers[0];
                f.killers[0] = best;
            }
            let prev = if ply > 0 {
                self.frames[ply - 1].current
            } else {
                Move::NONE
            };
            self.history.set_counter(prev, best);
        }
        for &c in captures.iter().filter(|c| !c.same(best)) {
            self.history.update_capture(c, -bonus);
        }
    }

    /// The root: the root moves in their order (the best so far first), with the same late-move
    /// reductions as below; a new best move teaches the histories, and the result goes to the
    /// table like any node's.
    fn search_root(&mut self, depth: i32, mut alpha: Value, beta: Value) -> Value {
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut quiets = [Move::NONE; 64];
        let mut n_quiets = 0;
        let mut captures = [Move::NONE; 32];
        let mut n_captures = 0;
        let us = self.pos.side_to_move();
        let conts = self.conts(0);
        self.pv_len[0] = 0;
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let move_count = i - self.pv_idx + 1;
            self.nodes += 1;
            let quiet = !m.is_capture() && !m.is_promotion();
            let gives_check = self.pos.gives_check(m);
            self.play(m, 0);
            self.pv_len[1] = 1;
            let new_depth = depth - 1;
            let mut v;
            if i == self.pv_idx {
                v = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
            } else {
                let r = if depth >= 2 && move_count > 2 && quiet {
                    self.reduction_1024(depth, move_count)
                        - 1024
                        - 1024 * gives_check as i32
                        - self.stat_reduction_1024(us, m, &conts)
                } else {
                    0
                };
                let d = (new_depth - r / 1024).clamp(1, new_depth.max(1));
                v = -self.search::<false>(-alpha - 1, -alpha, d, 1, true);
                if v > alpha && d < new_depth {
                    v = -self.search::<false>(-alpha - 1, -alpha, new_depth, 1, true);
                }
                if v > alpha && v < beta {
                    v = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.unplay(m);
            if self.aborted() {
                return best;
            }
            let sel = self.sel_depth;
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || v > alpha {
                rm.score = v;
                rm.sel_depth = sel;
                rm.pv.clear();
                rm.pv.push(m);
                let len = self.pv_len[1];
                rm.pv.extend_from_slice(&self.pv[1][1..len.max(1)]);
                if v > alpha {
                    alpha = v;
                    best_move = m;
                }
            } else {
                rm.score = -INFINITE;
            }
            best = best.max(v);
            if v >= beta {
                break;
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            } else if m.is_capture() && n_captures < captures.len() {
                captures[n_captures] = m;
                n_captures += 1;
            }
        }
        if best_move.is_some() {
            self.update_stats(
                0,
                best_move,
                depth,
                &quiets[..n_quiets],
                &captures[..n_captures],
            );
        }
        if self.pv_idx == 0 {
            let key = self.pos.key();
            let eval = self.frames[0].static_eval;
            self.store_result::<true>(key, best_move, best, beta, eval, depth, 0);
        }
        best
    }

    fn search<const PV: bool>(
        &mut self,
        mut alpha: Value,
        mut beta: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        let p = self.cfg.params;
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply, QS_DEPTH);
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.aborted() {
            return 0;
        }
        if PV {
            self.pv_len[ply] = ply;
            self.sel_depth = self.sel_depth.max(ply);
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 4 {
            return if in_check { 0 } else { self.evaluate() };
        }
        // Repetition, perpetual check, superior/inferior positions.
        match self.pos.repetition(16) {
            Repetition::None => {}
            Repetition::Draw => return self.draw_value(),
            Repetition::Win => return mate_in(ply),
            Repetition::Lose => return mated_in(ply),
            Repetition::Superior => return SUPERIOR,
            Repetition::Inferior => return -SUPERIOR,
        }
        if self.cfg.max_moves_to_draw > 0 && self.pos.game_ply() > self.cfg.max_moves_to_draw {
            return if in_check && self.pos.has_no_legal_move() {
                mated_in(ply)
            } else {
                self.draw_value()
            };
        }
        // Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        // Entering-king declaration wins on the spot.
        if self.pos.can_declare_win(DeclarationRule::Csa27) {
            return mate_in(ply + 1);
        }
        let key = self.pos.key();
        let excluded = self.frames[ply].excluded;
        let tt_hit = self.shared.tt.probe(key);
        let tt_move = tt_hit.map_or(Move::NONE, |h| Move::from_raw(h.mv.0 as u32));
        let tt_value = tt_hit.map_or(-INFINITE, |h| from_tt(h.value, ply));
        if let Some(h) = tt_hit
            && !PV
            && !excluded.is_some()
            && h.depth >= depth
            && h.bound.cuts(tt_value, alpha, beta)
        {
            // A quiet TT move that still cuts is rewarded, as if searched.
            if tt_value >= beta
                && let Some(m) = self.pos.to_move_fast(h.mv)
                && !m.is_capture()
                && !m.is_promotion()
            {
                let conts = self.conts(ply);
                let us = self.pos.side_to_move();
                let bonus = self.cfg.params.stat_bonus(depth);
                self.history.update_quiet(us, m, &conts, bonus);
            }
            return tt_value;
        }
        // Mate-in-1 probe: cheap next to the subtree it replaces. A node with a TT entry was
        // probed when the entry was written (YaneuraOu's condition too).
        if !in_check
            && !excluded.is_some()
            && tt_hit.is_none()
            && let Some(m) = self.mate_in_1()
        {
            return self.mate_in_1_found::<PV>(key, ply, m);
        }
        let us = self.pos.side_to_move();
        let raw_eval = if in_check {
            -INFINITE
        } else {
            match tt_hit {
                Some(h) if h.eval.abs() < EVAL_LIMIT => h.eval,
                _ => self.evaluate(),
            }
        };
        let corr_keys = self.corr_keys(ply);
        let static_eval = if in_check {
            -INFINITE
        } else {
            self.history.correction.adjust(&corr_keys, raw_eval)
        };
        // In check there is no static eval: carry the one from two plies back, so that the
        // node two plies on compares against a real value (and is not always "improving").
        let before = if ply >= 2 {
            self.frames[ply - 2].static_eval
        } else {
            -INFINITE
        };
        self.frames[ply].static_eval = if in_check { before } else { static_eval };
        let improving = !in_check && before > -INFINITE && static_eval > before;
        // Hindsight: the move that led here was reduced; if the position turned out worse for
        // the opponent than it expected, search it deeper; if both sides' evals say it is
        // quiet, shallower.
        let depth = match ply.checked_sub(1).map(|i| &self.frames[i]) {
            Some(f) if !in_check && f.reduction > 0 && f.static_eval > -INFINITE => {
                let worsening = static_eval > -f.static_eval;
                if f.reduction >= 3 && !worsening {
                    depth + 1
                } else if depth >= 2 && static_eval + f.static_eval > p.hindsight_margin {
                    depth - 1
                } else {
                    depth
                }
            }
            _ => depth,
        };
        // The TT value, where its bound says it is closer to the truth, refines the static
        // eval for pruning.
        let eval = match tt_hit {
            Some(h)
                if !in_check
                    && tt_value.abs() < MATE_IN_MAX_PLY
                    && h.bound.cuts(tt_value, static_eval, static_eval + 1) =>
            {
                tt_value
            }
            _ => static_eval,
        };
        if ply + 2 < self.frames.len() {
            self.frames[ply + 2].killers = [Move::NONE; 2];
        }
        if ply + 1 < self.frames.len() {
            self.frames[ply + 1].cutoffs = 0;
        }
        let prev_move = if ply > 0 {
            self.frames[ply - 1].current
        } else {
            Move::NONE
        };

        if !PV && !in_check {
            // Razoring: hopeless at low depth, verify with quiescence.
            if depth <= 2 && eval + p.razor_base + p.razor_depth * depth < alpha {
                let v = self.qsearch::<false>(alpha - 1, alpha, ply, QS_DEPTH);
                if v < alpha {
                    return v;
                }
            }
            // Reverse futility pruning.
            if depth < p.rfp_max_depth
                && eval - p.rfp_margin * (depth - improving as i32) >= beta
                && eval < SUPERIOR / 2
            {
                return eval;
            }
            // Null-move pruning.
            if prev_move != Move::NULL
                && !excluded.is_some()
                && depth >= 3
                && eval >= beta
                && !is_mate(beta)
                && ply > 0
            {
                let r =
                    p.nmp_base + depth / p.nmp_depth_div + ((eval - beta) / p.nmp_eval_div).min(3);
                self.frames[ply].current = Move::NULL;
                self.frames[ply].cont = 0;
                self.pos.do_null_move();
                self.eval.push_null(&mut self.est, &self.pos);
                let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pos.undo_null_move();
                self.eval.pop(&mut self.est);
                if self.aborted() {
                    return 0;
                }
                if v >= beta {
                    return if is_mate(v) { beta } else { v };
                }
            }
        }
        // Internal iterative reduction: without a TT move, this node is probably not worth full depth.
        let depth = if tt_move == Move::NONE && depth >= 4 && (PV || cut_node) {
            depth - 1
        } else {
            depth
        };

        // Singular extension: when the TT move is much better than every other move, it is
        // searched one ply deeper (two off the PV when far better); when another move also
        // beats beta at reduced depth, the node is cut (multi-cut); when the TT move is not
        // singular but still fails high, it is searched shallower.
        let mut tt_extension = 0;
        if !excluded.is_some()
            && depth >= p.se_min_depth
            && (ply as i32) < 2 * self.root_depth
            && let Some(h) = tt_hit
            && tt_move.is_some()
            && h.bound != Bound::Upper
            && h.depth >= depth - 3
            && tt_value.abs() < MATE_IN_MAX_PLY
        {
            let singular_beta = tt_value - p.se_margin * depth;
            self.frames[ply].excluded = tt_move;
            let v = self.search::<false>(
                singular_beta - 1,
                singular_beta,
                (depth - 1) / 2,
                ply,
                cut_node,
            );
            self.frames[ply].excluded = Move::NONE;
            if self.aborted() {
                return 0;
            }
            if v < singular_beta {
                tt_extension = if !PV && v < singular_beta - p.se_double {
                    2
                } else {
                    1
                };
            } else if singular_beta >= beta {
                return singular_beta;
            } else if tt_value >= beta {
                tt_extension = -p.se_negative;
            } else if cut_node {
                tt_extension = -1;
            }
        }

        let killers = self.frames[ply].killers;
        let counter = self.history.counter(prev_move);
        let conts = self.conts(ply);
        let mut picker = self.pickers[ply]
            .take()
            .unwrap_or_else(|| Box::new(MovePicker::empty()));
        picker.init_main(
            &self.pos,
            match tt_hit {
                Some(h) if !excluded.is_some() => h.mv,
                _ => Move16(0),
            },
            [killers[0], killers[1], counter],
            conts,
            QuietTerms {
                threat_pct: self.cfg.params.threat_order,
                check_pct: self.cfg.params.check_order,
                bad_quiet: self.cfg.params.bad_quiet,
            },
        );
        let tt_capture = picker.tt_move().is_capture();
        let mut best_value = -INFINITE;
        let mut best_move = Move::NONE;
        let mut move_count = 0usize;
        let mut quiets = [Move::NONE; 64];
        let mut n_quiets = 0;
        let mut captures = [Move::NONE; 32];
        let mut n_captures = 0;
        let mut skip_quiets = false;
        let lmp_limit = ((p.lmp_base + depth * depth) / (2 - improving as i32)) as usize;
        while let Some((m, order_score)) = picker.next_move(&self.pos, self.history, skip_quiets) {
            if m.same(excluded) {
                continue;
            }
            move_count += 1;
            let noisy = m.is_capture() || m.is_promotion();
            let gives_check = self.pos.gives_check(m);
            // Shallow-depth pruning once something is known not to lose.
            if best_value > -MATE_IN_MAX_PLY && !in_check && ply > 0 {
                // The depth this move would get from LMR: the pruning's measure.
                let lmr_depth = (depth - 1 - self.reduction(depth, move_count)).max(0);
                if !noisy && !gives_check {
                    if move_count >= lmp_limit {
                        skip_quiets = true;
                        continue;
                    }
                    let cont_score =
                        self.history.cont(conts[0], m) + self.history.cont(conts[1], m);
                    if lmr_depth < 4 && cont_score < -p.cont_prune * depth {
                        continue;
                    }
                    // The history says how much deeper (shallower) this move deserves.
                    let lmr_depth = lmr_depth + cont_score / p.futility_history_div;
                    if lmr_depth < 7
                        && static_eval + p.futility_base + p.futility_depth * lmr_depth
                            - p.futility_best_cut * best_move.is_some() as i32
                            <= alpha
                    {
                        continue;
                    }
                    let lmr_depth = lmr_depth.max(0);
                    if !see_ge(&self.pos, m, -p.see_quiet * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else {
                    // Futility for captures: even with the piece won (and what the capture
                    // history says of such captures) the move cannot reach alpha.
                    if !gives_check
                        && m.is_capture()
                        && lmr_depth < 7
                        && static_eval
                            + p.cap_futility_base
                            + p.cap_futility_depth * lmr_depth
                            + capture_value(m.captured().piece_type())
                            + self.history.capture(m) / 8
                            <= alpha
                    {
                        continue;
                    }
                    let threshold = -p.see_noisy * depth;
                    if depth < p.see_noisy_max_depth
                        && !(threshold <= 0 && picker.see_passed())
                        && !see_ge(&self.pos, m, threshold)
                    {
                        continue;
                    }
                }
            }
            // No check extension: in shogi (drops) checks are too many to extend; they are
            // reduced less instead (below).
            let new_depth = depth - 1 + if m.same(tt_move) { tt_extension } else { 0 };
            self.play(m, ply);
            let mut v;
            let reducible = !noisy || is_bad_capture_score(order_score);
            let lmr = depth >= 2 && move_count > 1 + PV as usize && reducible;
            // The reduction LMR gives this move, in 1/1024 plies; a move searched at full
            // depth loses a ply when it is large.
            let r = {
                let mut r = self.reduction_1024(depth, move_count);
                if PV {
                    r -= 1024;
                }
                if cut_node {
                    r += p.lmr_cut;
                }
                // An eval the correction history moved far is uncertain: reduce less.
                r -= (static_eval - raw_eval).abs() * p.lmr_corr;
                if !improving {
                    r += 1024;
                }
                if gives_check {
                    r -= 1024;
                }
                if tt_capture && !noisy {
                    r += 1024;
                }
                if self.frames[ply + 1].cutoffs > 3 {
                    r += 1024;
                }
                if !noisy {
                    r -= self.stat_reduction_1024(us, m, &conts);
                }
                r
            };
            if lmr {
                let d = (new_depth - r / 1024).clamp(1, new_depth.max(1));
                self.frames[ply].reduction = new_depth - d;
                v = -self.search::<false>(-alpha - 1, -alpha, d, ply + 1, true);
                self.frames[ply].reduction = 0;
                if v > alpha && d < new_depth {
                    // Re-search deeper when the reduced search beat the best by far,
                    // shallower when it barely did.
                    let deeper = v > best_value + p.lmr_deeper + 2 * new_depth;
                    let shallower = v < best_value + p.lmr_shallower;
                    let nd = new_depth + deeper as i32 - shallower as i32;
                    if nd > d {
                        v = -self.search::<false>(-alpha - 1, -alpha, nd, ply + 1, !cut_node);
                        if p.post_lmr > 0 && !noisy && !self.aborted() {
                            // A bonus when it beat beta, a malus when it stayed at alpha.
                            let sign = i32::from(v >= beta) - i32::from(v <= alpha);
                            let bonus = sign * p.stat_bonus(nd) * p.post_lmr / 100;
                            self.history.update_cont(m, &conts, bonus);
                        }
                    }
                }
            } else if !PV || move_count > 1 {
                // YaneuraOu's and Stockfish's: two plies more of the expected reduction
                // without a TT move, two less for the TT move itself.
                let tt_term = if !tt_move.is_some() {
                    2048
                } else if m.same(tt_move) {
                    -2048
                } else {
                    0
                };
                let d = new_depth - i32::from(r + tt_term > p.full_shallow);
                v = -self.search::<false>(-alpha - 1, -alpha, d, ply + 1, !cut_node);
            } else {
                v = -INFINITE;
            }
            if PV && (move_count == 1 || (v > alpha && v < beta)) {
                self.pv_len[ply + 1] = ply + 1;
                v = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.unplay(m);
            if self.aborted() {
                return 0;
            }
            if v > best_value {
                best_value = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        let f = &mut self.frames[ply];
                        f.cutoffs = f.cutoffs.saturating_add(1 + !tt_move.is_some() as u8);
                        break;
                    }
                    alpha = v;
                }
            }
            if !noisy && n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            } else if m.is_capture() && n_captures < captures.len() {
                captures[n_captures] = m;
                n_captures += 1;
            }
        }
        self.pickers[ply] = Some(picker);
        if move_count == 0 {
            // No legal move is a loss in shogi, in check or not; with the only move left out
            // by a singular search, the node just fails low.
            return if excluded.is_some() {
                alpha
            } else {
                mated_in(ply)
            };
        }
        if best_value == -INFINITE {
            // Every move was pruned (cannot happen in check, where nothing is pruned).
            best_value = alpha;
        }
        if best_value >= beta && best_move.is_some() {
            // A non-PV fail high returns a value pulled towards beta, the more the shallower
            // (Stockfish's): a shallow search's margin above beta is the least trustworthy.
            if !PV && !is_mate(best_value) && !is_mate(beta) {
                best_value = (best_value * depth + beta) / (depth + 1);
            }
            self.update_stats(
                ply,
                best_move,
                depth,
                &quiets[..n_quiets],
                &captures[..n_captures],
            );
        }
        if !excluded.is_some() {
            // The search's verdict teaches the correction history, unless a capture decided
            // it or its bound says nothing about the static eval.
            if !in_check
                && !best_move.is_capture()
                && !best_move.is_promotion()
                && best_value.abs() < MATE_IN_MAX_PLY
                && ((best_value < static_eval && best_value < beta)
                    || (best_value > static_eval && best_move.is_some()))
            {
                self.history
                    .correction
                    .update(&corr_keys, best_value - static_eval, depth);
            }
            self.store_result::<PV>(key, best_move, best_value, beta, raw_eval, depth, ply);
        }
        best_value
    }

    fn qsearch<const PV: bool>(
        &mut self,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        depth: i32,
    ) -> Value {
        let p = self.cfg.params;
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.aborted() {
            return 0;
        }
        if PV {
            self.pv_len[ply] = ply;
            self.sel_depth = self.sel_depth.max(ply);
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 4 {
            return if in_check { 0 } else { self.evaluate() };
        }
        let key = self.pos.key();
        let tt_hit = self.shared.tt.probe(key);
        let tt_move = tt_hit.map_or(Move::NONE, |h| Move::from_raw(h.mv.0 as u32));
        if let Some(h) = tt_hit
            && !PV
            && h.depth >= depth
        {
            let v = from_tt(h.value, ply);
            if h.bound.cuts(v, alpha, beta) {
                return v;
            }
        }
        let mut best_value;
        let static_eval;
        let mut raw_eval = -INFINITE;
        if in_check {
            best_value = -INFINITE;
            static_eval = -INFINITE;
        } else {
            // A mate in one is worth its probe (at every quiescence node without a TT entry;
            // only at the first ply with `qs_mate_all` 0): captures alone miss it. Measured
            // against YaneuraOu in docs/anchor.md.
            if (depth == QS_DEPTH || p.qs_mate_all != 0)
                && tt_hit.is_none()
                && let Some(m) = self.mate_in_1()
            {
                return self.mate_in_1_found::<PV>(key, ply, m);
            }
            raw_eval = match tt_hit {
                Some(h) if h.eval.abs() < EVAL_LIMIT => h.eval,
                _ => self.evaluate(),
            };
            static_eval = self
                .history
                .correction
                .adjust(&self.corr_keys(ply), raw_eval);
            best_value = static_eval;
            if best_value >= beta {
                if tt_hit.is_none() {
                    self.shared.tt.store(
                        key,
                        Move16(0),
                        to_tt(best_value, ply),
                        raw_eval,
                        -1,
                        Bound::Lower,
                    );
                }
                return best_value;
            }
            if best_value > alpha {
                alpha = best_value;
            }
            // Long capture chains: stop looking.
            if depth <= -12 {
                return best_value;
            }
        }
        let mut picker = self.pickers[ply]
            .take()
            .unwrap_or_else(|| Box::new(MovePicker::empty()));
        picker.fill_quiescence(
            &self.pos,
            tt_move,
            self.history,
            p.qs_checks != 0 && depth == QS_DEPTH,
        );
        if in_check && picker.is_empty() {
            self.pickers[ply] = Some(picker);
            return mated_in(ply);
        }
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        while let Some((m, _)) = picker.next_move(&self.pos, self.history, false) {
            move_count += 1;
            // In check, once an evasion holds: no more quiet evasions past the first two, and
            // no evasion that loses material (interposing drops would multiply the nodes).
            if in_check
                && best_value > -MATE_IN_MAX_PLY
                && ((!m.is_capture() && move_count > p.qs_quiet_evasions as usize)
                    || !see_ge(&self.pos, m, 0))
            {
                continue;
            }
            if !in_check {
                // Past the first few, only recaptures and checks.
                if p.qs_move_count != 0
                    && move_count > p.qs_move_count as usize
                    && (ply == 0 || m.to() != self.frames[ply - 1].current.to())
                    && !self.pos.gives_check(m)
                {
                    continue;
                }
                // Delta pruning: even winning the piece outright would not reach alpha.
                if m.is_capture()
                    && !m.is_promotion()
                    && static_eval + capture_value(m.captured().piece_type()) + p.qs_futility
                        <= alpha
                {
                    continue;
                }
                if !see_ge(&self.pos, m, 0) {
                    continue;
                }
            }
            self.play(m, ply);
            let v = -self.qsearch::<PV>(-beta, -alpha, ply + 1, depth - 1);
            self.unplay(m);
            if self.aborted() {
                return 0;
            }
            if v > best_value {
                best_value = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        let f = &mut self.frames[ply];
                        f.cutoffs = f.cutoffs.saturating_add(1 + !tt_move.is_some() as u8);
                        break;
                    }
                    alpha = v;
                }
            }
        }
        self.pickers[ply] = Some(picker);
        self.store_result::<PV>(key, best_move, best_value, beta, raw_eval, depth, ply);
        best_value
    }
}
