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
    buckets: Buckets,
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
    /// the OS), so a table of any size is ready at once, and a background thread faults its pages
    /// in ahead of the search (see [`Buckets`]).
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
                    // As `vec!` would: with not even 128 bytes to be had, nothing can go on.
                    buckets: try_alloc(1).unwrap_or_else(|| {
                        std::alloc::handle_alloc_error(std::alloc::Layout::new::<[Bucket; 2]>())
                    }),
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

    /// Forgets everything: nothing to do for a table no search has used; a used one is
    /// zeroed in place, by as many threads as the machine has cores (its pages stay in
    /// memory, so the next game does not fault them in again).
    pub fn clear(&mut self) {
        if self.used.swap(false, Ordering::Relaxed) {
            self.buckets.zero();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Helps the background thread fault in the table's pages (see [`Buckets`]) until all are
    /// in or `limit` has passed; true when the work is over.
    pub fn settle(&self, limit: std::time::Duration) -> bool {
        self.buckets.help(limit)
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

/// The table's buckets, zeroed and cache-line aligned, in a block that `calloc` gives: a large
/// one comes from `mmap`, whose pages the OS hands out zeroed, so nothing is written however
/// large the table and it is ready at once. (`alloc_zeroed` with the bucket's own 64-byte
/// alignment would not do: above 16 bytes std allocates aligned and writes the zeros itself,
/// every page of a table of many GB.) The block is one bucket larger, and the buckets start at
/// its first 64-byte boundary.
///
/// Left at that, every page would be faulted in by the search's first write to it, and a
/// search in a fresh table of many GB would spend most of its time in page faults. So a
/// background thread faults the pages in ahead of it ([`hayate_core::prefault`], which backs a
/// page without writing it, so it never disturbs what a search has already stored). It runs on
/// a core the search does not use when there is one, and stops when the table is dropped;
/// `isready` works beside it for up to a second ([`TranspositionTable::settle`]).
struct Buckets {
    base: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
    offset: usize,
    len: usize,
    filler: Option<Filler>,
}

/// The thread faulting in a table's pages, and the work it shares with [`Buckets::help`].
struct Filler {
    work: std::sync::Arc<Prefault>,
    thread: std::thread::JoinHandle<()>,
}

/// Faulting in a table, 16 MB at a time: the chunks are taken in turn by whoever works on it.
struct Prefault {
    addr: usize,
    len: usize,
    next: std::sync::atomic::AtomicUsize,
    stop: AtomicBool,
}

impl Prefault {
    const CHUNK: usize = (16 << 20) / std::mem::size_of::<Bucket>();

    /// Faults in the next chunk; false when none is left (or the kernel cannot, or `stop`).
    fn step(&self) -> bool {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        let lo = i.saturating_mul(Self::CHUNK);
        if lo >= self.len || self.stop.load(Ordering::Relaxed) {
            return false;
        }
        let n = Self::CHUNK.min(self.len - lo);
        // SAFETY: the chunk lies inside the block, which outlives every worker: the filler
        // thread is joined by `Buckets::drop`, and `help` borrows the `Buckets`.
        let chunk = unsafe { std::slice::from_raw_parts((self.addr as *const Bucket).add(lo), n) };
        if hayate_core::prefault(chunk) {
            true
        } else {
            self.stop.store(true, Ordering::Relaxed);
            false
        }
    }
}

// SAFETY: `Buckets` owns its block as a `Vec` would, and a bucket holds only atomics.
unsafe impl Send for Buckets {}
// SAFETY: shared access gives `&[Bucket]` only, and `Bucket` (atomics) is `Sync`.
unsafe impl Sync for Buckets {}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `base + offset` is 64-byte aligned and `len` buckets fit before the block's
        // end (see `try_alloc`); all-zero bytes, and whatever the atomics were set to since,
        // are valid buckets.
        unsafe { std::slice::from_raw_parts(self.base.as_ptr().add(self.offset).cast(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // The filler reads the block's address: it must be finished before the block goes.
        if let Some(filler) = self.filler.take() {
            filler.work.stop.store(true, Ordering::Relaxed);
            let _ = filler.thread.join();
        }
        // SAFETY: `base` was allocated by the global allocator with `layout`.
        unsafe { std::alloc::dealloc(self.base.as_ptr(), self.layout) }
    }
}

impl Buckets {
    /// Writes zeros over every bucket, split among the machine's cores when it is large.
    fn zero(&mut self) {
        const PER_THREAD_MIN: usize = 64 << 20;
        let bytes = self.len * std::mem::size_of::<Bucket>();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = (bytes / PER_THREAD_MIN).clamp(1, cores);
        let share = bytes.div_ceil(threads);
        let start = self.base.as_ptr() as usize + self.offset;
        // SAFETY: `&mut self` excludes every other use of the buckets but the filler's, which
        // only asks the kernel to back pages (`prefault`) and never reads or writes them; the
        // range `[offset, offset + bytes)` lies inside the block (see `try_alloc`), the calls
        // write disjoint parts of it, and all-zero bytes are empty buckets.
        let zero = move |lo: usize, len: usize| unsafe {
            std::ptr::write_bytes((start + lo) as *mut u8, 0, len)
        };
        std::thread::scope(|scope| {
            for lo in (0..bytes).step_by(share) {
                let len = share.min(bytes - lo);
                let spawned = threads > 1
                    && std::thread::Builder::new()
                        .spawn_scoped(scope, move || zero(lo, len))
                        .is_ok();
                if !spawned {
                    zero(lo, len);
                }
            }
        });
    }

    /// Starts the thread that faults the pages in, until it is done, the kernel cannot do it, or
    /// it is told to stop. None when a thread cannot be started (the pages are then faulted in
    /// by the search).
    fn start_filler(&self) -> Option<Filler> {
        let work = std::sync::Arc::new(Prefault {
            addr: self.as_ptr() as usize,
            len: self.len,
            next: std::sync::atomic::AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let shared = work.clone();
        let thread = std::thread::Builder::new()
            .name("tt-prefault".into())
            .spawn(move || while shared.step() {})
            .ok()?;
        Some(Filler { work, thread })
    }

    /// Works beside the filler thread until its work is over (every page in, or the kernel
    /// cannot prefault) or `limit` has passed; true when it is over.
    fn help(&self, limit: std::time::Duration) -> bool {
        let Some(filler) = &self.filler else {
            return true;
        };
        let start = std::time::Instant::now();
        while start.elapsed() < limit && filler.work.step() {}
        // The filler may still be on its last chunk.
        while !filler.thread.is_finished() && start.elapsed() < limit {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        filler.thread.is_finished()
    }
}

/// `n` zeroed buckets (at least one), or `None` when the allocator refuses (see [`Buckets`]).
/// All-zero bytes are an empty bucket (atomics holding 0).
fn try_alloc(n: usize) -> Option<Buckets> {
    const LINE: usize = std::mem::align_of::<Bucket>();
    let len = n.max(1);
    let size = len
        .checked_add(1)?
        .checked_mul(std::mem::size_of::<Bucket>())?;
    // 16 bytes: the alignment std leaves to `calloc` on the platforms it knows.
    let layout = std::alloc::Layout::from_size_align(size, 16).ok()?;
    // SAFETY: the layout's size is not zero (at least two buckets).
    let base = std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
    // At most 48: the block is 16-byte aligned.
    let offset = (LINE - base.as_ptr() as usize % LINE) % LINE;
    let mut buckets = Buckets {
        base,
        layout,
        offset,
        len,
        filler: None,
    };
    // Before the first touch, so that the pages are faulted in as huge pages.
    hayate_core::advise_huge_pages(&buckets[..]);
    buckets.filler = buckets.start_filler();
    Some(buckets)
}

fn try_alloc_buckets(mb: usize) -> Option<Buckets> {
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
        // The background thread brings the pages in; a table this size is whole long before
        // a minute has passed.
        assert!(tt.settle(std::time::Duration::from_secs(60)));
        tt.clear();
        assert!(tt.probe(42).is_none());
        assert_eq!(tt.size_mb(), size);
        // Zeroed in place, every part of it (the clear splits a large table among threads).
        for k in 0..1000u64 {
            let key = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            tt.store(key, Move16(7), 5, 5, 3, Bound::Exact);
        }
        tt.new_search();
        tt.clear();
        assert!((0..1000u64).all(|k| tt.probe(k.wrapping_mul(0x9e37_79b9_7f4a_7c15)).is_none()));
    }
}
