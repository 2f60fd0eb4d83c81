//! A small reproducible generator (SplitMix64): every random choice of self-play comes from
//! one, seeded from (run seed, shard index), so a shard is the same whoever plays it.

/// SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator of shard `index` of a run with `seed`.
    pub fn for_shard(seed: u64, index: u64) -> Rng {
        Rng(mix(seed) ^ mix(index.wrapping_add(0x9E37_79B9_7F4A_7C15)))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            // Multiply-shift: unbiased enough for choosing moves and openings.
            ((self.next_u64() as u128 * n as u128) >> 64) as u64
        }
    }

    /// A uniform number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_get_different_reproducible_streams() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_shard(1, 0).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::for_shard(1, 0).next_u64(),
            Rng::for_shard(1, 1).next_u64()
        );
        assert_ne!(
            Rng::for_shard(1, 0).next_u64(),
            Rng::for_shard(2, 0).next_u64()
        );
        let mut r = Rng::new(7);
        assert!((0..1000).all(|_| r.below(30) < 30));
        assert_eq!(r.below(0), 0);
        assert!((0..1000).all(|_| (0.0..1.0).contains(&r.unit())));
    }
}
