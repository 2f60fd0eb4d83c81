//! A hint that a large table should sit on 2 MiB pages (Linux transparent huge pages).
//!
//! The KKPEE9 table and the transposition table are read at scattered addresses: on
//! 4 KiB pages most of those reads also miss the TLB. `madvise(MADV_HUGEPAGE)` asks the kernel to
//! back the range with huge pages as it is first touched, so give the hint before the memory is
//! written. It matters where the THP setting is `madvise` (common on servers); with `always` it
//! changes nothing, with `never` it is ignored, and off Linux it is not made.

/// Asks for huge pages under the 2 MiB-aligned part of `mem`. Best effort: a refusal is ignored
/// (the memory works the same on small pages).
pub fn advise_huge_pages<T>(mem: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = mem.as_ptr() as usize;
        let end = start + std::mem::size_of_val(mem);
        let (first, last) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if last > first {
            // SAFETY: the range lies inside `mem`'s allocation, and MADV_HUGEPAGE changes how
            // the pages are backed, never their contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = mem;
}

/// Faults in the whole pages inside `mem` as a write would, without writing: a page not yet
/// backed gets its (zeroed) memory now, one already backed is left as it is, so it is safe while
/// other threads read and write `mem`. Returns false where the kernel cannot do it (Linux before
/// 5.14, other systems): the pages are then faulted in by the first real write, as always.
pub fn prefault<T>(mem: &[T]) -> bool {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        // Linux's MADV_POPULATE_WRITE (5.14); the libc crate does not name it everywhere.
        const MADV_POPULATE_WRITE: libc::c_int = 23;
        let start = mem.as_ptr() as usize;
        let end = start + std::mem::size_of_val(mem);
        let (first, last) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
        if last <= first {
            return true;
        }
        // SAFETY: the range lies inside `mem`'s allocation, and MADV_POPULATE_WRITE only backs
        // pages that are not yet backed (with zeros, as a first write would find them); it never
        // changes what a page holds.
        unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                MADV_POPULATE_WRITE,
            ) == 0
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = mem;
        false
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::{advise_huge_pages, prefault};

    #[test]
    fn prefault_keeps_what_the_pages_hold() {
        let mut table = vec![0u64; (8 << 20) / 8];
        table[12345] = 7;
        let last = table.len() - 1;
        table[last] = 9;
        // Kernels before 5.14 refuse; then there is nothing to check.
        if prefault(&table) {
            assert_eq!(table[12345], 7);
            assert_eq!(table[last], 9);
            assert_eq!(table.iter().filter(|&&x| x != 0).count(), 2);
        }
        assert!(prefault::<u8>(&[]));
    }

    /// The `AnonHugePages` kB of the mapping of `/proc/self/smaps` that holds `addr`.
    fn huge_kb_at(addr: usize) -> Option<u64> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().unwrap_or("");
            if let Some((a, b)) = range.split_once('-')
                && let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
            {
                inside = (a..b).contains(&addr);
            } else if inside && let Some(kb) = line.strip_prefix("AnonHugePages:") {
                return kb.trim().trim_end_matches("kB").trim().parse().ok();
            }
        }
        None
    }

    #[test]
    fn a_large_zeroed_table_gets_huge_pages_where_the_kernel_offers_them() {
        // Offered: THP on for hinted memory, and a fault may compact memory to find a page
        // (with `defrag` at `never` a fragmented machine silently falls back to small pages).
        let thp =
            |f: &str| std::fs::read_to_string(format!("/sys/kernel/mm/transparent_hugepage/{f}"));
        let offered = thp("enabled")
            .is_ok_and(|s| s.contains("[madvise]") || s.contains("[always]"))
            && thp("defrag").is_ok_and(|s| !s.contains("[never]"));
        let mut table = vec![0u64; (16 << 20) / 8];
        advise_huge_pages(&table);
        table.iter_mut().step_by(512).for_each(|x| *x = 1);
        let kb = huge_kb_at(table.as_ptr() as usize + (8 << 20)).expect("smaps entry");
        if offered {
            assert!(kb >= 2048, "{kb} kB of huge pages");
        }
        // Slices too small to hold an aligned 2 MiB page, and empty ones, are left alone.
        advise_huge_pages(&table[..100]);
        advise_huge_pages::<u8>(&[]);
        assert_eq!(table.iter().filter(|&&x| x == 1).count(), table.len() / 512);
    }
}
