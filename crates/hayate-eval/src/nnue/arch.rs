//! HalfKP constants every shape shares (features, file version, output scaling), and the sizes,
//! hashes and `nn.bin` layout of the 256x2-32-32 most nets use (the hashes and the file size are
//! [`Shape::HALFKP_256`]'s, from the formulas every architecture shares; other shapes take
//! theirs from their [`Shape`]).

use super::shape::Shape;

/// Square count.
pub const SQ_NB: usize = 81;
/// BonaPiece count (`fe_end`): hand and board piece-square codes of one perspective.
pub const FE_END: usize = 1548;
/// HalfKP input features: king square × BonaPiece.
pub const INPUTS: usize = SQ_NB * FE_END;
/// Feature-transformer outputs per perspective.
pub const HALF: usize = 256;
/// Inputs of the first affine layer (both halves).
pub const L1_IN: usize = 2 * HALF;
/// Outputs of the first and second affine layers.
pub const HIDDEN: usize = 32;
/// Inputs of the second affine layer and of the output layer.
pub const L2_IN: usize = HIDDEN;

/// File version (`nnue_common.h` kVersion).
pub const VERSION: u32 = 0x7AF3_2F16;
/// Whole-network hash in the header: feature-transformer hash ^ network hash.
pub const FILE_HASH: u32 = Shape::HALFKP_256.file_hash();
/// Feature-transformer hash (HalfKP(Friend) ^ 512).
pub const FT_HASH: u32 = Shape::HALFKP_256.ft_hash();
/// Network (layers) hash.
pub const NET_HASH: u32 = Shape::HALFKP_256.net_hash();

/// Output scale: the raw output is divided by this (truncating) to give centipawn-like units.
pub const FV_SCALE: i32 = 16;
/// Right shift applied to the hidden layers' i32 sums before the clipped ReLU.
pub const WEIGHT_SCALE_BITS: u32 = 6;
/// The evaluation is clamped to ±this (YaneuraOu's `VALUE_MAX_EVAL`).
pub const VALUE_MAX_EVAL: i32 = 27000;

/// The file size for an architecture text of `text_len` bytes.
pub const fn file_size(text_len: usize) -> usize {
    Shape::HALFKP_256.file_size(text_len)
}

/// The architecture text YaneuraOu writes for this net (the sparse-input variant).
pub const ARCH_TEXT: &str = "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransformSparseInput[32<-512](InputSlice[512(0:512)])))))";
