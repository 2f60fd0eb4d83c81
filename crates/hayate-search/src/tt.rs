//! The shared transposition table: lock-free, 4-entry buckets of one cache line, aging by
//! generation. Each entry is two atomics: the data word and the key XOR the data, so a torn
//! read from a racing writer fails the key check instead of returning mixed data.

use hayate_core::Move16;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

/// Bound of a stored value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No value stored.
    None = 0,
    /// Value ≤ true score... fail-high: the true value is at least this.
    Lower = 1,
    /// Fail-low: the true value is at most this.
    Upper = 2,
    /// Exact value.
    Exact = 3,
}

impl Bound {
    /// Whether a stored `value` with this bound settles a node searched with (`alpha`, `beta`).
    #[inline(always)]
    pub fn cuts(self, value: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
            Bound::None => false,
        }
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// Best or refutation move (16-bit; validate before use).
    pub mv: Move16,
    /// Stored value (TT form: see `value::from_tt`).
    pub value: i32,
    /// Stored static evaluation.
    pub eval: i32,
    /// Depth of the search that stored it.
    pub depth: i32,
    /// Bound of `value`.
    pub bound: Bound,
}

#[repr(C)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; 4],
}

/// The table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
    /// The size asked for, in MB (the table may be smaller: see [`TranspositionTable::new`]).
    requested_mb: usize,
    /// A search has run since the table was made or cleared; an unused table is all zeros
    /// and [`TranspositionTable::clear`] has nothing to do.
    used: AtomicBool,
}

fn pack(mv: Move16, value: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    (mv.0 as u64)
        | ((value as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth.clamp(-1, 254) + 1) as u8 as u64) << 48)
        | ((bound as u64) << 56)
        | (((generation & 0x3f) as u64) << 58)
}

fn unpack(d: u64) -> TtHit {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    TtHit {
        mv: Move16(d as u16),
        value: (d >> 16) as u16 as i16 as i32,
        eval: (d >> 32) as u16 as i16 as i32,
        depth: ((d >> 48) & 0xff) as i32 - 1,
        bound,
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes, or the largest that fits when that much memory is not
    /// available (see [`TranspositionTable::size_mb`]); never aborts the process. Asking more
    /// than three quarters of the memory the system has available (Linux `MemAvailable`) gets
    /// that much, since touching pages beyond it would end in the out-of-memory killer rather
    /// than in a failed allocation; an allocation that still fails is retried at half the size.
    ///
    /// Nothing is written: the table comes zeroed from the allocator (a large one straight from
    /// the OS, whose pages are zero and are faulted in when a search first writes them), so a
    /// table of any size is ready at once (see [`try_alloc`]).
    pub fn new(mb: usize) -> TranspositionTable {
        let requested_mb = mb.max(1);
        let mut size = planned_mb(requested_mb, memory_budget_mb());
        loop {
            if let Some(buckets) = try_alloc_buckets(size) {
                return TranspositionTable {
                    buckets,
                    generation: AtomicU8::new(0),
                    requested_mb,
                    used: AtomicBool::new(false),
                };
            }
            if size == 1 {
                // Even 1 MB failed: a single bucket still makes a working (useless) table.
                return TranspositionTable {
                    buckets: try_alloc(1).unwrap_or_else(|| vec![empty_bucket()]),
                    generation: AtomicU8::new(0),
                    requested_mb,
                    used: AtomicBool::new(false),
                };
            }
            size /= 2;
        }
    }

    /// The size in MB asked for when the table was made.
    pub fn requested_mb(&self) -> usize {
        self.requested_mb
    }

    /// The size in MB actually allocated (less than [`TranspositionTable::requested_mb`] when
    /// memory was short).
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Forgets everything: nothing to do for a table no search has used; a used one is freed
    /// and allocated zeroed again (as in [`TranspositionTable::new`]), which costs no writes
    /// (writing zeros would touch every page of a table of many GB) and gives the touched
    /// pages back.
    pub fn clear(&mut self) {
        if self.used.swap(false, Ordering::Relaxed) {
            let n = self.buckets.len();
            // The old table goes first: two large tables need not live at once.
            self.buckets = Vec::new();
            self.buckets = match try_alloc(n) {
                Some(b) => b,
                None => TranspositionTable::new(self.requested_mb).buckets,
            };
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become replaceable first.
    pub fn new_search(&self) {
        self.used.store(true, Ordering::Relaxed);
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Hints the CPU to fetch the bucket of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint with no memory effect; `p` points into our buffer.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
    }

    /// Looks up `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).entries {
            let d = e.data.load(Ordering::Relaxed);
            if e.key_xor_data.load(Ordering::Relaxed) ^ d == key && d != 0 {
                return Some(unpack(d));
            }
        }
        None
    }

    /// Stores a result. Replaces the same key, else the shallowest/oldest entry of the bucket.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(&self, key: u64, mv: Move16, value: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut worst = i32::MAX;
        for e in &bucket.entries {
            let d = e.data.load(Ordering::Relaxed);
            if e.key_xor_data.load(Ordering::Relaxed) ^ d == key {
                let old = unpack(d);
                // Keep the old move when we have none, and a deeper exact result of this search.
                let mv = if mv.0 == 0 { old.mv } else { mv };
                if bound != Bound::Exact
                    && old.depth > depth + 3
                    && ((d >> 58) as u8 & 0x3f) == generation
                {
                    return;
                }
                let nd = pack(mv, value, eval, depth, bound, generation);
                e.data.store(nd, Ordering::Relaxed);
                e.key_xor_data.store(key ^ nd, Ordering::Relaxed);
                return;
            }
            let age = (generation.wrapping_sub((d >> 58) as u8) & 0x3f) as i32;
            let worth = unpack(d).depth - 8 * age;
            if worth < worst {
                worst = worth;
                victim = e;
            }
        }
        let nd = pack(mv, value, eval, depth, bound, generation);
        victim.data.store(nd, Ordering::Relaxed);
        victim.key_xor_data.store(key ^ nd, Ordering::Relaxed);
    }

    /// Permille of the first 1000 buckets' entries written in this search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for e in &b.entries {
                let d = e.data.load(Ordering::Relaxed);
                if d != 0 && ((d >> 58) as u8 & 0x3f) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * 4).max(1)) as u32
    }
}

fn empty_bucket() -> Bucket {
    Bucket {
        entries: std::array::from_fn(|_| Entry {
            key_xor_data: AtomicU64::new(0),
            data: AtomicU64::new(0),
        }),
    }
}

/// `n` zeroed buckets (at least one), or `None` when the allocator refuses. The allocator
/// zeroes them: a block this large comes from `mmap`, whose pages the OS hands out zeroed on
/// first touch, so nothing is written here, whatever the size. All-zero bytes are an empty
/// bucket (atomics holding 0).
fn try_alloc(n: usize) -> Option<Vec<Bucket>> {
    let n = n.max(1);
    let layout = std::alloc::Layout::array::<Bucket>(n).ok()?;
    // SAFETY: the layout's size is not zero (n ≥ 1 buckets of 64 bytes).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Bucket>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with `Layout::array::<Bucket>(n)`, the
    // layout a `Vec<Bucket>` of capacity `n` frees with, and its `n` buckets are initialised:
    // all-zero bytes are a valid `Bucket` (four pairs of `AtomicU64`).
    let buckets = unsafe { Vec::from_raw_parts(ptr, n, n) };
    // Before the first touch, so that the pages are faulted in as huge pages.
    hayate_core::advise_huge_pages(&buckets[..]);
    Some(buckets)
}

fn try_alloc_buckets(mb: usize) -> Option<Vec<Bucket>> {
    let n = (mb.checked_mul(1024 * 1024)? / std::mem::size_of::<Bucket>()).max(1);
    try_alloc(n)
}

/// The size to try first: the request, capped by the memory budget (at least 1 MB).
fn planned_mb(requested_mb: usize, budget_mb: Option<usize>) -> usize {
    requested_mb.min(budget_mb.unwrap_or(usize::MAX)).max(1)
}

/// Three quarters of `MemAvailable` in MB (Linux); `None` where it cannot be read.
fn memory_budget_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_available_kb(&info).map(|kb| (kb / 1024) as usize / 4 * 3)
}

fn mem_available_kb(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let mut tt = TranspositionTable::new(1);
        tt.store(
            0xdead_beef_1234_5678,
            Move16(0x1234),
            -31_000,
            77,
            12,
            Bound::Lower,
        );
        let h = tt.probe(0xdead_beef_1234_5678).expect("stored");
        assert_eq!(
            (h.mv.0, h.value, h.eval, h.depth, h.bound),
            (0x1234, -31_000, 77, 12, Bound::Lower)
        );
        assert!(tt.probe(0x1111).is_none());
        // No search has started: the entry stays (nothing to clear in a table no search used).
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234_5678).is_some());
        tt.new_search();
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234_5678).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn a_table_larger_than_memory_is_planned_smaller_and_allocated_fallibly() {
        // 60000 MB asked on a machine with 24 GB: the plan is the budget, not the request.
        assert_eq!(planned_mb(60_000, Some(18_000)), 18_000);
        assert_eq!(planned_mb(256, Some(18_000)), 256);
        assert_eq!(planned_mb(256, None), 256);
        assert_eq!(planned_mb(256, Some(0)), 1);
        // Sizes no allocator can give come back as `None`, not as an abort.
        assert!(try_alloc_buckets(usize::MAX / 2).is_none());
        assert!(try_alloc(usize::MAX / 64).is_none());
    }

    #[test]
    fn mem_available_is_read_from_meminfo() {
        let info = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20480000 kB\n";
        assert_eq!(mem_available_kb(info), Some(20_480_000));
        assert_eq!(mem_available_kb("MemTotal: 5 kB\n"), None);
        let tt = TranspositionTable::new(16);
        assert_eq!((tt.size_mb(), tt.requested_mb()), (16, 16));
    }

    #[test]
    fn a_large_table_is_ready_at_once_and_comes_zeroed() {
        // 4 GB asked (or what the machine's budget allows): no page is written, so this
        // costs the time of one `mmap`, not of 4 GB of writes (issue 66). Every bucket the
        // probe reads is empty.
        let mut tt = TranspositionTable::new(4096);
        let size = tt.size_mb();
        assert!(size >= 1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..1000u64 {
            assert!(tt.probe(k.wrapping_mul(0x9e37_79b9_7f4a_7c15)).is_none());
        }
        tt.new_search();
        tt.store(42, Move16(7), 5, 5, 3, Bound::Exact);
        assert!(tt.probe(42).is_some());
        tt.clear();
        assert!(tt.probe(42).is_none());
        assert_eq!(tt.size_mb(), size);
    }
}
