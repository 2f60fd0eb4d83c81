//! Fixed-depth mate search over an odd number of plies: every attacker move a check, every
//! defender move an evasion, mate-in-1 at the last attacker ply. Small enough to run at every
//! MCTS leaf; a node budget bounds the worst case.

use crate::futile::{Defence, only_futile};
use crate::mate1::mate_in_1_with;
use hayate_core::generate_checks;
use hayate_core::{Move, MoveList, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The first move of a mate in at most `plies` plies (1, 3, 5, 7, ...; an even number is
/// rounded down), or `None` when there is none. No node limit: see [`OddPlySearch`] for one.
pub fn mate_in(pos: &mut Position, plies: u32) -> Option<Move> {
    match OddPlySearch::new(u64::MAX).search(pos, plies) {
        OddPlyResult::Mate(m) => Some(m),
        _ => None,
    }
}

/// [`mate_in`] under a convention for the defence (see [`Defence`]).
pub fn mate_in_with(pos: &mut Position, plies: u32, defence: Defence) -> Option<Move> {
    match OddPlySearch::new(u64::MAX)
        .with_defence(defence)
        .search(pos, plies)
    {
        OddPlyResult::Mate(m) => Some(m),
        _ => None,
    }
}

/// What a bounded odd-ply search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OddPlyResult {
    /// A mate within the plies; the first move.
    Mate(Move),
    /// No mate within the plies.
    NoMate,
    /// The node budget ran out first.
    Aborted,
}

/// A fixed-depth mate search with a node budget (nodes are moves made), and optionally a
/// deadline and a stop flag.
#[derive(Clone, Debug)]
pub struct OddPlySearch<'a> {
    nodes: u64,
    max_nodes: u64,
    defence: Defence,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
}

impl<'a> OddPlySearch<'a> {
    /// A search that gives up after `max_nodes` moves made.
    pub fn new(max_nodes: u64) -> OddPlySearch<'a> {
        OddPlySearch {
            nodes: 0,
            max_nodes,
            defence: Defence::AllLegal,
            deadline: None,
            stop: None,
        }
    }

    /// The same search under another convention for the defence.
    pub fn with_defence(mut self, defence: Defence) -> OddPlySearch<'a> {
        self.defence = defence;
        self
    }

    /// The same search, also giving up at `deadline` or once `stop` is set.
    pub fn with_limits(
        mut self,
        deadline: Option<Instant>,
        stop: Option<&'a AtomicBool>,
    ) -> OddPlySearch<'a> {
        self.deadline = deadline;
        self.stop = stop;
        self
    }

    /// Moves made so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Looks for a mate in at most `plies` plies for the side to move.
    pub fn search(&mut self, pos: &mut Position, plies: u32) -> OddPlyResult {
        if plies == 0 {
            return OddPlyResult::NoMate;
        }
        let depth = if plies.is_multiple_of(2) {
            plies - 1
        } else {
            plies
        };
        match self.or_node(pos, depth) {
            Ok(Some(m)) => OddPlyResult::Mate(m),
            Ok(None) => OddPlyResult::NoMate,
            Err(Aborted) => OddPlyResult::Aborted,
        }
    }

    /// A mating move within `depth` (odd) plies for the side to move.
    fn or_node(&mut self, pos: &mut Position, depth: u32) -> Result<Option<Move>, Aborted> {
        if let Some(m) = mate_in_1_with(pos, self.defence) {
            return Ok(Some(m));
        }
        if depth < 3 {
            return Ok(None);
        }
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        for &m in checks.iter() {
            self.count()?;
            pos.do_move(m);
            let r = self.and_node(pos, depth - 1);
            pos.undo_move(m);
            if r? {
                return Ok(Some(m));
            }
        }
        Ok(None)
    }

    /// Whether every evasion of the side to move (in check) is met by a mate within `depth`
    /// (even) plies. No evasion is mate: the check was legal, so it was not a pawn-drop mate.
    fn and_node(&mut self, pos: &mut Position, depth: u32) -> Result<bool, Aborted> {
        let mut evasions = MoveList::new();
        pos.generate_legal(&mut evasions);
        if self.defence != Defence::AllLegal && only_futile(pos, &evasions, self.defence) {
            return Ok(true);
        }
        for &m in evasions.iter() {
            self.count()?;
            pos.do_move(m);
            let r = self.or_node(pos, depth - 1);
            pos.undo_move(m);
            if r?.is_none() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    #[inline(always)]
    fn count(&mut self) -> Result<(), Aborted> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(Aborted);
        }
        if self.nodes.is_multiple_of(1024)
            && (self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            // Stay aborted: later calls must not see a shortened budget as a fresh one.
            self.max_nodes = 0;
            return Err(Aborted);
        }
        Ok(())
    }
}

/// The node budget ran out.
#[derive(Clone, Copy, Debug)]
struct Aborted;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::verify_first_move;

    #[test]
    fn odd_ply_search_answers_exact_short_problems() {
        for p in crate::testdata::exact_short() {
            if p.plies > 7 {
                continue;
            }
            let mut pos = Position::from_sfen(&p.sfen).expect("valid sfen");
            let found = mate_in_with(&mut pos, p.plies, Defence::NoFutileDrops);
            assert_eq!(found.is_some(), p.mate, "{} within {}", p.sfen, p.plies);
            if let Some(m) = found {
                verify_first_move(&mut pos, m, p.plies, Defence::NoFutileDrops)
                    .expect("a real mate");
                if p.plies >= 3 {
                    assert_eq!(
                        mate_in_with(&mut pos, p.plies - 2, Defence::NoFutileDrops),
                        None,
                        "{} is shorter than {}",
                        p.sfen,
                        p.plies
                    );
                }
            }
        }
    }

    #[test]
    fn node_budget_aborts() {
        let mut pos =
            Position::from_sfen("9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1").expect("sfen");
        assert_eq!(
            OddPlySearch::new(10).search(&mut pos, 7),
            OddPlyResult::Aborted
        );
    }

    /// Every mate the bounded search claims on the SFEN lines of `$ODD_SFENS` is a real one:
    /// `ODD_SFENS=positions.sfen cargo test --release -p hayate-mate odd_ply_claims -- --ignored`.
    #[test]
    #[ignore]
    fn odd_ply_claims_on_a_file_are_real_mates() {
        let Ok(path) = std::env::var("ODD_SFENS") else {
            return;
        };
        let text = std::fs::read_to_string(path).expect("readable");
        let (mut claims, mut checked) = (0, 0);
        let mut micros: Vec<u128> = Vec::new();
        for line in text.lines() {
            let Ok(mut pos) = Position::from_sfen(line.trim()) else {
                continue;
            };
            if pos.in_check() {
                continue;
            }
            checked += 1;
            let t = Instant::now();
            let r = OddPlySearch::new(512).search(&mut pos, 3);
            micros.push(t.elapsed().as_micros());
            if let OddPlyResult::Mate(m) = r {
                claims += 1;
                let before = pos.to_sfen();
                verify_first_move(&mut pos, m, 3, Defence::AllLegal)
                    .unwrap_or_else(|e| panic!("{line}: {m}: {e}"));
                assert_eq!(pos.to_sfen(), before);
            }
        }
        micros.sort_unstable();
        let at = |q: f64| micros[((micros.len() - 1) as f64 * q) as usize];
        eprintln!(
            "{checked} positions, {claims} mates claimed, all real; µs per probe: median {}, p90 {}, p99 {}, max {}",
            at(0.5),
            at(0.9),
            at(0.99),
            at(1.0)
        );
    }
}
