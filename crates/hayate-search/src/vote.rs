//! Lazy SMP's answer: every thread searched the same root, the helpers at staggered depths, and
//! their results vote. A thread's move gets `(score − the lowest score + 14) × depth` votes, so
//! deeper and better-scoring results weigh more (Stockfish's rule); the move with the most votes
//! wins, except that a found mate is kept (the shortest) and a thread that sees itself mated
//! never wins by votes.

use crate::value::{MATE_IN_MAX_PLY, Value};
use hayate_core::Move;

/// One thread's result: its last completed depth and its best root move's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadResult {
    /// Last completed depth (0: nothing to say).
    pub depth: i32,
    /// Its best root move.
    pub mv: Move,
    /// That move's score.
    pub score: Value,
}

/// The index of the thread whose answer to play (0, the main thread, when none is better).
pub fn best_thread(results: &[ThreadResult]) -> usize {
    let voters: Vec<&ThreadResult> = results.iter().filter(|r| r.depth > 0).collect();
    let Some(min) = voters.iter().map(|r| r.score).min() else {
        return 0;
    };
    let votes = |mv: Move| -> i64 {
        voters
            .iter()
            .filter(|r| r.mv.same(mv))
            .map(|r| i64::from(r.score - min + 14) * i64::from(r.depth))
            .sum()
    };
    let mut best = 0;
    for (i, r) in results.iter().enumerate().skip(1) {
        if r.depth == 0 {
            continue;
        }
        let b = &results[best];
        let better = if b.depth > 0 && b.score.abs() >= MATE_IN_MAX_PLY {
            // A mate either way: the higher score (a shorter win, a longer loss) is better.
            r.score > b.score
        } else {
            r.score >= MATE_IN_MAX_PLY
                || (r.score > -MATE_IN_MAX_PLY && votes(r.mv) > votes(b.mv))
                || b.depth == 0
        };
        if better {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{mate_in, mated_in};
    use hayate_core::Position;

    fn moves() -> (Move, Move) {
        let legal = Position::startpos().legal_moves();
        (legal[0], legal[1])
    }

    fn r(depth: i32, mv: Move, score: Value) -> ThreadResult {
        ThreadResult { depth, mv, score }
    }

    #[test]
    fn the_majority_of_deep_threads_outvotes_the_main_thread() {
        let (a, b) = moves();
        // Main (a, depth 10) against two helpers that agree on b at depth 11.
        let t = [r(10, a, 50), r(11, b, 40), r(11, b, 45)];
        assert!(t[best_thread(&t)].mv.same(b));
        // One helper alone, shallower and worse, does not.
        let t = [r(10, a, 50), r(9, b, 20)];
        assert_eq!(best_thread(&t), 0);
    }

    #[test]
    fn mates_are_kept_and_the_shortest_wins() {
        let (a, b) = moves();
        let t = [r(12, a, 80), r(9, b, mate_in(7)), r(8, a, 90)];
        assert_eq!(best_thread(&t), 1);
        let t = [r(12, a, mate_in(9)), r(9, b, mate_in(5))];
        assert_eq!(best_thread(&t), 1);
        // A helper that sees itself mated never outvotes the main thread.
        let t = [r(10, a, -200), r(14, b, mated_in(6)), r(14, b, mated_in(6))];
        assert_eq!(best_thread(&t), 0);
    }

    #[test]
    fn threads_with_nothing_to_say_do_not_vote() {
        let (a, b) = moves();
        assert_eq!(best_thread(&[]), 0);
        let t = [r(0, a, 0), r(5, b, 10)];
        assert_eq!(best_thread(&t), 1);
        let t = [r(6, a, 10), r(0, b, 1000)];
        assert_eq!(best_thread(&t), 0);
    }
}
