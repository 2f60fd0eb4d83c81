//! Reading the tree for the outside: the move to play, the principal variation, the winning
//! rate as a USI score.

use crate::node::{Edge, Node, NodeState, Proven};
use hayate_core::Move;
use hayate_core::player::{Info, Score};
use std::time::Duration;

/// dlshogi's conversion of a winning rate to centipawns: `-coef·ln(1/wp − 1)`, clamped to
/// ±30000 (`Eval_Coef` = 756 by default).
pub fn winrate_to_cp(wp: f64, coef: f64) -> i32 {
    let wp = wp.clamp(1e-9, 1.0 - 1e-9);
    let cp = -coef * (1.0 / wp - 1.0).ln();
    cp.clamp(-30000.0, 30000.0).round() as i32
}

/// The edge to play (dlshogi's `select_max_child_node`): a proven win if there is one (the most
/// visited of them); otherwise the most visited edge that is not a proven loss, ties broken by
/// the higher prior. `None` when every edge loses (or there is none).
pub fn best_edge(node: &Node) -> Option<usize> {
    let edges = node.edges();
    let key = |e: &Edge| (e.n(), e.prior);
    let better = |a: (u32, f32), b: (u32, f32)| a.0 > b.0 || (a.0 == b.0 && a.1 > b.1);
    let win = edges
        .iter()
        .enumerate()
        .filter(|(_, e)| e.proven() == Proven::Win)
        .max_by_key(|(_, e)| e.n())
        .map(|(i, _)| i);
    if win.is_some() {
        return win;
    }
    let mut best: Option<(usize, (u32, f32))> = None;
    for (i, e) in edges.iter().enumerate() {
        if e.proven() == Proven::Loss {
            continue;
        }
        if best.is_none_or(|(_, k)| better(key(e), k)) {
            best = Some((i, key(e)));
        }
    }
    best.map(|(i, _)| i)
}

/// The principal variation from `node`: the best edge at each level while the child has been
/// expanded and visited, at most `max_len` moves.
pub fn principal_variation(node: &Node, max_len: usize) -> Vec<Move> {
    let mut pv = Vec::new();
    let mut cur = node;
    while pv.len() < max_len {
        let Some(i) = best_edge(cur) else { break };
        let e = &cur.edges()[i];
        if e.n() == 0 {
            break;
        }
        pv.push(e.mv);
        match e.child() {
            Some(c) if c.state() == NodeState::Expanded => cur = c,
            _ => break,
        }
    }
    pv
}

/// The tree's size as the search reports it beside the root.
#[derive(Clone, Copy, Debug)]
pub struct TreeSize {
    /// Nodes in the tree.
    pub nodes: usize,
    /// The node limit (`UCT_NodeLimit`), for `hashfull`.
    pub node_limit: usize,
    /// Deepest path this search.
    pub seldepth: u32,
}

/// An `info` line for the search at `root`: depth = PV length, nodes = root visits, score
/// from the best edge's winning rate (`eval_coef` as in [`winrate_to_cp`]).
pub fn info_line(root: &Node, elapsed: Duration, size: TreeSize, eval_coef: f64) -> Info {
    let pv = principal_variation(root, 64);
    let n = root.n() as u64;
    let ms = elapsed.as_millis() as u64;
    let score = best_edge(root)
        .and_then(|i| root.edges()[i].q())
        .map(|q| Score::Cp(winrate_to_cp(q, eval_coef)));
    let hashfull = size.nodes.saturating_mul(1000) / size.node_limit.max(1);
    Info {
        depth: Some(pv.len() as u32),
        seldepth: Some(size.seldepth.max(pv.len() as u32)),
        time_ms: Some(ms),
        nodes: Some(n),
        nps: Some(n * 1000 / ms.max(1)),
        hashfull: Some(hashfull.min(1000) as u32),
        score,
        pv,
        ..Info::default()
    }
}

/// Visits of the most and second most visited edges.
pub fn top_two_visits(node: &Node) -> (u32, u32) {
    let mut a = 0;
    let mut b = 0;
    for e in node.edges() {
        let n = e.n();
        if n > a {
            b = a;
            a = n;
        } else if n > b {
            b = n;
        }
    }
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Edge;

    #[test]
    fn cp_conversion_is_dlshogis() {
        assert_eq!(winrate_to_cp(0.5, 756.0), 0);
        // ln(3) = 1.0986: 0.75 → +830.6, 0.25 → −830.6.
        assert_eq!(winrate_to_cp(0.75, 756.0), 831);
        assert_eq!(winrate_to_cp(0.25, 756.0), -831);
        assert_eq!(winrate_to_cp(1.0, 756.0), 15667);
        assert_eq!(winrate_to_cp(0.0, 756.0), -15667);
    }

    #[test]
    fn best_edge_prefers_proven_wins_then_visits_then_prior() {
        let m = |i: u32| Move::from_raw(i + 1);
        let node = Node::with_edges(
            vec![
                Edge::with_stats(m(0), 0.2, 10, 5.0),
                Edge::with_stats(m(1), 0.5, 10, 5.0),
                Edge::with_stats(m(2), 0.3, 3, 1.0),
                Edge::with_stats(m(3), 0.0, 12, 1.0),
            ],
            35,
            12.0,
        );
        assert_eq!(best_edge(&node), Some(3));
        node.edges()[3].set_proven(Proven::Loss);
        assert_eq!(best_edge(&node), Some(1), "equal visits: higher prior");
        node.edges()[2].set_proven(Proven::Win);
        assert_eq!(best_edge(&node), Some(2));
        for e in node.edges() {
            e.set_proven(Proven::Loss);
        }
        assert_eq!(best_edge(&node), None);
        assert_eq!(top_two_visits(&node), (12, 10));
    }
}
