//! The parameters of a HalfKP 256x2-32-32 net, parsed from `nn.bin` bytes.

use super::arch::{
    self, FE_END, FILE_HASH, FT_HASH, HALF, HIDDEN, INPUTS, L1_IN, L2_IN, NET_HASH, VERSION,
};
use super::error::NnueFault;
use super::shape::{Header, Identified, Shape, identify};

/// The parameters. First-layer and second-layer weights are stored permuted for the
/// chunked affine kernels: `perm[(j * 32 + o) * 4 + k] = W[o][4 * j + k]`, so one 4-byte
/// input chunk multiplies 128 contiguous weight bytes (all 32 outputs).
pub struct Network {
    /// Feature-transformer biases.
    pub ft_bias: [i16; HALF],
    /// Feature-transformer weights, feature-major (`[INPUTS][HALF]`).
    pub ft_weight: Box<[i16]>,
    /// First layer biases.
    pub l1_bias: [i32; HIDDEN],
    /// First layer weights, permuted (see the type's doc).
    pub l1_weight: Box<[i8]>,
    /// Second layer biases.
    pub l2_bias: [i32; HIDDEN],
    /// Second layer weights, permuted.
    pub l2_weight: Box<[i8]>,
    /// Output bias.
    pub out_bias: i32,
    /// Output weights.
    pub out_weight: [i8; L2_IN],
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("inputs", &INPUTS)
            .field("half", &HALF)
            .finish()
    }
}

/// A little-endian reader over a slice whose length was checked beforehand.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        // Lengths are validated against the architecture before any read, so `n` bytes remain.
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        s
    }
    fn u32(&mut self) -> u32 {
        let s = self.take(4);
        u32::from_le_bytes([s[0], s[1], s[2], s[3]])
    }
    fn i32s<const N: usize>(&mut self) -> [i32; N] {
        let s = self.take(4 * N);
        std::array::from_fn(|i| {
            i32::from_le_bytes([s[4 * i], s[4 * i + 1], s[4 * i + 2], s[4 * i + 3]])
        })
    }
    fn i16s_into(&mut self, out: &mut [i16]) {
        let s = self.take(2 * out.len());
        for (o, b) in out.iter_mut().zip(s.chunks_exact(2)) {
            *o = i16::from_le_bytes([b[0], b[1]]);
        }
    }
    fn i8s(&mut self, n: usize) -> Vec<i8> {
        self.take(n).iter().map(|&b| b as i8).collect()
    }
}

/// Writes the header: version, file hash, the architecture text, and the FT hash.
pub(crate) fn write_header(out: &mut Vec<u8>) {
    let text = arch::ARCH_TEXT.as_bytes();
    for w in [VERSION, FILE_HASH, text.len() as u32] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(text);
    out.extend_from_slice(&FT_HASH.to_le_bytes());
}

/// Permutes a row-major `[32][nin]` weight matrix into the chunked layout.
fn permute(w: &[i8], nin: usize) -> Box<[i8]> {
    let mut p = vec![0i8; w.len()];
    for o in 0..HIDDEN {
        for i in 0..nin {
            let (j, k) = (i / 4, i % 4);
            p[(j * HIDDEN + o) * 4 + k] = w[o * nin + i];
        }
    }
    p.into_boxed_slice()
}

/// The row-major `[32][nin]` matrix of a permuted one (the inverse of [`permute`]).
fn unpermute(p: &[i8], nin: usize) -> Vec<i8> {
    let mut w = vec![0i8; p.len()];
    for o in 0..HIDDEN {
        for i in 0..nin {
            w[o * nin + i] = p[((i / 4) * HIDDEN + o) * 4 + i % 4];
        }
    }
    w
}

/// What the file holds when it is not HalfKP 256x2-32-32, said for the error; `None` when it
/// is (or claims to be, with a wrong size: the size checks then say what is wrong).
fn other_architecture(header: &Header, len: usize) -> Option<String> {
    match identify(header, len) {
        Identified::Classic { shape, .. } if shape == Shape::HALFKP_256 => None,
        Identified::Classic {
            shape,
            text_agrees: true,
        } => Some(shape.name()),
        Identified::Classic { shape, .. } => Some(format!(
            "{} (by the file's length; its text says other sizes)",
            shape.name()
        )),
        Identified::Sfnn => Some("an SFNN layer stack".into()),
        Identified::UnknownSizes(_) if arch::is_supported_text(&header.text) => None,
        Identified::UnknownSizes(f) => Some(format!("{} with sizes no known net has", f.name())),
        Identified::Unknown => Some("a feature set Hayate does not know".into()),
    }
}

fn check_hash(section: &'static str, found: u32, expected: u32) -> Result<(), NnueFault> {
    if found == expected {
        Ok(())
    } else {
        Err(NnueFault::BadHash {
            section,
            found,
            expected,
        })
    }
}

impl Network {
    /// Parses `nn.bin` bytes.
    ///
    /// # Errors
    /// A wrong size, version, hash or architecture text, as an [`NnueFault`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NnueFault> {
        let Some(header) = Header::read(bytes) else {
            return Err(NnueFault::TruncatedHeader { len: bytes.len() });
        };
        if header.version != VERSION {
            return Err(NnueFault::BadVersion {
                found: header.version,
                expected: VERSION,
            });
        }
        if let Some(found) = other_architecture(&header, bytes.len()) {
            return Err(NnueFault::UnsupportedArchitecture {
                found,
                text: header.text,
            });
        }
        check_hash("file", header.hash, FILE_HASH)?;
        let text_len = header.text.len();
        let mut r = Reader {
            bytes,
            at: 12 + text_len,
        };
        let expected = arch::file_size(text_len);
        if bytes.len() < expected {
            return Err(NnueFault::Truncated {
                expected,
                actual: bytes.len(),
            });
        }
        if bytes.len() > expected {
            return Err(NnueFault::TrailingBytes {
                expected,
                actual: bytes.len(),
            });
        }
        check_hash("feature transformer", r.u32(), FT_HASH)?;
        let mut ft_bias = [0i16; HALF];
        r.i16s_into(&mut ft_bias);
        let mut ft_weight = vec![0i16; HALF * INPUTS].into_boxed_slice();
        // Rows are read by feature index, scattered over 64 MB: the huge-page hint before the
        // copy touches the pages.
        hayate_core::advise_huge_pages(&ft_weight);
        r.i16s_into(&mut ft_weight);
        check_hash("network", r.u32(), NET_HASH)?;
        let l1_bias = r.i32s::<HIDDEN>();
        let l1 = r.i8s(HIDDEN * L1_IN);
        let l2_bias = r.i32s::<HIDDEN>();
        let l2 = r.i8s(HIDDEN * L2_IN);
        let [out_bias] = r.i32s::<1>();
        let out = r.i8s(L2_IN);
        debug_assert_eq!(r.at, bytes.len());
        let mut out_weight = [0i8; L2_IN];
        out_weight.copy_from_slice(&out);
        Ok(Network {
            ft_bias,
            ft_weight,
            l1_bias,
            l1_weight: permute(&l1, L1_IN),
            l2_bias,
            l2_weight: permute(&l2, L2_IN),
            out_bias,
            out_weight,
        })
    }

    /// First-layer weights, row-major `[32][512]` (as in the file).
    pub fn l1_rows(&self) -> Vec<i8> {
        unpermute(&self.l1_weight, L1_IN)
    }

    /// Second-layer weights, row-major `[32][32]` (as in the file).
    pub fn l2_rows(&self) -> Vec<i8> {
        unpermute(&self.l2_weight, L2_IN)
    }

    /// Builds a network from row-major layer weights (the file's order).
    ///
    /// # Panics
    /// When a slice has the wrong length (`HALF * INPUTS`, `32 * 512`, `32 * 32`): a
    /// programmer error, not input.
    #[track_caller]
    // One argument per parameter block of the file, in file order.
    #[allow(clippy::too_many_arguments)]
    pub fn from_rows(
        ft_bias: [i16; HALF],
        ft_weight: Vec<i16>,
        l1_bias: [i32; HIDDEN],
        l1_rows: &[i8],
        l2_bias: [i32; HIDDEN],
        l2_rows: &[i8],
        out_bias: i32,
        out_weight: [i8; L2_IN],
    ) -> Network {
        assert_eq!(ft_weight.len(), HALF * INPUTS);
        assert_eq!(l1_rows.len(), HIDDEN * L1_IN);
        assert_eq!(l2_rows.len(), HIDDEN * L2_IN);
        Network {
            ft_bias,
            ft_weight: ft_weight.into_boxed_slice(),
            l1_bias,
            l1_weight: permute(l1_rows, L1_IN),
            l2_bias,
            l2_weight: permute(l2_rows, L2_IN),
            out_bias,
            out_weight,
        }
    }

    /// The `nn.bin` bytes of this network (the layout [`Network::from_bytes`] reads, with the
    /// sparse-input architecture text).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(arch::file_size(arch::ARCH_TEXT.len()));
        write_header(&mut out);
        for b in self.ft_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for w in self.ft_weight.iter() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&NET_HASH.to_le_bytes());
        let layers: [(&[i32], Vec<i8>); 3] = [
            (&self.l1_bias, self.l1_rows()),
            (&self.l2_bias, self.l2_rows()),
            (
                std::slice::from_ref(&self.out_bias),
                self.out_weight.to_vec(),
            ),
        ];
        for (bias, weight) in layers {
            for b in bias {
                out.extend_from_slice(&b.to_le_bytes());
            }
            out.extend(weight.iter().map(|&w| w as u8));
        }
        out
    }

    /// The feature-transformer weight row of `feature` (`HALF` values).
    #[inline(always)]
    pub fn ft_row(&self, feature: usize) -> &[i16] {
        &self.ft_weight[feature * HALF..feature * HALF + HALF]
    }
}

const _: () = assert!(FE_END * 81 == INPUTS);
