//! The parameters of a HalfKP `HALF`x2-`H1`-`H2` net, parsed from `nn.bin` bytes.

use super::arch::VERSION;
use super::error::NnueFault;
use super::features::{Features, HalfKp};
use super::shape::{Header, Identified, Shape, identify};
use std::marker::PhantomData;

/// The parameters of HalfKP `HALF`x2-`H1`-`H2` ([`Network`] is the 256x2-32-32 of most
/// nets). The first- and second-layer weights are stored permuted for the chunked affine
/// kernels: `perm[(j * OUT + o) * 4 + k] = W[o][4 * j + k]`, so one 4-byte input chunk
/// multiplies `4 · OUT` contiguous weight bytes (all outputs). The file pads each weight row
/// to a multiple of 32 inputs; the padding is dropped here (the reference engine never reads
/// it either: its inputs there are not outputs of the layer before).
pub struct NetworkOf<const HALF: usize, const H1: usize, const H2: usize, F: Features = HalfKp> {
    /// Feature-transformer biases.
    pub ft_bias: [i16; HALF],
    /// Feature-transformer weights, feature-major (`[INPUTS][HALF]`).
    pub ft_weight: Box<[i16]>,
    /// First layer biases.
    pub l1_bias: [i32; H1],
    /// First layer weights (`2·HALF` inputs), permuted (see the type's doc).
    pub l1_weight: Box<[i8]>,
    /// Second layer biases.
    pub l2_bias: [i32; H2],
    /// Second layer weights (`H1` inputs), permuted.
    pub l2_weight: Box<[i8]>,
    /// Output bias.
    pub out_bias: i32,
    /// Output weights.
    pub out_weight: [i8; H2],
    /// The feature set (a type only).
    pub features: PhantomData<F>,
}

/// HalfKP 256x2-32-32, the net most public files hold.
pub type Network = NetworkOf<256, 32, 32>;

impl<const HALF: usize, const H1: usize, const H2: usize, F: Features> std::fmt::Debug
    for NetworkOf<HALF, H1, H2, F>
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("shape", &Self::SHAPE.name())
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
    /// `rows` weight rows of `nin` i8 each, stored with a row stride padded to 32 (the
    /// padding is skipped).
    fn i8_rows(&mut self, rows: usize, nin: usize) -> Vec<i8> {
        let stride = pad32(nin);
        let s = self.take(rows * stride);
        s.chunks_exact(stride)
            .flat_map(|r| r[..nin].iter().map(|&b| b as i8))
            .collect()
    }
}

/// `n` rounded up to a multiple of 32 (the file's row stride for `n` inputs).
pub(crate) const fn pad32(n: usize) -> usize {
    n.div_ceil(32) * 32
}

/// Writes the header of `shape`: version, file hash, the architecture text, and the FT hash.
pub(crate) fn write_header(out: &mut Vec<u8>, shape: &Shape) {
    let text = shape.text();
    for w in [VERSION, shape.file_hash(), text.len() as u32] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(&shape.ft_hash().to_le_bytes());
}

/// Permutes a row-major `[nout][nin]` weight matrix into the chunked layout.
fn permute(w: &[i8], nout: usize, nin: usize) -> Box<[i8]> {
    let mut p = vec![0i8; w.len()];
    for o in 0..nout {
        for i in 0..nin {
            let (j, k) = (i / 4, i % 4);
            p[(j * nout + o) * 4 + k] = w[o * nin + i];
        }
    }
    p.into_boxed_slice()
}

/// The row-major `[nout][nin]` matrix of a permuted one (the inverse of [`permute`]).
fn unpermute(p: &[i8], nout: usize, nin: usize) -> Vec<i8> {
    let mut w = vec![0i8; p.len()];
    for o in 0..nout {
        for i in 0..nin {
            w[o * nin + i] = p[((i / 4) * nout + o) * 4 + i % 4];
        }
    }
    w
}

/// The classic shape a file with this header and length holds, if Hayate evaluates it: the
/// shape its length fits, or the one its text names (a wrong length is then the fault the size
/// checks report). Otherwise the fault, naming what the file holds.
pub(crate) fn classic_shape(header: &Header, len: usize) -> Result<Shape, NnueFault> {
    let unsupported = |found: String| NnueFault::UnsupportedArchitecture {
        found,
        text: header.text.clone(),
    };
    match identify(header, len) {
        Identified::Classic { shape, .. } if shape.is_supported() => Ok(shape),
        Identified::Classic {
            shape,
            text_agrees: true,
        } => Err(unsupported(shape.name())),
        Identified::Classic { shape, .. } => Err(unsupported(format!(
            "{} (by the file's length; its text says other sizes)",
            shape.name()
        ))),
        Identified::Sfnn => Err(unsupported("an SFNN layer stack".into())),
        Identified::UnknownSizes(f) => match Shape::from_text(&header.text) {
            Some(s) if s.is_supported() => Ok(s),
            _ => Err(unsupported(format!(
                "{} with sizes no known net has",
                f.name()
            ))),
        },
        Identified::Unknown => Err(unsupported("a feature set Hayate does not know".into())),
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

/// The header of `bytes` if its version is HalfKP's.
pub(crate) fn read_header(bytes: &[u8]) -> Result<Header, NnueFault> {
    let Some(header) = Header::read(bytes) else {
        return Err(NnueFault::TruncatedHeader { len: bytes.len() });
    };
    if header.version != VERSION {
        return Err(NnueFault::BadVersion {
            found: header.version,
            expected: VERSION,
        });
    }
    Ok(header)
}

impl<const HALF: usize, const H1: usize, const H2: usize, F: Features> NetworkOf<HALF, H1, H2, F> {
    /// This network's architecture.
    pub const SHAPE: Shape = Shape {
        features: F::SET,
        half: HALF,
        h1: H1,
        h2: H2,
    };

    /// Parses `nn.bin` bytes.
    ///
    /// # Errors
    /// A wrong size, version, hash or architecture text, as an [`NnueFault`] (a supported net
    /// of another shape is [`NnueFault::WrongShape`]: load it as an
    /// [`AnyNnue`](super::AnyNnue)).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, NnueFault> {
        let header = read_header(bytes)?;
        let shape = classic_shape(&header, bytes.len())?;
        if shape != Self::SHAPE {
            return Err(NnueFault::WrongShape {
                found: shape.name(),
                expected: Self::SHAPE.name(),
            });
        }
        check_hash("file", header.hash, Self::SHAPE.file_hash())?;
        let text_len = header.text.len();
        let mut r = Reader {
            bytes,
            at: 12 + text_len,
        };
        let expected = Self::SHAPE.file_size(text_len);
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
        check_hash("feature transformer", r.u32(), Self::SHAPE.ft_hash())?;
        let mut ft_bias = [0i16; HALF];
        r.i16s_into(&mut ft_bias);
        let mut ft_weight = vec![0i16; HALF * F::SET.inputs()].into_boxed_slice();
        // Rows are read by feature index, scattered over 64 MB or more: the huge-page hint
        // before the copy touches the pages.
        hayate_core::advise_huge_pages(&ft_weight);
        r.i16s_into(&mut ft_weight);
        check_hash("network", r.u32(), Self::SHAPE.net_hash())?;
        let l1_bias = r.i32s::<H1>();
        let l1 = r.i8_rows(H1, 2 * HALF);
        let l2_bias = r.i32s::<H2>();
        let l2 = r.i8_rows(H2, H1);
        let [out_bias] = r.i32s::<1>();
        let out = r.i8_rows(1, H2);
        debug_assert_eq!(r.at, bytes.len());
        let mut out_weight = [0i8; H2];
        out_weight.copy_from_slice(&out);
        Ok(NetworkOf {
            ft_bias,
            ft_weight,
            l1_bias,
            l1_weight: permute(&l1, H1, 2 * HALF),
            l2_bias,
            l2_weight: permute(&l2, H2, H1),
            out_bias,
            out_weight,
            features: PhantomData,
        })
    }

    /// First-layer weights, row-major `[H1][2·HALF]` (as in the file, without padding).
    pub fn l1_rows(&self) -> Vec<i8> {
        unpermute(&self.l1_weight, H1, 2 * HALF)
    }

    /// Second-layer weights, row-major `[H2][H1]` (as in the file, without padding).
    pub fn l2_rows(&self) -> Vec<i8> {
        unpermute(&self.l2_weight, H2, H1)
    }

    /// Builds a network from row-major layer weights (the file's order, without padding).
    ///
    /// # Panics
    /// When a slice has the wrong length (`HALF * F::SET.inputs()`, `H1 * 2·HALF`, `H2 * H1`): a
    /// programmer error, not input.
    #[track_caller]
    // One argument per parameter block of the file, in file order.
    #[allow(clippy::too_many_arguments)]
    pub fn from_rows(
        ft_bias: [i16; HALF],
        ft_weight: Vec<i16>,
        l1_bias: [i32; H1],
        l1_rows: &[i8],
        l2_bias: [i32; H2],
        l2_rows: &[i8],
        out_bias: i32,
        out_weight: [i8; H2],
    ) -> Self {
        assert_eq!(ft_weight.len(), HALF * F::SET.inputs());
        assert_eq!(l1_rows.len(), H1 * 2 * HALF);
        assert_eq!(l2_rows.len(), H2 * H1);
        NetworkOf {
            ft_bias,
            ft_weight: ft_weight.into_boxed_slice(),
            l1_bias,
            l1_weight: permute(l1_rows, H1, 2 * HALF),
            l2_bias,
            l2_weight: permute(l2_rows, H2, H1),
            out_bias,
            out_weight,
            features: PhantomData,
        }
    }

    /// The `nn.bin` bytes of this network (the layout [`NetworkOf::from_bytes`] reads, with
    /// the sparse-input architecture text and zero row padding).
    pub fn to_bytes(&self) -> Vec<u8> {
        let shape = Self::SHAPE;
        let mut out = Vec::with_capacity(shape.file_size(shape.text().len()));
        write_header(&mut out, &shape);
        for b in self.ft_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for w in self.ft_weight.iter() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&shape.net_hash().to_le_bytes());
        let layers: [(&[i32], Vec<i8>, usize); 3] = [
            (&self.l1_bias, self.l1_rows(), 2 * HALF),
            (&self.l2_bias, self.l2_rows(), H1),
            (
                std::slice::from_ref(&self.out_bias),
                self.out_weight.to_vec(),
                H2,
            ),
        ];
        for (bias, weight, nin) in layers {
            for b in bias {
                out.extend_from_slice(&b.to_le_bytes());
            }
            for row in weight.chunks_exact(nin) {
                out.extend(row.iter().map(|&w| w as u8));
                out.resize(out.len() + pad32(nin) - nin, 0);
            }
        }
        out
    }

    /// The feature-transformer weight row of `feature` (`HALF` values).
    #[inline(always)]
    pub fn ft_row(&self, feature: usize) -> &[i16] {
        &self.ft_weight[feature * HALF..feature * HALF + HALF]
    }
}
