//! The tree: nodes own their edges, edges own their child nodes. Statistics are atomics so that
//! search threads share the tree without locks; a node's children are written once.
//!
//! Convention (as dlshogi): an edge's `win` sums results from the point of view of the player
//! who makes the edge's move (the side to move at the parent), and a node's `win` sums the same
//! results over all its edges, so `win / visits` of a node is its value for its side to move.

use hayate_core::Move;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering};

/// An `f64` sum updated by several threads.
#[derive(Debug, Default)]
pub struct AtomicSum(AtomicU64);

impl AtomicSum {
    /// A sum starting at `x`.
    pub fn new(x: f64) -> AtomicSum {
        AtomicSum(AtomicU64::new(x.to_bits()))
    }
    /// The current value.
    #[inline]
    pub fn get(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }
    /// Adds `x`.
    #[inline]
    pub fn add(&self, x: f64) {
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                Some((f64::from_bits(b) + x).to_bits())
            });
    }
}

/// What is known for certain about an edge, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Proven {
    /// Nothing: search it.
    Unknown = 0,
    /// The move wins (the child position is lost for its side to move).
    Win = 1,
    /// The move loses (the child position is won for its side to move).
    Loss = 2,
    /// The move reaches a draw (repetition, draw ply).
    Draw = 3,
}

impl Proven {
    fn from_u8(x: u8) -> Proven {
        match x {
            1 => Proven::Win,
            2 => Proven::Loss,
            3 => Proven::Draw,
            _ => Proven::Unknown,
        }
    }
}

/// Life cycle of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum NodeState {
    /// Created, nobody has looked at it yet.
    New = 0,
    /// A thread has claimed it and is checking it or waiting for the network.
    Pending = 1,
    /// Evaluated and expanded: its edges exist.
    Expanded = 2,
    /// A game end (mate, repetition, declaration, no move): no edges; the parent edge is proven.
    Terminal = 3,
}

/// One position in the tree.
#[derive(Debug, Default)]
pub struct Node {
    /// Visits through this node (selections made here), virtual losses included.
    pub visits: AtomicU32,
    /// Sum of results for this node's side to move.
    pub win: AtomicSum,
    state: AtomicU8,
    edges: OnceLock<Box<[Edge]>>,
}

/// A move from a node, with its statistics and (once visited) the node it leads to.
#[derive(Debug)]
pub struct Edge {
    /// The move.
    pub mv: Move,
    /// Prior probability from the policy (softmax over the legal moves).
    pub prior: f32,
    /// Visits of this move, virtual losses included.
    pub visits: AtomicU32,
    /// Sum of results for the mover.
    pub win: AtomicSum,
    proven: AtomicU8,
    child: OnceLock<Box<Node>>,
}

impl Edge {
    /// An unvisited edge.
    pub fn new(mv: Move, prior: f32) -> Edge {
        Edge {
            mv,
            prior,
            visits: AtomicU32::new(0),
            win: AtomicSum::default(),
            proven: AtomicU8::new(0),
            child: OnceLock::new(),
        }
    }

    /// An edge with given statistics (for hand-built trees in tests and tools).
    pub fn with_stats(mv: Move, prior: f32, visits: u32, win: f64) -> Edge {
        let e = Edge::new(mv, prior);
        e.visits.store(visits, Ordering::Relaxed);
        e.win.add(win);
        e
    }

    /// What is proven about the move.
    #[inline]
    pub fn proven(&self) -> Proven {
        Proven::from_u8(self.proven.load(Ordering::Acquire))
    }

    /// Records a proof.
    pub fn set_proven(&self, p: Proven) {
        self.proven.store(p as u8, Ordering::Release);
    }

    /// Visits (virtual losses included).
    #[inline]
    pub fn n(&self) -> u32 {
        self.visits.load(Ordering::Relaxed)
    }

    /// Mean result for the mover, or `None` before the first visit.
    pub fn q(&self) -> Option<f64> {
        let n = self.n();
        (n > 0).then(|| self.win.get() / n as f64)
    }

    /// The child node, if created.
    #[inline]
    pub fn child(&self) -> Option<&Node> {
        self.child.get().map(|b| &**b)
    }

    /// The child node, created empty on first use.
    #[inline]
    pub fn child_or_create(&self) -> (&Node, bool) {
        let mut created = false;
        let node = self.child.get_or_init(|| {
            created = true;
            Box::new(Node::default())
        });
        (node, created)
    }

    /// Takes the child subtree out (for tree reuse).
    pub fn take_child(&mut self) -> Option<Box<Node>> {
        self.child.take()
    }
}

impl Node {
    /// A fresh, unevaluated node.
    pub fn new() -> Node {
        Node::default()
    }

    /// A node already expanded with these edges (for hand-built trees).
    pub fn with_edges(edges: Vec<Edge>, visits: u32, win: f64) -> Node {
        let n = Node::new();
        n.visits.store(visits, Ordering::Relaxed);
        n.win.add(win);
        n.set_edges(edges.into_boxed_slice());
        n
    }

    /// The life-cycle state.
    #[inline]
    pub fn state(&self) -> NodeState {
        match self.state.load(Ordering::Acquire) {
            1 => NodeState::Pending,
            2 => NodeState::Expanded,
            3 => NodeState::Terminal,
            _ => NodeState::New,
        }
    }

    /// Claims a new node for evaluation; `false` when another thread was first.
    pub fn claim(&self) -> bool {
        self.state
            .compare_exchange(0, 1, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Marks the node as a game end.
    pub fn set_terminal(&self) {
        self.state
            .store(NodeState::Terminal as u8, Ordering::Release);
    }

    /// Gives back a claim without evaluating (the search stopped).
    pub fn unclaim(&self) {
        self.state.store(NodeState::New as u8, Ordering::Release);
    }

    /// Installs the edges and marks the node expanded.
    pub fn set_edges(&self, edges: Box<[Edge]>) {
        let _ = self.edges.set(edges);
        self.state
            .store(NodeState::Expanded as u8, Ordering::Release);
    }

    /// The edges (empty before expansion).
    #[inline]
    pub fn edges(&self) -> &[Edge] {
        self.edges.get().map(|b| &**b).unwrap_or(&[])
    }

    /// Mutable edges, for tree reuse.
    pub fn edges_mut(&mut self) -> &mut [Edge] {
        self.edges.get_mut().map(|b| &mut **b).unwrap_or(&mut [])
    }

    /// Visits.
    #[inline]
    pub fn n(&self) -> u32 {
        self.visits.load(Ordering::Relaxed)
    }

    /// Nodes in this subtree, this one included.
    pub fn count(&self) -> usize {
        let mut total = 0;
        let mut stack = vec![self];
        while let Some(n) = stack.pop() {
            total += 1;
            stack.extend(n.edges().iter().filter_map(Edge::child));
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_and_edges_stay_small() {
        // The memory estimate of `SearchParams::node_limit` rests on these.
        assert!(
            std::mem::size_of::<Edge>() <= 40,
            "{}",
            std::mem::size_of::<Edge>()
        );
        assert!(
            std::mem::size_of::<Node>() <= 40,
            "{}",
            std::mem::size_of::<Node>()
        );
    }

    #[test]
    fn atomic_sum_adds() {
        let s = AtomicSum::new(0.25);
        s.add(0.5);
        assert_eq!(s.get(), 0.75);
    }
}
