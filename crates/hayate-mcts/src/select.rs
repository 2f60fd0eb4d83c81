//! PUCT child selection (dlshogi's `SelectMaxUcbChild`), on the atomics of a live node.

use crate::node::{Node, Proven};
use crate::params::Puct;

/// The outcome of a selection at one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Descend through this edge.
    Child(usize),
    /// This edge is a proven win: the node is won for its side to move.
    Win(usize),
    /// Every edge is a proven loss: the node is lost for its side to move.
    Loss,
}

/// Picks the edge with the highest `q + c·u·P`:
/// - a visited edge has `q = W/n`, `u = sqrt(N)/(1+n)`;
/// - an unvisited edge has `q = parent_q` (first-play urgency) and `u = sqrt(N)` (1 when N = 0),
///   where `parent_q = max(0, W_parent/N − fpu_reduction·sqrt(sum of visited priors))` once the
///   parent has a positive value sum, else 0;
/// - proven losses are skipped, a proven win is taken at once, and a draw is scored like any
///   edge from its statistics.
///
/// Ties go to the first edge. Returns [`Selection::Loss`] when there is no edge to choose.
pub fn select_child(node: &Node, puct: &Puct) -> Selection {
    let edges = node.edges();
    let parent_n = node.n();
    let parent_w = node.win.get();
    let mut visited_prior = 0.0f32;
    for e in edges {
        if e.n() > 0 {
            visited_prior += e.prior;
        }
    }
    let parent_q = if parent_w > 0.0 && parent_n > 0 {
        ((parent_w / parent_n as f64) as f32 - puct.fpu_reduction * visited_prior.sqrt()).max(0.0)
    } else {
        0.0
    };
    let sqrt_n = (parent_n as f32).sqrt();
    let c = puct.c(parent_n);
    let mut best = None;
    let mut best_ucb = f32::NEG_INFINITY;
    for (i, e) in edges.iter().enumerate() {
        match e.proven() {
            Proven::Win => return Selection::Win(i),
            Proven::Loss => continue,
            Proven::Unknown | Proven::Draw => {}
        }
        let n = e.n();
        let (q, u) = if n == 0 {
            (parent_q, if parent_n == 0 { 1.0 } else { sqrt_n })
        } else {
            ((e.win.get() / n as f64) as f32, sqrt_n / (1 + n) as f32)
        };
        let ucb = q + c * u * e.prior;
        if ucb > best_ucb {
            best_ucb = ucb;
            best = Some(i);
        }
    }
    match best {
        Some(i) => Selection::Child(i),
        None => Selection::Loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Edge;
    use hayate_core::Move;

    const PUCT: Puct = Puct {
        c_init: 1.44,
        c_base: 28288.0,
        fpu_reduction: 0.27,
    };

    fn mv(i: u32) -> Move {
        // Any distinct bit patterns will do: selection never interprets the move.
        Move::from_raw(i + 1)
    }

    #[test]
    fn exploration_constant_grows_with_visits() {
        assert!((PUCT.c(0) - (1.44 + (28289.0f32 / 28288.0).ln())).abs() < 1e-6);
        let c = PUCT.c(28288);
        assert!(
            (c - (1.44 + (56577.0f32 / 28288.0).ln())).abs() < 1e-5,
            "{c}"
        );
    }

    #[test]
    fn unvisited_node_follows_the_prior() {
        let node = Node::with_edges(
            vec![
                Edge::new(mv(0), 0.2),
                Edge::new(mv(1), 0.5),
                Edge::new(mv(2), 0.3),
            ],
            0,
            0.0,
        );
        assert_eq!(select_child(&node, &PUCT), Selection::Child(1));
    }

    #[test]
    fn ucb_matches_the_formula() {
        // N = 10, W = 6; edge 0: n=6, w=4.2 (q 0.7), P 0.4; edge 1: n=4, w=1.2 (q 0.3), P 0.5;
        // edge 2: unvisited, P 0.1.
        let node = Node::with_edges(
            vec![
                Edge::with_stats(mv(0), 0.4, 6, 4.2),
                Edge::with_stats(mv(1), 0.5, 4, 1.2),
                Edge::new(mv(2), 0.1),
            ],
            10,
            6.0,
        );
        let c = PUCT.c(10);
        let s = 10f32.sqrt();
        let u0 = 0.7 + c * s / 7.0 * 0.4;
        let u1 = 0.3 + c * s / 5.0 * 0.5;
        let fpu = (0.6 - 0.27 * 0.9f32.sqrt()).max(0.0);
        let u2 = fpu + c * s * 0.1;
        let want = [u0, u1, u2]
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(i, _)| i)
            .unwrap_or(0);
        assert_eq!(u0 > u1 && u0 > u2, want == 0);
        assert_eq!(select_child(&node, &PUCT), Selection::Child(want));
        // Hand values: u0 = 0.7 + c·3.162/7·0.4 ≈ 0.96, u1 ≈ 0.76, u2 ≈ 0.34 + 0.46 ≈ 0.80.
        assert_eq!(want, 0);
    }

    #[test]
    fn first_play_urgency_reduction_lowers_unvisited_moves() {
        // N = 20, W = 12: a visited edge (P 0.9, q 0.6) against an unvisited one (P 0.1).
        // c·sqrt(N) ≈ 6.44: without reduction the unvisited edge scores 0.6 + 0.64 against
        // 0.6 + 0.28; with a reduction of 1 its q drops to max(0, 0.6 − sqrt(0.9)) = 0 and it
        // scores 0.64 only.
        let build = || {
            Node::with_edges(
                vec![
                    Edge::with_stats(mv(0), 0.9, 20, 12.0),
                    Edge::new(mv(1), 0.1),
                ],
                20,
                12.0,
            )
        };
        let no_fpu = Puct {
            fpu_reduction: 0.0,
            ..PUCT
        };
        let big_fpu = Puct {
            fpu_reduction: 1.0,
            ..PUCT
        };
        assert_eq!(select_child(&build(), &no_fpu), Selection::Child(1));
        assert_eq!(select_child(&build(), &big_fpu), Selection::Child(0));
    }

    #[test]
    fn proven_edges_decide() {
        let node = Node::with_edges(
            vec![
                Edge::with_stats(mv(0), 0.9, 50, 40.0),
                Edge::new(mv(1), 0.1),
            ],
            50,
            40.0,
        );
        node.edges()[1].set_proven(Proven::Win);
        assert_eq!(select_child(&node, &PUCT), Selection::Win(1));
        node.edges()[1].set_proven(Proven::Loss);
        assert_eq!(select_child(&node, &PUCT), Selection::Child(0));
        node.edges()[0].set_proven(Proven::Loss);
        assert_eq!(select_child(&node, &PUCT), Selection::Loss);
    }

    #[test]
    fn virtual_loss_spreads_threads() {
        // Two equal edges: a virtual visit on the first (n+1, no win) sends the next thread to
        // the second.
        let node = Node::with_edges(
            vec![
                Edge::with_stats(mv(0), 0.5, 5, 3.0),
                Edge::with_stats(mv(1), 0.5, 5, 3.0),
            ],
            10,
            6.0,
        );
        assert_eq!(select_child(&node, &PUCT), Selection::Child(0));
        node.edges()[0]
            .visits
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        node.visits
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(select_child(&node, &PUCT), Selection::Child(1));
    }
}
