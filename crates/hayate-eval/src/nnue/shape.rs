//! The NNUE architectures public nets use, told apart from a file's header and length: the
//! feature set, the layer sizes, the hashes and the file size each implies.
//!
//! The classic nets (YaneuraOu's `eval/nnue/architectures/`) are a feature transformer of
//! `half` outputs per perspective, then `2·half → h1 → h2 → 1` affine layers with clipped
//! ReLUs. An affine layer stores `out` i32 biases and `out × ceil32(in)` i8 weights (inputs
//! padded to 32). The hashes: feature transformer = the feature set's hash ^ `2·half`; network =
//! a fold over the layers ([`Shape::net_hash`]); file = the two xored. Some trainers write the
//! 256x2 architecture text whatever the real size, so [`identify`] trusts the file length over
//! the text's numbers. SFNN layer stacks (Suisho11) are recognised by name only.

pub use super::arch::VERSION;
use super::arch::{FE_END, SQ_NB};

/// `fe_end` with the two kings as pieces (HalfKA2).
const E_KING: usize = FE_END + SQ_NB;
/// `fe_end` with both kings and their own codes (HalfKA1).
const FE_END2: usize = E_KING + SQ_NB;

/// An input feature set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureSet {
    /// King square × BonaPiece (Suisho5, Hao, Suisho10, tanuki- wcsc).
    HalfKp,
    /// HalfKP with kings on files 6–9 mirrored: 45 king squares (tanuki- dr2).
    HalfKpVm,
    /// HalfKP × 9 effect classes (BURNING BRIDGES).
    HalfKpE9,
    /// Kings as features, both kings' codes (trainers' HalfKA1).
    HalfKa1,
    /// HalfKA1 with mirrored king squares.
    HalfKaHm1,
    /// Kings as features (HalfKA2).
    HalfKa2,
    /// HalfKA2 with mirrored king squares (the SFNN nets' input).
    HalfKaHm2,
}

impl FeatureSet {
    /// Every feature set.
    pub const ALL: [FeatureSet; 7] = [
        FeatureSet::HalfKp,
        FeatureSet::HalfKpVm,
        FeatureSet::HalfKpE9,
        FeatureSet::HalfKa1,
        FeatureSet::HalfKaHm1,
        FeatureSet::HalfKa2,
        FeatureSet::HalfKaHm2,
    ];

    /// The name in the architecture text (before `(Friend)`).
    pub fn name(self) -> &'static str {
        match self {
            FeatureSet::HalfKp => "HalfKP",
            FeatureSet::HalfKpVm => "HalfKP_vm",
            FeatureSet::HalfKpE9 => "HalfKPE9",
            FeatureSet::HalfKa1 => "HalfKA1",
            FeatureSet::HalfKaHm1 => "HalfKA_hm1",
            FeatureSet::HalfKa2 => "HalfKA2",
            FeatureSet::HalfKaHm2 => "HalfKA_hm2",
        }
    }

    /// Input features (one perspective).
    pub const fn inputs(self) -> usize {
        match self {
            FeatureSet::HalfKp => SQ_NB * FE_END,
            FeatureSet::HalfKpVm => 5 * 9 * FE_END,
            FeatureSet::HalfKpE9 => SQ_NB * FE_END * 9,
            FeatureSet::HalfKa1 => SQ_NB * FE_END2,
            FeatureSet::HalfKaHm1 => 5 * 9 * FE_END2,
            FeatureSet::HalfKa2 => SQ_NB * E_KING,
            FeatureSet::HalfKaHm2 => 5 * 9 * E_KING,
        }
    }

    /// The feature set's own hash (before the transformer's size is mixed in).
    pub const fn hash(self) -> u32 {
        match self {
            // HalfKPE9 keeps HalfKP's hash: only the text and the size tell them apart.
            FeatureSet::HalfKp | FeatureSet::HalfKpE9 => 0x5D69_D5B8,
            FeatureSet::HalfKpVm => 0x0B6B_1D9A,
            FeatureSet::HalfKa1 => 0x5F13_4CB8,
            FeatureSet::HalfKaHm1 => 0x7F13_4CB8,
            FeatureSet::HalfKa2 => 0x5F23_4CB8,
            FeatureSet::HalfKaHm2 => 0x7F23_4CB8,
        }
    }

    /// Whether board squares are mirrored when the perspective's king stands on files 6–9.
    pub const fn mirrored(self) -> bool {
        matches!(
            self,
            FeatureSet::HalfKpVm | FeatureSet::HalfKaHm1 | FeatureSet::HalfKaHm2
        )
    }

    /// Whether a feature depends on the effects on the piece's square (HalfKPE9).
    pub const fn has_effects(self) -> bool {
        matches!(self, FeatureSet::HalfKpE9)
    }

    /// Whether the kings are pieces of the set.
    pub const fn has_kings(self) -> bool {
        matches!(
            self,
            FeatureSet::HalfKa1
                | FeatureSet::HalfKaHm1
                | FeatureSet::HalfKa2
                | FeatureSet::HalfKaHm2
        )
    }

    /// Whether both kings share one block of codes (HalfKA2: the other king's `1629 + sq`
    /// counts as `1548 + sq`).
    pub const fn shared_king_block(self) -> bool {
        matches!(self, FeatureSet::HalfKa2 | FeatureSet::HalfKaHm2)
    }

    /// Features per king square.
    pub const fn king_stride(self) -> usize {
        match self {
            FeatureSet::HalfKp | FeatureSet::HalfKpVm | FeatureSet::HalfKpE9 => FE_END,
            FeatureSet::HalfKa1 | FeatureSet::HalfKaHm1 => FE_END2,
            FeatureSet::HalfKa2 | FeatureSet::HalfKaHm2 => E_KING,
        }
    }

    /// The feature set an architecture text names (`Features=NAME(Friend)[…]`).
    pub fn from_text(text: &str) -> Option<FeatureSet> {
        let name = text.strip_prefix("Features=")?.split('(').next()?;
        FeatureSet::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// A classic architecture: a feature set and the layer sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The input features.
    pub features: FeatureSet,
    /// Feature-transformer outputs per perspective.
    pub half: usize,
    /// Outputs of the first affine layer.
    pub h1: usize,
    /// Outputs of the second affine layer.
    pub h2: usize,
}

/// The layer sizes public nets use, the 256x2-32-32 of most nets first (what [`identify`]
/// tries when the text's numbers do not fit the file's length). Hayate evaluates HalfKP nets
/// of each ([`super::AnyNnue`]).
pub const KNOWN_SIZES: [(usize, usize, usize); 8] = [
    (256, 32, 32),
    (512, 8, 64),
    (512, 8, 96),
    (512, 16, 32),
    (768, 16, 64),
    (1024, 8, 32),
    (1024, 8, 64),
    (1536, 16, 64),
];

const fn pad32(n: usize) -> usize {
    n.div_ceil(32) * 32
}

const fn affine_bytes(inputs: usize, outputs: usize) -> usize {
    4 * outputs + outputs * pad32(inputs)
}

const fn affine_hash(prev: u32, outputs: usize) -> u32 {
    0xCC03_DAE4u32.wrapping_add(outputs as u32) ^ (prev >> 1) ^ (prev << 31)
}

const fn relu_hash(prev: u32) -> u32 {
    0x538D_24C7u32.wrapping_add(prev)
}

impl Shape {
    /// HalfKP 256x2-32-32, the net most public files hold.
    pub const HALFKP_256: Shape = Shape {
        features: FeatureSet::HalfKp,
        half: 256,
        h1: 32,
        h2: 32,
    };

    /// Whether Hayate evaluates this shape (one of [`super::AnyNnue::SHAPES`]).
    pub fn is_supported(&self) -> bool {
        super::AnyNnue::SHAPES.contains(self)
    }

    /// `HalfKP 256x2-32-32`.
    pub fn name(&self) -> String {
        format!(
            "{} {}x2-{}-{}",
            self.features.name(),
            self.half,
            self.h1,
            self.h2
        )
    }

    /// The feature transformer's hash.
    pub const fn ft_hash(&self) -> u32 {
        self.features.hash() ^ (2 * self.half) as u32
    }

    /// The layers' hash: the input slice, then each affine layer and clipped ReLU.
    pub const fn net_hash(&self) -> u32 {
        let mut h = 0xEC42_E90Du32 ^ (2 * self.half) as u32;
        h = relu_hash(affine_hash(h, self.h1));
        h = relu_hash(affine_hash(h, self.h2));
        affine_hash(h, 1)
    }

    /// The hash in the file's header.
    pub const fn file_hash(&self) -> u32 {
        self.ft_hash() ^ self.net_hash()
    }

    /// Bytes after the architecture text: FT hash, biases and weights, net hash, three layers.
    pub const fn body_bytes(&self) -> usize {
        4 + 2 * self.half
            + 2 * self.half * self.features.inputs()
            + 4
            + affine_bytes(2 * self.half, self.h1)
            + affine_bytes(self.h1, self.h2)
            + affine_bytes(self.h2, 1)
    }

    /// The file size with an architecture text of `text_len` bytes.
    pub const fn file_size(&self, text_len: usize) -> usize {
        12 + text_len + self.body_bytes()
    }

    /// The architecture text YaneuraOu writes (sparse-input first layer).
    pub fn text(&self) -> String {
        let (f, inputs, half, h1, h2) = (
            self.features.name(),
            self.features.inputs(),
            self.half,
            self.h1,
            self.h2,
        );
        let l1 = 2 * half;
        format!(
            "Features={f}(Friend)[{inputs}->{half}x2],Network=AffineTransform[1<-{h2}](ClippedReLU[{h2}](AffineTransform[{h2}<-{h1}](ClippedReLU[{h1}](AffineTransformSparseInput[{h1}<-{l1}](InputSlice[{l1}(0:{l1})])))))"
        )
    }

    /// The shape `[FEATURES_]HALFx2-H1-H2` names: HalfKP without a feature set, else the
    /// set's [`FeatureSet::name`] in any case, then `_` or a space (e.g. `1024x2-8-32`,
    /// `HalfKA_hm2_256x2-32-32`, or [`Shape::name`]'s `HalfKA_hm2 256x2-32-32`).
    pub fn from_name(s: &str) -> Option<Shape> {
        let (features, sizes) = match s.rsplit_once(['_', ' ']) {
            Some((f, sizes)) => (
                FeatureSet::ALL
                    .into_iter()
                    .find(|x| x.name().eq_ignore_ascii_case(f))?,
                sizes,
            ),
            None => (FeatureSet::HalfKp, s),
        };
        let (half, rest) = sizes.split_once("x2-")?;
        let (h1, h2) = rest.split_once('-')?;
        Some(Shape {
            features,
            half: half.parse().ok()?,
            h1: h1.parse().ok()?,
            h2: h2.parse().ok()?,
        })
    }

    /// The shape an architecture text spells out: the feature set, `->HALFx2`, and the affine
    /// layers' `[OUT<-IN]` (output layer first).
    pub fn from_text(text: &str) -> Option<Shape> {
        let features = FeatureSet::from_text(text)?;
        let half = text.split("->").nth(1)?.split('x').next()?.parse().ok()?;
        let layers: Vec<(usize, usize)> = text
            .split("AffineTransform")
            .skip(1)
            .filter_map(|s| {
                let s = s.strip_prefix("SparseInput").unwrap_or(s);
                let (o, i) = s.strip_prefix('[')?.split(']').next()?.split_once("<-")?;
                Some((o.parse().ok()?, i.parse().ok()?))
            })
            .collect();
        match layers[..] {
            [(1, h2), (h2b, h1), (h1b, l1)] if h2 == h2b && h1 == h1b && l1 == 2 * half => {
                Some(Shape {
                    features,
                    half,
                    h1,
                    h2,
                })
            }
            _ => None,
        }
    }
}

/// What a file's header and length say it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identified {
    /// A classic net whose size fits this shape. `text_agrees` is false when the architecture
    /// text names other sizes (a trainer that always writes 256x2).
    Classic {
        /// The shape.
        shape: Shape,
        /// The text's own numbers match `shape`.
        text_agrees: bool,
    },
    /// An SFNN layer-stack net (named in the text), recognised but not taken apart.
    Sfnn,
    /// A known feature set, but no known sizes fit the length.
    UnknownSizes(FeatureSet),
    /// A text naming no feature set this module knows.
    Unknown,
}

/// The header of an `nn.bin`: version, file hash and architecture text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The first word.
    pub version: u32,
    /// The whole-file hash.
    pub hash: u32,
    /// The architecture text.
    pub text: String,
}

impl Header {
    /// Reads the header from the first bytes of a file; `None` when they are too few (or the
    /// text's length runs past the end).
    pub fn read(bytes: &[u8]) -> Option<Header> {
        let word = |i: usize| -> Option<u32> {
            Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?))
        };
        let (version, hash, len) = (word(0)?, word(4)?, word(8)? as usize);
        let text = bytes.get(12..12usize.checked_add(len)?)?;
        Some(Header {
            version,
            hash,
            text: String::from_utf8_lossy(text).into_owned(),
        })
    }
}

/// What a file with this header and `file_len` bytes holds.
pub fn identify(header: &Header, file_len: usize) -> Identified {
    if header.text.contains("SFNN") || header.text.contains("LayerStack") {
        return Identified::Sfnn;
    }
    let Some(features) = FeatureSet::from_text(&header.text) else {
        return Identified::Unknown;
    };
    let text_len = header.text.len();
    if let Some(shape) = Shape::from_text(&header.text)
        && shape.file_size(text_len) == file_len
    {
        return Identified::Classic {
            shape,
            text_agrees: true,
        };
    }
    KNOWN_SIZES
        .into_iter()
        .map(|(half, h1, h2)| Shape {
            features,
            half,
            h1,
            h2,
        })
        .find(|s| s.file_size(text_len) == file_len)
        .map_or(Identified::UnknownSizes(features), |shape| {
            Identified::Classic {
                shape,
                text_agrees: false,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_named_and_parsed_back() {
        for shape in super::super::AnyNnue::SHAPES {
            assert_eq!(Shape::from_name(&shape.name()), Some(*shape));
            let underscored = shape.name().replace(' ', "_").to_lowercase();
            assert_eq!(
                Shape::from_name(&underscored),
                Some(*shape),
                "{underscored}"
            );
        }
        assert_eq!(
            Shape::from_name("1024x2-8-32"),
            Some(Shape {
                features: FeatureSet::HalfKp,
                half: 1024,
                h1: 8,
                h2: 32
            })
        );
        assert_eq!(
            Shape::from_name("HalfKA_hm2_256x2-32-32").map(|s| s.features),
            Some(FeatureSet::HalfKaHm2)
        );
        for bad in ["HalfKQ_256x2-32-32", "256x2-32", "x2-32-32", "HalfKA_hm2_"] {
            assert_eq!(Shape::from_name(bad), None, "{bad}");
        }
    }

    /// Recorded once from YaneuraOu's `nnue_dummy_gen.py ARCH OUT --dummy-mode zero` (its
    /// commit of 2026-12): the header hash, the feature-transformer hash and the file size.
    const ORACLE: [(FeatureSet, usize, usize, usize, u32, u32, usize); 7] = [
        (
            FeatureSet::HalfKp,
            256,
            32,
            32,
            0x3E5A_A6EE,
            0x5D69_D7B8,
            64_217_077,
        ),
        (
            FeatureSet::HalfKp,
            512,
            16,
            32,
            0x3E5A_A772,
            0x5D69_D1B8,
            128_416_184,
        ),
        (
            FeatureSet::HalfKp,
            1024,
            8,
            64,
            0x3E5A_B79C,
            0x5D69_DDB8,
            256_815_670,
        ),
        (
            FeatureSet::HalfKp,
            512,
            8,
            96,
            0x3E5A_A70C,
            0x5D69_D1B8,
            128_410_325,
        ),
        (
            FeatureSet::HalfKpVm,
            256,
            32,
            32,
            0x6858_6ECC,
            0x0B6B_1F9A,
            35_684_343,
        ),
        (
            FeatureSet::HalfKpE9,
            256,
            32,
            32,
            0x3E5A_A6EE,
            0x5D69_D7B8,
            577_806_328,
        ),
        (
            FeatureSet::HalfKaHm2,
            1024,
            8,
            64,
            0x1C10_2E9C,
            0x7F23_44B8,
            150_149_689,
        ),
    ];

    #[test]
    fn hashes_sizes_and_texts_match_the_reference_generator() {
        for (features, half, h1, h2, file_hash, ft_hash, size) in ORACLE {
            let s = Shape {
                features,
                half,
                h1,
                h2,
            };
            assert_eq!(s.file_hash(), file_hash, "{}", s.name());
            assert_eq!(s.ft_hash(), ft_hash, "{}", s.name());
            let text = s.text();
            assert_eq!(s.file_size(text.len()), size, "{}", s.name());
            assert_eq!(Shape::from_text(&text), Some(s));
            let header = Header {
                version: VERSION,
                hash: file_hash,
                text,
            };
            assert_eq!(
                identify(&header, size),
                Identified::Classic {
                    shape: s,
                    text_agrees: true
                }
            );
        }
        // The classic 256 net's constants (derived from these formulas) keep the values the
        // loader always checked.
        assert_eq!(super::super::arch::NET_HASH, 0x6333_7156);
        assert_eq!(super::super::arch::FILE_HASH, 0x3E5A_A6EE);
        assert_eq!(Shape::HALFKP_256.text(), super::super::arch::ARCH_TEXT);
    }

    #[test]
    fn the_length_decides_when_the_text_says_256_for_a_larger_net() {
        let big = Shape {
            features: FeatureSet::HalfKp,
            half: 1024,
            h1: 8,
            h2: 64,
        };
        let text = Shape::HALFKP_256.text();
        let header = Header {
            version: VERSION,
            hash: big.file_hash(),
            text: text.clone(),
        };
        assert_eq!(
            identify(&header, big.file_size(text.len())),
            Identified::Classic {
                shape: big,
                text_agrees: false
            }
        );
        assert_eq!(
            identify(&header, 12345),
            Identified::UnknownSizes(FeatureSet::HalfKp)
        );
        let sfnn = Header {
            text: "Features=HalfKA_hm2(Friend)[73305->1536x2],Network=SFNN".into(),
            ..header.clone()
        };
        assert_eq!(identify(&sfnn, 1), Identified::Sfnn);
        let other = Header {
            text: "Features=K+P[1->2]".into(),
            ..header
        };
        assert_eq!(identify(&other, 1), Identified::Unknown);
    }

    #[test]
    fn a_header_is_read_or_refused_without_panicking() {
        let mut b = Vec::new();
        for w in [VERSION, 7, 3] {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend_from_slice(b"abc");
        let h = Header::read(&b).expect("whole header");
        assert_eq!((h.version, h.hash, h.text.as_str()), (VERSION, 7, "abc"));
        assert_eq!(Header::read(&b[..13]), None);
        assert_eq!(Header::read(&b[..5]), None);
        let mut huge = b.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(Header::read(&huge), None);
    }
}
