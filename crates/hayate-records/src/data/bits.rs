//! LSB-first bit streams over the 32-byte packed positions (hcp and PackedSfen both write bit 0
//! of byte 0 first).

/// Reads bits LSB-first from a 256-bit packed position.
pub(crate) struct BitReader<'a> {
    bytes: &'a [u8; 32],
    pos: usize,
}

impl<'a> BitReader<'a> {
    pub(crate) fn new(bytes: &'a [u8; 32]) -> Self {
        BitReader { bytes, pos: 0 }
    }

    /// Bits consumed so far.
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// The next up to 8 bits without consuming them (missing bits past the end read as 0).
    #[inline(always)]
    pub(crate) fn peek8(&self) -> u32 {
        let byte = self.pos / 8;
        let shift = self.pos % 8;
        let lo = self.bytes.get(byte).copied().unwrap_or(0) as u32;
        let hi = self.bytes.get(byte + 1).copied().unwrap_or(0) as u32;
        ((lo | (hi << 8)) >> shift) & 0xff
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
