//! df-pn (depth-first proof-number search) with the df-pn+ thresholds (the 1+ε trick), a
//! bounded transposition table with hand superiority and garbage collection, proof and
//! disproof hands, and path-aware repetition: a position repeated on the current path fails
//! for the attacker, and a disproof that rests on such a repetition is kept only in the
//! parent's local child list, never stored as a final result.
//!
//! A search may be bounded in length (`Solver::bound`): then an attacker node with no plies
//! left is disproven "within 0", and results carry lengths (proven within `len`, no mate
//! within `dlen`), which is how the post-search proves the shortest mate.

use crate::futile::{Defence, only_futile};
use crate::hands::{
    add_interposition_types, before, intersection, limit_for_defender_drop,
    remove_checking_drop_types, terminal_disproof_hand, terminal_proof_hand, union,
};
use crate::mate1::mate_in_1_and_checks;
use crate::progress::Progress;
use crate::tt::{INF, NO_MATE, Probe, Record, Tt};
use hayate_core::generate_checks;
use hayate_core::{Bitboard, Color, Hand, Move, Move16, MoveList, Position, Repetition};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a search returns for one node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeResult {
    pub pn: u32,
    pub dn: u32,
    /// The proof or disproof hand of a final result; the node's hand otherwise.
    pub hand: Hand,
    /// Plies of the proof (proven results).
    pub len: u16,
    /// Plies within which there is no mate (disproven results; [`NO_MATE`]: none at all).
    pub dlen: u16,
    /// A disproof that rests on a repetition of a position on the current path.
    pub rep: bool,
}

/// A child of the node being searched, as the parent's loop sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    m: Move,
    key: u64,
    hand: Hand,
    pn: u32,
    dn: u32,
    len: u16,
    dlen: u16,
    /// Proof or disproof hand once final.
    final_hand: Hand,
    rep: bool,
}

impl Child {
    fn apply(&mut self, p: Probe) {
        self.pn = p.pn;
        self.dn = p.dn;
        self.len = p.len;
        self.dlen = p.dlen;
        self.final_hand = p.hand;
    }

    fn set(&mut self, r: NodeResult) {
        self.pn = r.pn;
        self.dn = r.dn;
        self.len = r.len;
        self.dlen = r.dlen;
        self.final_hand = r.hand;
        self.rep = r.rep;
    }

    fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// How many child searches pass between look-ups of all children in the table. Every time
/// (textbook df-pn) spent a third of the time in cache misses for no gain in problems solved.
const REFRESH: u32 = 64;

/// Size of the path filter (a counting Bloom filter over board keys).
const PATH_FILTER: usize = 4096;

/// The df-pn searcher: table, limits and counters.
pub(crate) struct Solver<'a> {
    pub tt: Tt,
    /// The side that mates (the side to move at the root).
    pub attacker: Color,
    /// Moves made.
    pub nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    /// Set once a limit or the stop flag is hit: every frame then unwinds.
    pub aborted: bool,
    next_poll: u64,
    /// Child lists by ply, reused so that the search does not allocate once warm.
    pool: Vec<Vec<Child>>,
    /// Board keys of the positions on the current path, to skip most repetition scans.
    path: Box<[u16; PATH_FILTER]>,
    /// Which defender moves count.
    pub defence: Defence,
    /// The most plies a mate may take from the root (ply 0); [`NO_MATE`] for no bound.
    pub bound: u16,
    /// Told about the search about once a second (and of mates by the caller).
    pub progress: Option<&'a mut (dyn FnMut(&Progress) + Send)>,
    start: Instant,
    next_progress: Instant,
}

/// A final result: proven within `len` plies, with proof hand `hand`.
fn proven(hand: Hand, len: u16) -> NodeResult {
    NodeResult {
        pn: 0,
        dn: INF,
        hand,
        len,
        dlen: 0,
        rep: false,
    }
}

/// A final result: no mate within `dlen` plies for any attacker hand up to `hand`.
fn disproven(hand: Hand, dlen: u16) -> NodeResult {
    NodeResult {
        pn: INF,
        dn: 0,
        hand,
        len: 0,
        dlen,
        rep: false,
    }
}

/// One more ply on a disproof length (no mate at all stays so).
fn dlen_up(d: u16) -> u16 {
    if d == NO_MATE {
        NO_MATE
    } else {
        d.saturating_add(1).min(NO_MATE - 1)
    }
}

impl NodeResult {
    fn record(&self) -> Record {
        Record {
            hand: self.hand,
            pn: self.pn,
            dn: self.dn,
            len: self.len,
            dlen: self.dlen,
        }
    }
}

/// How far a threshold reaches past the second-best child: (1+ε)·x + 1 with ε = 1/4.
#[inline(always)]
fn grow(x: u32) -> u32 {
    if x >= INF {
        INF
    } else {
        (x as u64 + x as u64 / 4 + 1).min(INF as u64) as u32
    }
}

impl<'a> Solver<'a> {
    pub fn new(
        attacker: Color,
        hash_mb: usize,
        max_nodes: u64,
        deadline: Option<Instant>,
        stop: &'a AtomicBool,
    ) -> Solver<'a> {
        Solver {
            tt: Tt::new(hash_mb),
            attacker,
            nodes: 0,
            max_nodes,
            deadline,
            stop,
            aborted: false,
            next_poll: 0,
            pool: Vec::new(),
            path: Box::new([0; PATH_FILTER]),
            defence: Defence::AllLegal,
            bound: NO_MATE,
            progress: None,
            start: Instant::now(),
            next_progress: Instant::now() + std::time::Duration::from_secs(1),
        }
    }

    /// Lets a finished search go on a little (to extract the mate line): new deadline, more
    /// nodes, not aborted (unless the stop flag is still set, which the next poll sees).
    pub fn extend(&mut self, deadline: Option<Instant>, extra_nodes: u64) {
        self.aborted = false;
        self.deadline = deadline;
        self.max_nodes = self.nodes.saturating_add(extra_nodes).max(self.max_nodes);
        self.next_poll = 0;
    }

    /// The wall-clock limit now in force.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The node limit now in force.
    pub fn max_nodes(&self) -> u64 {
        self.max_nodes
    }

    /// Sets the node limit (moves made since the solver was made).
    pub fn set_max_nodes(&mut self, n: u64) {
        self.max_nodes = n;
    }

    /// The caller's stop flag.
    pub fn stop(&self) -> &'a AtomicBool {
        self.stop
    }

    fn poll(&mut self) {
        if self.nodes < self.next_poll {
            return;
        }
        self.next_poll = self.nodes + 2048;
        let now = Instant::now();
        if self.stop.load(Ordering::Relaxed)
            || self.nodes >= self.max_nodes
            || self.deadline.is_some_and(|d| now >= d)
        {
            self.aborted = true;
        }
        if self.tt.hashfull() > 850 {
            self.tt.collect_garbage();
        }
        if self.progress.is_some() && now >= self.next_progress {
            self.next_progress = now + std::time::Duration::from_secs(1);
            self.report(&Progress::Searching {
                nodes: self.nodes,
                elapsed: now - self.start,
                hashfull: self.tt.hashfull(),
            });
        }
    }

    /// Passes a report to the caller's progress callback, if any.
    pub fn report(&mut self, p: &Progress) {
        if let Some(f) = self.progress.as_mut() {
            f(p);
        }
    }

    /// Time since the solver was made.
    pub fn elapsed(&self) -> std::time::Duration {
        self.start.elapsed()
    }

    /// The plies a node at `ply` may still use under the length bound ([`NO_MATE`]: any).
    #[inline(always)]
    pub fn need(&self, ply: usize) -> u16 {
        if self.bound == NO_MATE {
            NO_MATE
        } else {
            self.bound.saturating_sub(ply.min(NO_MATE as usize) as u16)
        }
    }

    /// Searches the node at `pos` (at `ply` on the current path) for a mate within `need`
    /// plies ([`NO_MATE`]: any length), to the end or until aborted.
    pub fn search_within(&mut self, pos: &mut Position, ply: usize, need: u16) -> NodeResult {
        self.bound = if need == NO_MATE {
            NO_MATE
        } else {
            need.saturating_add(ply.min(NO_MATE as usize) as u16)
                .min(NO_MATE - 1)
        };
        self.mid(pos, INF, INF, ply)
    }

    #[inline(always)]
    pub fn path_push(&mut self, key: u64) {
        let i = key as usize % PATH_FILTER;
        self.path[i] = self.path[i].saturating_add(1);
    }

    #[inline(always)]
    pub fn path_pop(&mut self, key: u64) {
        let i = key as usize % PATH_FILTER;
        self.path[i] = self.path[i].saturating_sub(1);
    }

    /// Whether the position repeats one on the path in a way that fails the attacker: the same
    /// position, or the same board with no more in the attacker's hand.
    pub fn repeated(&self, pos: &Position) -> bool {
        if self.path[pos.board_key() as usize % PATH_FILTER] == 0 {
            return false;
        }
        let attacker_to_move = pos.side_to_move() == self.attacker;
        match pos.repetition(usize::MAX) {
            Repetition::None => false,
            Repetition::Draw | Repetition::Win | Repetition::Lose => true,
            Repetition::Inferior => attacker_to_move,
            Repetition::Superior => !attacker_to_move,
        }
    }

    /// The proof hand of a defender node that is mated: only interposition types matter when
    /// nothing at all answers the check; when futile drops were set aside, the exact hand.
    fn mated_proof_hand(&self, pos: &Position, evasions: &MoveList) -> Hand {
        if evasions.is_empty() {
            terminal_proof_hand(pos)
        } else {
            pos.hand(self.attacker)
        }
    }

    /// Whether the defender to move, with these evasions, is mated.
    fn is_mated(&self, pos: &mut Position, evasions: &MoveList) -> bool {
        evasions.is_empty()
            || (self.defence != Defence::AllLegal && only_futile(pos, evasions, self.defence))
    }

    /// The first look at a child: repetition, the table, then cheap tests (mate in one and no
    /// check for attacker nodes, no evasion for defender nodes) and the df-pn+ initial numbers.
    fn init_child(&mut self, pos: &mut Position, m: Move, ply: usize) -> Child {
        pos.do_move(m);
        self.nodes += 1;
        let key = pos.board_key();
        let hand = pos.hand(self.attacker);
        let need = self.need(ply);
        let mut c = Child {
            m,
            key,
            hand,
            pn: 1,
            dn: 1,
            len: 0,
            dlen: 0,
            final_hand: hand,
            rep: false,
        };
        if self.repeated(pos) {
            c.pn = INF;
            c.dn = 0;
            c.rep = true;
        } else if let Some(p) = self.tt.probe(key, hand, need) {
            c.apply(p);
        } else if let Some(r) = self.out_of_plies(pos, need) {
            c.set(r);
        } else if pos.side_to_move() == self.attacker {
            let (m1, n_checks) = mate_in_1_and_checks(pos, self.defence);
            if let Some(m1) = m1 {
                pos.do_move(m1);
                let mut ev = MoveList::new();
                pos.generate_legal(&mut ev);
                let ph = self.mated_proof_hand(pos, &ev);
                pos.undo_move(m1);
                let r = proven(before(ph, m1), 1);
                self.tt.store(key, r.record(), m1.to_move16(), 1);
                c.set(r);
            } else if n_checks == 0 {
                let r = disproven(terminal_disproof_hand(pos), NO_MATE);
                self.tt.store(key, r.record(), Move16(0), 1);
                c.set(r);
            } else {
                // df-pn+ for disproofs, as pn counts evasions: more checks, more to disprove.
                // On muso001-024 (1M nodes each, first mate) 17 solved instead of 16, and 10 %
                // fewer nodes on those both solve; half as many checks: 16 and no gain.
                c.dn = n_checks.min(INF as usize - 1) as u32;
            }
        } else {
            let mut evasions = MoveList::new();
            pos.generate_legal(&mut evasions);
            if self.is_mated(pos, &evasions) {
                let r = proven(self.mated_proof_hand(pos, &evasions), 0);
                self.tt.store(key, r.record(), Move16(0), 1);
                c.set(r);
            } else if need < 2 {
                // An evasion exists, so a mate takes at least two more plies.
                c.set(disproven(hand, need));
            } else {
                // df-pn+: more evasions, more to prove. Drops on one square count once, as
                // the search takes them one at a time (delayed interpositions); counting
                // every drop solved 11 of the first 40 muso problems in 1 s, this 16.
                let mut drop_squares = Bitboard::EMPTY;
                let mut n = 0;
                for e in evasions.iter() {
                    if !e.is_drop() {
                        n += 1;
                    } else if !drop_squares.contains(e.to()) {
                        drop_squares.set(e.to());
                        n += 1;
                    }
                }
                c.pn = n;
            }
        }
        pos.undo_move(m);
        c
    }

    /// An attacker node with no plies left under the bound fails (for this bound only: the
    /// result is not stored).
    fn out_of_plies(&self, pos: &Position, need: u16) -> Option<NodeResult> {
        (need == 0 && pos.side_to_move() == self.attacker)
            .then(|| disproven(pos.hand(self.attacker), 0))
    }

    /// Searches the node at `pos` until it is final, a threshold is reached, or the search is
    /// aborted. `ply` is the distance from the root (it indexes the child-list pool).
    pub fn mid(&mut self, pos: &mut Position, th_pn: u32, th_dn: u32, ply: usize) -> NodeResult {
        self.poll();
        let or = pos.side_to_move() == self.attacker;
        let key = pos.board_key();
        let hand = pos.hand(self.attacker);
        let start_nodes = self.nodes;
        let need = self.need(ply);
        if let Some(r) = self.out_of_plies(pos, need) {
            return r;
        }
        let mut moves = MoveList::new();
        if or {
            generate_checks(pos, &mut moves);
        } else {
            pos.generate_legal(&mut moves);
        }
        if moves.is_empty() || (!or && self.is_mated(pos, &moves)) {
            let r = if or {
                disproven(terminal_disproof_hand(pos), NO_MATE)
            } else {
                proven(self.mated_proof_hand(pos, &moves), 0)
            };
            self.tt.store(key, r.record(), Move16(0), 1);
            return r;
        }
        if !or && need < 2 {
            return disproven(hand, need);
        }
        if self.pool.len() <= ply {
            self.pool.resize_with(ply + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.pool[ply]);
        children.clear();
        self.path_push(key);
        for &m in moves.iter() {
            let c = self.init_child(pos, m, ply + 1);
            children.push(c);
        }
        let r = self.search_children(pos, &mut children, or, hand, th_pn, th_dn, ply);
        self.path_pop(key);
        let amount = self.nodes - start_nodes;
        let r = self.store_result(pos, key, hand, or, &children, r, amount);
        self.pool[ply] = children;
        r
    }

    /// The df-pn loop over the children of one node.
    #[allow(clippy::too_many_arguments)]
    fn search_children(
        &mut self,
        pos: &mut Position,
        children: &mut [Child],
        or: bool,
        hand: Hand,
        th_pn: u32,
        th_dn: u32,
        ply: usize,
    ) -> NodeResult {
        let mut iteration = 0u32;
        loop {
            // Transpositions may have moved the other children on: look them up again now and
            // then.
            if iteration > 0 && iteration.is_multiple_of(REFRESH) {
                let need = self.need(ply + 1);
                for c in children.iter_mut() {
                    if !c.rep
                        && !c.is_final()
                        && let Some(p) = self.tt.probe(c.key, c.hand, need)
                    {
                        c.apply(p);
                    }
                }
            }
            iteration += 1;
            // (node pn, node dn, best child, the best child's rival value)
            let (pn, dn, best, second) = if or {
                let mut pn = INF;
                let mut second = INF;
                let mut best = 0;
                let mut dn_sum = 0u64;
                for (i, c) in children.iter().enumerate() {
                    if c.pn < pn {
                        second = pn;
                        pn = c.pn;
                        best = i;
                    } else if c.pn < second {
                        second = c.pn;
                    }
                    dn_sum += c.dn as u64;
                }
                let dn = if pn == 0 {
                    INF
                } else {
                    dn_sum.min(INF as u64 - 1) as u32
                };
                (pn, dn, best, second)
            } else {
                let mut dn = INF;
                let mut second = INF;
                let mut best = 0;
                let mut pn_sum = 0u64;
                // Delayed interpositions: of the defender's drops on one square only the
                // first not yet refuted takes part (pawn before lance before ...). The others
                // are mostly refuted the same way, and counting them all inflates pn.
                let mut drop_squares = Bitboard::EMPTY;
                for (i, c) in children.iter().enumerate() {
                    if c.m.is_drop() {
                        let to = c.m.to();
                        if drop_squares.contains(to) {
                            continue;
                        }
                        if c.pn != 0 {
                            drop_squares.set(to);
                        }
                    }
                    if c.dn < dn {
                        second = dn;
                        dn = c.dn;
                        best = i;
                    } else if c.dn < second {
                        second = c.dn;
                    }
                    pn_sum += c.pn as u64;
                }
                let pn = if dn == 0 {
                    INF
                } else {
                    pn_sum.min(INF as u64 - 1) as u32
                };
                (pn, dn, best, second)
            };
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.aborted {
                return self.node_result(children, or, hand, pn, dn);
            }
            let b = children[best];
            let (cth_pn, cth_dn) = if or {
                let rest = th_dn as u64 - dn as u64 + b.dn as u64;
                (th_pn.min(grow(second)), rest.min(INF as u64) as u32)
            } else {
                let rest = th_pn as u64 - pn as u64 + b.pn as u64;
                (rest.min(INF as u64) as u32, th_dn.min(grow(second)))
            };
            pos.do_move(b.m);
            self.nodes += 1;
            let r = self.mid(pos, cth_pn, cth_dn, ply + 1);
            pos.undo_move(b.m);
            children[best].set(r);
        }
    }

    /// The node's result from its children's (hands and lengths of final results included).
    fn node_result(
        &self,
        children: &[Child],
        or: bool,
        hand: Hand,
        pn: u32,
        dn: u32,
    ) -> NodeResult {
        let open = NodeResult {
            pn,
            dn,
            hand,
            len: 0,
            dlen: 0,
            rep: false,
        };
        if pn == 0 {
            if or {
                let Some(c) = children.iter().filter(|c| c.pn == 0).min_by_key(|c| c.len) else {
                    return open;
                };
                proven(before(c.final_hand, c.m), c.len.saturating_add(1))
            } else {
                let mut ph = Hand::EMPTY;
                let mut len = 0;
                for c in children {
                    ph = union(ph, c.final_hand);
                    len = len.max(c.len);
                }
                proven(ph, len.saturating_add(1))
            }
        } else if dn == 0 {
            let rep = NodeResult {
                rep: true,
                ..disproven(hand, 0)
            };
            if or {
                if children.iter().any(|c| c.rep) {
                    return rep;
                }
                let mut dh: Option<Hand> = None;
                let mut dlen = NO_MATE;
                for c in children {
                    let h = before(c.final_hand, c.m);
                    dh = Some(match dh {
                        None => h,
                        Some(d) => intersection(d, h),
                    });
                    dlen = dlen.min(c.dlen);
                }
                disproven(dh.unwrap_or(hand), dlen_up(dlen))
            } else {
                match Self::disproving_child(children) {
                    Some(c) => disproven(c.final_hand, dlen_up(c.dlen)),
                    None => rep,
                }
            }
        } else {
            open
        }
    }

    /// The defender's refutation that lasts longest (not resting on a repetition), if any.
    fn disproving_child(children: &[Child]) -> Option<&Child> {
        children
            .iter()
            .filter(|c| c.dn == 0 && !c.rep)
            .max_by_key(|c| c.dlen)
    }

    /// Finishes the hands that need the position, then stores the node (repetition-dependent
    /// disproofs are not stored).
    #[allow(clippy::too_many_arguments)]
    fn store_result(
        &mut self,
        pos: &Position,
        key: u64,
        hand: Hand,
        or: bool,
        children: &[Child],
        r: NodeResult,
        amount: u64,
    ) -> NodeResult {
        if r.rep {
            return r;
        }
        let mut r = r;
        let mut best = Move16(0);
        if r.pn == 0 {
            if !or {
                r.hand = add_interposition_types(pos, r.hand);
            }
            let pick = if or {
                children.iter().filter(|c| c.pn == 0).min_by_key(|c| c.len)
            } else {
                children.iter().max_by_key(|c| c.len)
            };
            if let Some(c) = pick {
                best = c.m.to_move16();
            }
        } else if r.dn == 0 {
            if or {
                r.hand = remove_checking_drop_types(pos, r.hand);
            } else if let Some(c) = Self::disproving_child(children) {
                r.hand = limit_for_defender_drop(pos, r.hand, c.m);
                best = c.m.to_move16();
            }
        } else {
            r.hand = hand;
        }
        self.tt.store(key, r.record(), best, amount);
        r
    }
}
