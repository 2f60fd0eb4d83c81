//! The df-pn transposition table: clusters of entries indexed by the board key alone, so that
//! every hand seen on one board sits together and hand superiority is a scan of one cluster.
//! Final entries hold the proof hand (proven) or the disproof hand (disproven), with lengths:
//! a proof says "mated within `len` plies", a disproof "no mate within `dlen` plies"
//! ([`NO_MATE`]: none at all), so that searches bounded in length (the shortest-mate
//! post-search) share the table with the unbounded one.

use hayate_core::{Hand, Move16};

/// Proof and disproof numbers at or above this are infinite.
pub(crate) const INF: u32 = 1 << 30;

/// A disproof length meaning "no mate at all"; also the length bound of an unbounded search.
pub(crate) const NO_MATE: u16 = u16::MAX;

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
    /// Plies within which there is no mate (disproven entries; [`NO_MATE`]: none at all).
    dlen: u16,
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
    pub dlen: u16,
}

/// A final or open result to store (see [`Tt::store`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Record {
    pub hand: Hand,
    pub pn: u32,
    pub dn: u32,
    pub len: u16,
    pub dlen: u16,
}

/// A transposition table bounded by a memory size.
pub(crate) struct Tt {
    entries: Vec<Entry>,
    clusters: usize,
    used: usize,
}

/// Memory the system can still give without swapping (`MemAvailable`), if it says.
fn available_bytes() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

impl Tt {
    /// A table of at most `mb` MiB (at least one cluster): less when
    /// the system has not that much memory available (at most 3/4 of `MemAvailable`) or the
    /// allocation fails, never an abort. [`Tt::mb`] tells what it got.
    pub fn new(mb: usize) -> Tt {
        let cluster_bytes = CLUSTER * std::mem::size_of::<Entry>();
        let mut bytes = mb.max(1).saturating_mul(1 << 20);
        if let Some(avail) = available_bytes() {
            bytes = bytes.min((avail / 4 * 3).max(1 << 20));
        }
        let mut clusters = (bytes / cluster_bytes).max(1);
        loop {
            if let Some(entries) = zeroed_entries(clusters * CLUSTER) {
                return Tt {
                    entries,
                    clusters,
                    used: 0,
                };
            }
            if clusters == 1 {
                // Not even 256 bytes: the next allocation anywhere would fail as well.
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<[Entry; CLUSTER]>());
            }
            clusters /= 2;
        }
    }

    /// The size of the table in MiB (0 when under one MiB).
    pub fn mb(&self) -> usize {
        (self.entries.len() * std::mem::size_of::<Entry>()) >> 20
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> usize {
        // The key's high bits scaled to the number of clusters (any number, not only powers
        // of two: all of `USI_Hash` is used).
        ((key as u128 * self.clusters as u128) >> 64) as usize * CLUSTER
    }

    /// Looks up the node (`key`, attacker `hand`) for a search that may use `need` more plies:
    /// a proof within `need` for any hand at most `hand`, a disproof within at least `need` for
    /// any hand at least `hand`, or the open entry of exactly this hand.
    pub fn probe(&self, key: u64, hand: Hand, need: u16) -> Option<Probe> {
        let base = self.cluster(key);
        let mut exact = None;
        for e in &self.entries[base..base + CLUSTER] {
            if e.amount == 0 || e.key != key {
                continue;
            }
            let final_hit = (e.pn == 0 && e.len <= need && hand.is_superior_or_equal(e.hand))
                || (e.dn == 0 && e.dlen >= need && e.hand.is_superior_or_equal(hand));
            if final_hit {
                return Some(Probe {
                    pn: e.pn,
                    dn: e.dn,
                    hand: e.hand,
                    len: e.len,
                    dlen: e.dlen,
                });
            }
            if e.hand == hand && e.pn != 0 && e.dn != 0 {
                exact = Some(Probe {
                    pn: e.pn,
                    dn: e.dn,
                    hand,
                    len: e.len,
                    dlen: e.dlen,
                });
            }
        }
        exact
    }

    /// Stores a node. For a final result `r.hand` is the proof or disproof hand, and open
    /// entries of the same board that it settles for good are dropped. A result of the same
    /// hand and kind keeps the better length of the two.
    pub fn store(&mut self, key: u64, r: Record, best: Move16, amount: u64) {
        let base = self.cluster(key);
        let amount = amount.clamp(1, u32::MAX as u64) as u32;
        let (pn, dn, hand) = (r.pn, r.dn, r.hand);
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
                    || (dn == 0 && r.dlen == NO_MATE && hand.is_superior_or_equal(e.hand)));
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
        let (mut len, mut dlen, mut amount) = (r.len, r.dlen, amount);
        if slot.is_some() {
            amount = amount.max(old.amount);
            if pn == 0 {
                len = len.min(old.len);
            } else if dn == 0 {
                dlen = dlen.max(old.dlen);
            }
        }
        self.entries[i] = Entry {
            key,
            hand,
            pn,
            dn,
            amount,
            len,
            dlen,
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
/// `None` when the allocation fails.
fn zeroed_entries(n: usize) -> Option<Vec<Entry>> {
    let layout = std::alloc::Layout::array::<Entry>(n).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size (checked above).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut Entry;
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of `[Entry; n]`, so
    // length and capacity `n` match it; all-zero bytes are a valid `Entry` (integers and a
    // transparent `u32`), so all `n` elements are initialised.
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
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

    fn proof(golds: u32, len: u16) -> Record {
        Record {
            hand: hand(golds),
            pn: 0,
            dn: INF,
            len,
            dlen: 0,
        }
    }

    fn disproof(golds: u32, dlen: u16) -> Record {
        Record {
            hand: hand(golds),
            pn: INF,
            dn: 0,
            len: 0,
            dlen,
        }
    }

    #[test]
    fn proof_serves_superior_hands_and_disproof_inferior_ones() {
        let mut tt = Tt::new(1);
        tt.store(42, proof(1, 3), Move16(0), 10);
        assert_eq!(tt.probe(42, hand(2), NO_MATE).map(|p| p.pn), Some(0));
        assert!(tt.probe(42, hand(0), NO_MATE).is_none());
        tt.store(7, disproof(2, NO_MATE), Move16(0), 10);
        assert_eq!(tt.probe(7, hand(1), NO_MATE).map(|p| p.dn), Some(0));
        assert!(tt.probe(7, hand(3), NO_MATE).is_none());
    }

    #[test]
    fn lengths_bound_what_a_final_entry_answers() {
        let mut tt = Tt::new(1);
        // Mated within 9: no answer for a search allowed 7 plies, a proof for 9 or more.
        tt.store(42, proof(1, 9), Move16(0), 10);
        assert!(tt.probe(42, hand(1), 7).is_none());
        assert_eq!(tt.probe(42, hand(1), 9).map(|p| p.len), Some(9));
        // No mate within 7 beside it: answers searches allowed at most 7 plies.
        tt.store(42, disproof(1, 7), Move16(0), 10);
        assert_eq!(
            tt.probe(42, hand(1), 7).map(|p| (p.dn, p.dlen)),
            Some((0, 7))
        );
        assert_eq!(tt.probe(42, hand(1), 5).map(|p| p.dn), Some(0));
        assert_eq!(tt.probe(42, hand(1), NO_MATE).map(|p| p.pn), Some(0));
        // A shorter proof of the same hand replaces the longer, never the other way round.
        tt.store(42, proof(1, 5), Move16(0), 10);
        tt.store(42, proof(1, 11), Move16(0), 10);
        assert_eq!(tt.probe(42, hand(1), NO_MATE).map(|p| p.len), Some(5));
    }

    #[test]
    fn a_table_larger_than_memory_is_clamped_not_an_abort() {
        let tt = Tt::new(1 << 40);
        let avail = available_bytes().unwrap_or(usize::MAX);
        assert!(tt.mb() >= 1);
        assert!(tt.mb() << 20 <= avail, "{} MiB", tt.mb());
        assert_eq!(Tt::new(3).mb(), 3);
    }

    #[test]
    fn garbage_collection_frees_entries() {
        let mut tt = Tt::new(1);
        for k in 0..20_000u64 {
            let r = Record {
                pn: 1,
                dn: 1,
                ..proof(0, 0)
            };
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                r,
                Move16(0),
                k % 100 + 1,
            );
        }
        let before = tt.hashfull();
        tt.collect_garbage();
        assert!(tt.hashfull() < before, "{} -> {}", before, tt.hashfull());
    }
}
