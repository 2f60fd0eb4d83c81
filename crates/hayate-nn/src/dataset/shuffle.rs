//! Shuffling with a bounded buffer: the first `capacity` items fill it, then each new item
//! replaces a uniformly chosen one, which is yielded; at the end the rest comes out in random
//! order. Memory stays at `capacity` items however long the stream.

/// A small seeded generator (SplitMix64): reproducible shuffles without a dependency.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (`n > 0`), by the multiply-shift method.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Shuffles the items of `I` through a buffer of bounded size.
pub struct ShuffleBuffer<I: Iterator> {
    inner: I,
    buf: Vec<I::Item>,
    capacity: usize,
    rng: SplitMix64,
    filled: bool,
}

impl<I: Iterator> ShuffleBuffer<I> {
    /// Shuffles `inner` with a buffer of `capacity` items (at least 1) and a seed.
    pub fn new(inner: I, capacity: usize, seed: u64) -> ShuffleBuffer<I> {
        let capacity = capacity.max(1);
        ShuffleBuffer {
            inner,
            buf: Vec::with_capacity(capacity),
            capacity,
            rng: SplitMix64::new(seed),
            filled: false,
        }
    }
}

impl<I: Iterator> Iterator for ShuffleBuffer<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        if !self.filled {
            while self.buf.len() < self.capacity {
                match self.inner.next() {
                    Some(x) => self.buf.push(x),
                    None => break,
                }
            }
            self.filled = true;
        }
        if self.buf.is_empty() {
            return None;
        }
        let i = self.rng.below(self.buf.len());
        match self.inner.next() {
            Some(x) => Some(std::mem::replace(&mut self.buf[i], x)),
            None => Some(self.buf.swap_remove(i)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yields_every_item_once_and_mixes() {
        let out: Vec<u32> = ShuffleBuffer::new(0..1000u32, 64, 7).collect();
        let mut sorted = out.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).collect::<Vec<_>>());
        assert_ne!(out, sorted);
        // Bounded: nothing comes out more than `capacity` places before it went in.
        for (i, &x) in out.iter().enumerate() {
            assert!((x as usize) <= i + 64);
        }
        let again: Vec<u32> = ShuffleBuffer::new(0..1000u32, 64, 7).collect();
        assert_eq!(out, again);
    }

    #[test]
    fn small_streams() {
        assert_eq!(ShuffleBuffer::new(0..0u32, 8, 1).count(), 0);
        let mut v: Vec<u32> = ShuffleBuffer::new(0..3u32, 8, 1).collect();
        v.sort_unstable();
        assert_eq!(v, vec![0, 1, 2]);
    }
}
