//! The NN cache: network answers keyed by position hash, so transpositions and repeated searches
//! skip the network. A fixed table of slots, each behind its own small lock; a new answer
//! replaces whatever shared its slot.

use hayate_core::Move;
use std::sync::{Arc, Mutex};

/// A network answer over the legal moves of one position.
#[derive(Debug)]
pub struct Evaluation {
    /// The position key.
    pub key: u64,
    /// Win probability for the side to move.
    pub value: f32,
    /// The moves (in expansion order) with their softmaxed priors.
    pub priors: Box<[(Move, f32)]>,
}

/// A fixed-size, thread-safe table of [`Evaluation`]s.
#[derive(Debug)]
pub struct NnCache {
    slots: Box<[Mutex<Option<Arc<Evaluation>>>]>,
    mask: usize,
}

impl NnCache {
    /// A cache with at least `entries` slots (rounded up to a power of two, at least 1).
    pub fn new(entries: usize) -> NnCache {
        let size = entries.max(1).next_power_of_two();
        NnCache {
            slots: (0..size).map(|_| Mutex::new(None)).collect(),
            mask: size - 1,
        }
    }

    /// Slots in the table.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    fn slot(&self, key: u64) -> &Mutex<Option<Arc<Evaluation>>> {
        // The low bits of Zobrist keys are as good as any; mix anyway in case a caller's are not.
        &self.slots[(key ^ (key >> 29)) as usize & self.mask]
    }

    /// The answer stored for `key`, if any.
    pub fn get(&self, key: u64) -> Option<Arc<Evaluation>> {
        let guard = self.slot(key).lock().unwrap_or_else(|p| p.into_inner());
        guard.as_ref().filter(|e| e.key == key).cloned()
    }

    /// Stores an answer.
    pub fn insert(&self, eval: Arc<Evaluation>) {
        let mut guard = self
            .slot(eval.key)
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        *guard = Some(eval);
    }

    /// Forgets everything (a new model).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            *s.lock().unwrap_or_else(|p| p.into_inner()) = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_replaces_by_key() {
        let c = NnCache::new(3);
        assert_eq!(c.capacity(), 4);
        let e = |key, value| {
            Arc::new(Evaluation {
                key,
                value,
                priors: Box::new([]),
            })
        };
        c.insert(e(7, 0.25));
        assert_eq!(c.get(7).map(|e| e.value), Some(0.25));
        assert!(c.get(8).is_none());
        c.insert(e(7, 0.75));
        assert_eq!(c.get(7).map(|e| e.value), Some(0.75));
        c.clear();
        assert!(c.get(7).is_none());
    }
}
