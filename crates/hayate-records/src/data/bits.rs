//! LSB-first bit streams over the 32-byte packed positions (hcp and PackedSfen both write bit 0
//! of byte 0 first).

/// Reads bits LSB-first from a 256-bit packed position. The bytes are loaded once as four
/// little-endian words (plus a zero word) so that a peek is two shifts and no byte loop.
pub(crate) struct BitReader {
    words: [u64; 5],
    pos: usize,
}

impl BitReader {
    pub(crate) fn new(bytes: &[u8; 32]) -> Self {
        let mut words = [0u64; 5];
        for (w, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(chunk);
            *w = u64::from_le_bytes(b);
        }
        BitReader { words, pos: 0 }
    }

    /// Bits consumed so far.
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// The next up to 8 bits without consuming them (missing bits past the end read as 0).
    #[inline(always)]
    pub(crate) fn peek8(&self) -> u32 {
        let w = (self.pos >> 6).min(3);
        let s = (self.pos & 63) as u32;
        let lo = self.words[w] >> s;
        // `s == 0` must not shift by 64; the high word only matters when the window straddles.
        let hi = if s > 56 {
            self.words[w + 1] << (64 - s)
        } else {
            0
        };
        if self.pos >= 256 {
            return 0;
        }
        ((lo | hi) & 0xff) as u32
    }

    /// Consumes `n` bits (the caller checks the bound with [`BitReader::remaining`]).
    #[inline(always)]
    pub(crate) fn skip(&mut self, n: usize) {
        self.pos += n;
    }

    /// Reads `n` ≤ 8 bits as a number, or `None` past the end.
    #[inline(always)]
    pub(crate) fn read(&mut self, n: usize) -> Option<u32> {
        if self.remaining() < n {
            return None;
        }
        let v = self.peek8() & ((1u32 << n) - 1);
        self.pos += n;
        Some(v)
    }

    /// Bits left of the 256.
    #[inline(always)]
    pub(crate) fn remaining(&self) -> usize {
        256usize.saturating_sub(self.pos)
    }
}

/// Writes bits LSB-first into a 256-bit packed position.
pub(crate) struct BitWriter {
    bytes: [u8; 32],
    pos: usize,
}

impl BitWriter {
    pub(crate) fn new() -> Self {
        BitWriter {
            bytes: [0; 32],
            pos: 0,
        }
    }

    /// Appends the low `n` bits of `v`; returns false (writing nothing) if they would not fit.
    #[inline(always)]
    pub(crate) fn write(&mut self, v: u32, n: usize) -> bool {
        if self.pos + n > 256 {
            return false;
        }
        for i in 0..n {
            if (v >> i) & 1 != 0 {
                let p = self.pos + i;
                self.bytes[p / 8] |= 1 << (p % 8);
            }
        }
        self.pos += n;
        true
    }

    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    pub(crate) fn into_bytes(self) -> [u8; 32] {
        self.bytes
    }
}
