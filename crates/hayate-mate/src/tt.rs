//! The df-pn transposition table: clusters of entries indexed by the board key alone, so that
//! every hand seen on one board sits together and hand superiority is a scan of one cluster.
//! Final entries hold the proof hand (proven) or the disproof hand (disproven).

use hayate_core::{Hand, Move16};

/// Proof and disproof numbers at or above this are infinite.
pub(crate) const INF: u32 = 1 << 30;

/// One stored node. 32 bytes; `amount == 0` marks an empty slot. Every field is an integer (or
/// a `Hand`, a transparent `u32`), so all-zero bytes are a valid, empty entry.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    hand: Hand,
    pn: u32,
    dn: u32,
    /// Work spent below this node (moves made), for replacement and garbage collection.
    amount: u32,
    /// Plies of the proof found (proven entries).
    len: u16,
    /// The move that proved (or last searched) this node (kept for a future move ordering).
    #[allow(dead_code)]
    best: u16,
}

/// Entries per cluster: 8 × 32 bytes, four cache lines.
const CLUSTER: usize = 8;

/// What the table knows about a node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    pub pn: u32,
    pub dn: u32,
    /// For a final result, the proof or disproof hand; otherwise the hand asked about.
    pub hand: Hand,
    pub len: u16,
}

/// A transposition table bounded by a memory size.
pub(crate) struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    used: usize,
}

impl Tt {
    /// A table of about `mb` MiB (a power of two number of clusters, at least one).
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let clusters = (bytes / (CLUSTER * std::mem::size_of::<Entry>())).max(1);
        let clusters = if clusters.is_power_of_two() {
            clusters
        } else {
            clusters.next_power_of_two() / 2
        };
        Tt {
            entries: zeroed_entries(clusters * CLUSTER),
            mask: clusters - 1,
            used: 0,
        }
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> usize {
        // The low bits select the cluster; the high bits mix in for small tables.
        (((key >> 32) ^ key) as usize & self.mask) * CLUSTER
    }

    /// Looks up the node (`key`, attacker `hand`): a proof for any hand at most `hand`, a
    /// disproof for any hand at least `hand`, or the entry of exactly this hand.
    pub fn probe(&self, key: u64, hand: Hand) -> Option<Probe> {
        let base = self.cluster(key);
        let mut exact = None;
        for e in &self.entries[base..base + CLUSTER] {
            if e.amount == 0 || e.key != key {
                continue;
            }
            let final_hit = (e.pn == 0 && hand.is_superior_or_equal(e.hand))
                || (e.dn == 0 && e.hand.is_superior_or_equal(hand));
            if final_hit {
                return Some(Probe {
                    pn: e.pn,
                    dn: e.dn,
                    hand: e.hand,
                    len: e.len,
                });
            }
            if e.hand == hand && e.pn != 0 && e.dn != 0 {
                exact = Some(Probe {
                    pn: e.pn,
                    dn: e.dn,
                    hand,
                    len: e.len,
                });
            }
        }
        exact
    }

    /// Stores a node. For a final result `hand` is the proof or disproof hand, and entries of
    /// the same board that it settles are dropped.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        hand: Hand,
        pn: u32,
        dn: u32,
        len: u16,
        best: Move16,
        amount: u64,
    ) {
        let base = self.cluster(key);
        let amount = amount.clamp(1, u32::MAX as u64) as u32;
        let is_final = pn == 0 || dn == 0;
        let mut slot = None;
        for i in base..base + CLUSTER {
            let e = self.entries[i];
            if e.amount == 0 || e.key != key {
                continue;
            }
            let e_final = e.pn == 0 || e.dn == 0;
            if e.hand == hand && e_final == is_final && (!is_final || (e.pn == 0) == (pn == 0)) {
                slot = Some(i);
                break;
            }
            let settled = !e_final
                && ((pn == 0 && e.hand.is_superior_or_equal(hand))
                    || (dn == 0 && hand.is_superior_or_equal(e.hand)));
            if settled {
                self.entries[i].amount = 0;
                self.used = self.used.saturating_sub(1);
            }
        }
        let i = match slot {
            Some(i) => i,
            None => match (base..base + CLUSTER).find(|&i| self.entries[i].amount == 0) {
                Some(i) => {
                    self.used += 1;
                    i
                }
                None => {
                    // Full: replace the entry with the least work behind it, finals counting more.
                    let mut victim = base;
                    let mut least = u64::MAX;
                    for i in base..base + CLUSTER {
                        let w = weight(&self.entries[i]);
                        if w < least {
                            least = w;
                            victim = i;
                        }
                    }
                    victim
                }
            },
        };
        let old = self.entries[i];
        let amount = if slot.is_some() {
            amount.max(old.amount)
        } else {
            amount
        };
        self.entries[i] = Entry {
            key,
            hand,
            pn,
            dn,
            amount,
            len,
            best: best.0,
        };
    }

    /// Used slots per thousand.
    pub fn hashfull(&self) -> u32 {
        (self.used as u64 * 1000 / self.entries.len() as u64) as u32
    }

    /// Frees about half of the used entries, those with the least work behind them.
    pub fn collect_garbage(&mut self) {
        // Sample the weights to find their median without sorting the whole table.
        let step = (self.entries.len() / 20_000).max(1);
        let mut sample: Vec<u64> = self
            .entries
            .iter()
            .step_by(step)
            .filter(|e| e.amount != 0)
            .map(weight)
            .collect();
        if sample.is_empty() {
            return;
        }
        let mid = sample.len() / 2;
        let (_, &mut median, _) = sample.select_nth_unstable(mid);
        for e in self.entries.iter_mut() {
            if e.amount != 0 && weight(e) <= median {
                e.amount = 0;
                self.used = self.used.saturating_sub(1);
            }
        }
    }
}

/// `n` empty entries from zeroed memory: the system hands out zero pages lazily, so a large
/// table costs nothing until it is used (filling 1 GiB entry by entry takes about a second).
fn zeroed_entries(n: usize) -> Vec<Entry> {
    let Ok(layout) = std::alloc::Layout::array::<Entry>(n) else {
        return vec![Entry::default(); n.min(1 << 20)];
    };
    if layout.size() == 0 {
        return Vec::new();
    }
    // SAFETY: the layout has a non-zero size (checked above).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut Entry;
    if ptr.is_null() {
        std::alloc::handle_alloc_error(layout);
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `[Entry; n]`, so
    // length and capacity `n` match it; all-zero bytes are a valid `Entry` (integers and a
    // transparent `u32`), so all `n` elements are initialised.
    unsafe { Vec::from_raw_parts(ptr, n, n) }
}

/// How much an entry is worth keeping: its work, with a bonus for final results.
#[inline(always)]
fn weight(e: &Entry) -> u64 {
    let bonus = if e.pn == 0 || e.dn == 0 { 1000 } else { 0 };
    e.amount as u64 + bonus
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate_core::PieceType;

    fn hand(golds: u32) -> Hand {
        Hand::EMPTY
            .with_count(PieceType::GOLD, golds)
            .unwrap_or(Hand::EMPTY)
    }

    #[test]
    fn proof_serves_superior_hands_and_disproof_inferior_ones() {
        let mut tt = Tt::new(1);
        tt.store(42, hand(1), 0, INF, 3, Move16(0), 10);
        assert_eq!(tt.probe(42, hand(2)).map(|p| p.pn), Some(0));
        assert!(tt.probe(42, hand(0)).is_none());
        tt.store(7, hand(2), INF, 0, 0, Move16(0), 10);
        assert_eq!(tt.probe(7, hand(1)).map(|p| p.dn), Some(0));
        assert!(tt.probe(7, hand(3)).is_none());
    }

    #[test]
    fn garbage_collection_frees_entries() {
        let mut tt = Tt::new(1);
        for k in 0..20_000u64 {
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                hand(0),
                1,
                1,
                0,
                Move16(0),
                k % 100 + 1,
            );
        }
        let before = tt.hashfull();
        tt.collect_garbage();
        assert!(tt.hashfull() < before, "{} -> {}", before, tt.hashfull());
    }
}
