//! The tree search: worker threads descend with virtual loss, gather leaves into their own batch,
//! run the shared backend, expand and back up; results proven by rules or mate searches are
//! propagated as wins and losses.

use crate::cache::{Evaluation, NnCache};
use crate::leaf::{priors, searched_moves, terminal};
use crate::node::{Edge, Node, NodeState, Proven};
use crate::params::SearchParams;
use crate::select::{Selection, select_child};
use hayate_core::{Color, MoveList, Position};
use hayate_infer::{Backend, Batch, Layout, NetKind};
use hayate_nn::novice::NoviceConfig;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The shared network, one at a time (threads take turns; their batches overlap with the
/// other threads' tree work).
pub type SharedBackend = Arc<Mutex<Box<dyn Backend>>>;

/// What is proven about the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootResult {
    /// Nothing yet.
    Unknown,
    /// The side to move wins (some edge is a proven win).
    Win,
    /// The side to move loses (every edge is a proven loss).
    Loss,
}

/// State shared by the threads of one search.
pub struct SearchShared<'a> {
    /// Search constants.
    pub params: &'a SearchParams,
    /// The root (expanded before the threads start).
    pub root: &'a Node,
    /// The root position, with its history.
    pub root_pos: &'a Position,
    /// The network.
    pub backend: &'a SharedBackend,
    /// The NN cache.
    pub cache: &'a NnCache,
    /// Set to end the search (time, stop, limits, proof).
    pub stop: AtomicBool,
    /// Playouts started (each reserved before its descent, given back on a collision).
    pub started: AtomicU64,
    /// Playouts allowed this search.
    pub playout_limit: u64,
    /// Nodes in the tree.
    pub nodes: AtomicUsize,
    /// Deepest path this search (selective depth).
    pub seldepth: AtomicU32,
    /// Worker threads still running.
    pub running: AtomicUsize,
    root_result: AtomicU8,
    /// The first backend error, which ends the search.
    pub error: Mutex<Option<String>>,
    /// Longest recent network call (µs), decaying: what one batch in flight costs at the end.
    batch_us: AtomicU64,
    /// The network's inputs.
    layout: Layout,
}

/// The inputs `backend` takes, with the game settings of `params` for a Novice network (its
/// draw-score and ply-limit channels).
pub fn layout(backend: &SharedBackend, params: &SearchParams) -> Layout {
    let kind = backend.lock().unwrap_or_else(|p| p.into_inner()).kind();
    match kind {
        NetKind::Dlshogi => Layout::Dlshogi,
        NetKind::Prelude => Layout::Prelude,
        NetKind::Novice => Layout::Novice(NoviceConfig {
            max_plies: if params.draw_ply > 0 {
                params.draw_ply
            } else {
                NoviceConfig::default().max_plies
            },
            draw_score_black: params.draw_value[0],
            draw_score_white: params.draw_value[1],
        }),
    }
}

impl<'a> SearchShared<'a> {
    /// Shared state for a search from `root` (already expanded) at `root_pos`.
    pub fn new(
        params: &'a SearchParams,
        root: &'a Node,
        root_pos: &'a Position,
        backend: &'a SharedBackend,
        cache: &'a NnCache,
        nodes: usize,
        playout_limit: u64,
    ) -> SearchShared<'a> {
        SearchShared {
            params,
            root,
            root_pos,
            backend,
            cache,
            stop: AtomicBool::new(false),
            started: AtomicU64::new(0),
            playout_limit,
            nodes: AtomicUsize::new(nodes),
            seldepth: AtomicU32::new(0),
            running: AtomicUsize::new(0),
            root_result: AtomicU8::new(0),
            error: Mutex::new(None),
            batch_us: AtomicU64::new(0),
            layout: layout(backend, params),
        }
    }

    /// How long the search takes to end once `stop` is set: the network call in flight (the
    /// longest recent one) and a few milliseconds to join the threads.
    pub fn wind_down(&self) -> Duration {
        Duration::from_micros(self.batch_us.load(Ordering::Relaxed)) + Duration::from_millis(5)
    }

    /// Records one network call's time: the estimate jumps up at once and decays by an eighth.
    fn record_batch(&self, took: Duration) {
        let us = took.as_micros().min(u64::MAX as u128) as u64;
        let old = self.batch_us.load(Ordering::Relaxed);
        self.batch_us
            .store(us.max(old - old / 8), Ordering::Relaxed);
    }

    /// What is proven about the root.
    pub fn root_result(&self) -> RootResult {
        match self.root_result.load(Ordering::Acquire) {
            1 => RootResult::Win,
            2 => RootResult::Loss,
            _ => RootResult::Unknown,
        }
    }

    fn set_root_result(&self, r: RootResult) {
        let v = match r {
            RootResult::Unknown => 0,
            RootResult::Win => 1,
            RootResult::Loss => 2,
        };
        self.root_result.store(v, Ordering::Release);
        // Nothing left to learn: the move is known.
        self.stop.store(true, Ordering::Release);
    }

    /// Whether the workers should stop.
    pub fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Acquire)
            || self.nodes.load(Ordering::Relaxed) >= self.params.node_limit
    }

    /// Reserves one playout; `false` when the budget is spent.
    fn reserve_playout(&self) -> bool {
        if self.started.fetch_add(1, Ordering::AcqRel) >= self.playout_limit {
            self.started.fetch_sub(1, Ordering::AcqRel);
            return false;
        }
        true
    }

    /// Playouts completed or in flight.
    pub fn playouts(&self) -> u64 {
        self.started.load(Ordering::Acquire)
    }

    /// Runs one worker until the search stops or the playout budget is spent.
    pub fn worker(&self) {
        let mut w = Worker::new(self);
        w.run();
        self.running.fetch_sub(1, Ordering::AcqRel);
    }
}

/// One step of a path: the node and the edge taken from it.
type Step<'a> = (&'a Node, &'a Edge);

/// A leaf waiting for the network.
struct Pending<'a> {
    path: Vec<Step<'a>>,
    leaf: Option<&'a Node>,
    moves: MoveList,
    side: Color,
    key: u64,
}

enum Descent {
    /// Finished (terminal, proven or cached): backed up already.
    Done,
    /// Queued in the batch.
    Queued,
    /// Ran into a leaf another playout is evaluating: undone.
    Collision,
}

struct Worker<'s, 'a> {
    shared: &'s SearchShared<'a>,
    pos: Position,
    batch: Batch,
    pending: Vec<Pending<'a>>,
    queued: usize,
    path: Vec<Step<'a>>,
    moves: MoveList,
    /// Moves made on `pos` since the root.
    made: usize,
}

impl<'s, 'a> Worker<'s, 'a> {
    fn new(shared: &'s SearchShared<'a>) -> Worker<'s, 'a> {
        let size = shared.params.batch_size.max(1);
        Worker {
            shared,
            pos: shared.root_pos.clone(),
            batch: Batch::with_layout(size, shared.layout),
            pending: (0..size)
                .map(|_| Pending {
                    path: Vec::with_capacity(128),
                    leaf: None,
                    moves: MoveList::new(),
                    side: Color::Black,
                    key: 0,
                })
                .collect(),
            queued: 0,
            path: Vec::with_capacity(128),
            moves: MoveList::new(),
            made: 0,
        }
    }

    fn run(&mut self) {
        let size = self.batch.capacity();
        let mut out_of_budget = false;
        while !out_of_budget && !self.shared.should_stop() {
            self.batch.clear();
            self.queued = 0;
            let mut collisions = 0;
            while self.queued < size && !self.shared.should_stop() {
                if !self.shared.reserve_playout() {
                    out_of_budget = true;
                    break;
                }
                match self.descend() {
                    Descent::Done | Descent::Queued => {}
                    Descent::Collision => {
                        self.shared.started.fetch_sub(1, Ordering::AcqRel);
                        collisions += 1;
                        // The tree is narrow here: run what we have rather than spin.
                        if collisions > size || (self.queued > 0 && collisions > size / 2) {
                            break;
                        }
                    }
                }
            }
            if self.queued > 0 {
                self.evaluate_batch();
            } else if collisions > 0 {
                std::thread::yield_now();
            }
        }
    }

    /// Descends from the root to a leaf, applying a virtual loss (one visit, no win) on the way.
    fn descend(&mut self) -> Descent {
        let shared = self.shared;
        let params = shared.params;
        self.path.clear();
        let mut node: &'a Node = shared.root;
        let result = loop {
            let puct = if self.path.is_empty() {
                &params.puct_root
            } else {
                &params.puct
            };
            match select_child(node, puct) {
                Selection::Loss => {
                    // Every move loses: the node is lost for its side to move.
                    match self.path.last() {
                        Some((_, e)) => e.set_proven(Proven::Win),
                        None => shared.set_root_result(RootResult::Loss),
                    }
                    break self.finish(0.0);
                }
                Selection::Win(i) => {
                    let edge = &node.edges()[i];
                    match self.path.last() {
                        Some((_, e)) => e.set_proven(Proven::Loss),
                        None => shared.set_root_result(RootResult::Win),
                    }
                    self.visit(node, edge);
                    break self.finish(0.0);
                }
                Selection::Child(i) => {
                    let edge = &node.edges()[i];
                    self.visit(node, edge);
                    match edge.proven() {
                        Proven::Unknown => {}
                        Proven::Draw => {
                            let mover = self.pos.side_to_move();
                            break self.finish(1.0 - params.draw_value[mover.index()]);
                        }
                        Proven::Win => break self.finish(0.0),
                        Proven::Loss => break self.finish(1.0),
                    }
                    self.pos.do_move(edge.mv);
                    self.made += 1;
                    let (child, _) = edge.child_or_create();
                    match child.state() {
                        NodeState::Expanded => node = child,
                        NodeState::Terminal | NodeState::Pending => break self.collide(),
                        NodeState::New => {
                            if !child.claim() {
                                break self.collide();
                            }
                            shared.nodes.fetch_add(1, Ordering::Relaxed);
                            break self.new_leaf(child, edge);
                        }
                    }
                }
            }
        };
        shared
            .seldepth
            .fetch_max(self.path.len() as u32, Ordering::Relaxed);
        // Back to the root position.
        while self.made > 0 {
            let m = self.pos.last_move();
            self.pos.undo_move(m);
            self.made -= 1;
        }
        result
    }

    fn visit(&mut self, node: &'a Node, edge: &'a Edge) {
        node.visits.fetch_add(1, Ordering::Relaxed);
        edge.visits.fetch_add(1, Ordering::Relaxed);
        self.path.push((node, edge));
    }

    /// Backs up `value` (for the side to move after the path) along the path.
    fn finish(&mut self, value: f32) -> Descent {
        backup(&self.path, value);
        Descent::Done
    }

    /// Takes back the virtual losses of a path that led nowhere.
    fn collide(&mut self) -> Descent {
        for (node, edge) in &self.path {
            node.visits.fetch_sub(1, Ordering::Relaxed);
            edge.visits.fetch_sub(1, Ordering::Relaxed);
        }
        Descent::Collision
    }

    /// A node just claimed: a game end, a cached answer, or a place in the batch.
    fn new_leaf(&mut self, leaf: &'a Node, edge: &'a Edge) -> Descent {
        let params = self.shared.params;
        searched_moves(&self.pos, &mut self.moves);
        if let Some(t) = terminal(&mut self.pos, &self.moves, params) {
            edge.set_proven(t.proven);
            leaf.set_terminal();
            return self.finish(t.value);
        }
        let key = self.pos.key();
        if let Some(ev) = self.shared.cache.get(key) {
            expand(leaf, &ev.priors);
            return self.finish(ev.value);
        }
        let slot = self.queued;
        if self.batch.push(&self.pos).is_none() {
            // Cannot happen (the loop stops at capacity); give the node back to be safe.
            leaf.unclaim();
            return self.collide();
        }
        let p = &mut self.pending[slot];
        p.path.clear();
        p.path.extend_from_slice(&self.path);
        p.leaf = Some(leaf);
        p.moves.clear();
        for &m in self.moves.iter() {
            p.moves.push(m);
        }
        p.side = self.pos.side_to_move();
        p.key = key;
        self.queued += 1;
        Descent::Queued
    }

    fn evaluate_batch(&mut self) {
        let shared = self.shared;
        let result = {
            let mut backend = shared.backend.lock().unwrap_or_else(|p| p.into_inner());
            // Once stopped, a batch is worth nothing: give it back rather than make the answer
            // wait for it (and for the other threads' batches queued on the lock).
            if shared.stop.load(Ordering::Acquire) {
                drop(backend);
                self.abandon_batch();
                return;
            }
            let t = Instant::now();
            let result = backend.evaluate(&mut self.batch);
            shared.record_batch(t.elapsed());
            result
        };
        if let Err(e) = result {
            let mut err = shared.error.lock().unwrap_or_else(|p| p.into_inner());
            err.get_or_insert_with(|| e.to_string());
            shared.stop.store(true, Ordering::Release);
            drop(err);
            self.abandon_batch();
            return;
        }
        for (i, p) in self.pending[..self.queued].iter().enumerate() {
            let value = self.batch.value_of(i).clamp(0.0, 1.0);
            let pri = priors(
                p.side,
                &p.moves,
                self.batch.policy_of(i),
                shared.params.softmax_temperature,
            );
            let ev = Arc::new(Evaluation {
                key: p.key,
                value,
                priors: pri,
            });
            if let Some(leaf) = p.leaf {
                expand(leaf, &ev.priors);
            }
            shared.cache.insert(ev);
            backup(&p.path, value);
        }
    }
}

impl Worker<'_, '_> {
    /// Takes back the virtual losses and claims of the queued leaves (never evaluated).
    fn abandon_batch(&mut self) {
        for p in &self.pending[..self.queued] {
            for (node, edge) in &p.path {
                node.visits.fetch_sub(1, Ordering::Relaxed);
                edge.visits.fetch_sub(1, Ordering::Relaxed);
            }
            if let Some(leaf) = p.leaf {
                leaf.unclaim();
            }
        }
        self.shared
            .started
            .fetch_sub(self.queued as u64, Ordering::AcqRel);
        self.queued = 0;
    }
}

/// Gives `node` its edges.
pub fn expand(node: &Node, priors: &[(hayate_core::Move, f32)]) {
    let edges: Box<[Edge]> = priors.iter().map(|&(m, p)| Edge::new(m, p)).collect();
    node.set_edges(edges);
}

/// Adds the result of one playout along `path`: `value` is for the side to move at the leaf,
/// and each edge and node above gets it from its own mover's side.
pub fn backup(path: &[(&Node, &Edge)], value: f32) {
    let mut r = 1.0 - value as f64;
    for (node, edge) in path.iter().rev() {
        edge.win.add(r);
        node.win.add(r);
        r = 1.0 - r;
    }
}

/// Evaluates and expands the root now (before the threads start), through the cache.
///
/// # Errors
/// The backend's message when the network fails.
pub fn expand_root(
    root: &Node,
    pos: &Position,
    params: &SearchParams,
    backend: &SharedBackend,
    cache: &NnCache,
) -> Result<(), String> {
    if root.state() == NodeState::Expanded {
        return Ok(());
    }
    let mut moves = MoveList::new();
    searched_moves(pos, &mut moves);
    let ev = match cache.get(pos.key()) {
        Some(ev) => ev,
        None => {
            let mut batch = Batch::with_layout(1, layout(backend, params));
            batch.push(pos);
            backend
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .evaluate(&mut batch)
                .map_err(|e| e.to_string())?;
            let ev = Arc::new(Evaluation {
                key: pos.key(),
                value: batch.value_of(0).clamp(0.0, 1.0),
                priors: priors(
                    pos.side_to_move(),
                    &moves,
                    batch.policy_of(0),
                    params.softmax_temperature,
                ),
            });
            cache.insert(ev.clone());
            ev
        }
    };
    expand(root, &ev.priors);
    Ok(())
}
