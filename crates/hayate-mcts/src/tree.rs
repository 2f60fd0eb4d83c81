//! The tree kept between searches: its root position's history, so that the next search can
//! start from the subtree of the moves played since (tree reuse).

use crate::node::Node;
use hayate_core::{Move, Position};

/// A search tree and the game history that leads to its root.
#[derive(Debug)]
pub struct Tree {
    root: Box<Node>,
    /// Full keys of every position from the game start to the root.
    keys: Vec<u64>,
}

impl Tree {
    /// A fresh tree for `pos`.
    pub fn new(pos: &Position) -> Tree {
        Tree {
            root: Box::new(Node::new()),
            keys: history_keys(pos),
        }
    }

    /// The root.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// The root, to change (root noise between searches).
    pub fn root_mut(&mut self) -> &mut Node {
        &mut self.root
    }

    /// Moves the root to `pos` when `pos` continues the game of this tree through moves the
    /// tree has expanded; otherwise starts a fresh tree. Returns whether the old tree was
    /// reused. The discarded part is freed on another thread.
    pub fn advance(&mut self, pos: &Position, reuse: bool) -> bool {
        let keys = history_keys(pos);
        let moves = if reuse {
            continuation(&self.keys, &keys, pos)
        } else {
            None
        };
        let old = std::mem::replace(&mut self.root, Box::new(Node::new()));
        self.keys = keys;
        let mut reused = false;
        let mut kept = None;
        if let Some(moves) = moves {
            let mut cur = old;
            let mut ok = true;
            let mut garbage = Vec::new();
            for m in moves {
                let next = cur
                    .edges_mut()
                    .iter_mut()
                    .find(|e| e.mv == m)
                    .and_then(|e| e.take_child());
                garbage.push(cur);
                match next {
                    Some(n) => cur = n,
                    None => {
                        ok = false;
                        cur = Box::new(Node::new());
                        break;
                    }
                }
            }
            if ok {
                reused = true;
                kept = Some(cur);
            }
            free_later(garbage);
        } else {
            free_later(vec![old]);
        }
        if let Some(root) = kept {
            // A leaf claimed or ended in the old tree is re-examined as a root.
            if root.state() == crate::node::NodeState::Expanded {
                self.root = root;
            } else {
                free_later(vec![root]);
                reused = false;
            }
        }
        reused
    }
}

/// Dropping a big tree takes time: do it off the search's critical path.
// The boxes come straight from the tree; unboxing them would only copy the nodes.
#[allow(clippy::vec_box)]
fn free_later(nodes: Vec<Box<Node>>) {
    if nodes.iter().all(|n| n.edges().is_empty()) {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("mcts-free".into())
        .spawn(move || drop(nodes));
    // Without a thread, the nodes were dropped with the error value: nothing else to do.
    let _ = spawned;
}

fn history_keys(pos: &Position) -> Vec<u64> {
    pos.states().iter().map(|s| s.key()).collect()
}

/// The moves from the old root to `pos`, when `pos`'s history extends the old one.
fn continuation(old: &[u64], new: &[u64], pos: &Position) -> Option<Vec<Move>> {
    if new.len() < old.len() || new[..old.len()] != *old {
        return None;
    }
    let states = pos.states();
    Some(states[old.len()..].iter().map(|s| s.last_move).collect())
}
