//! A loaded net of any shape Hayate evaluates: the shape is read from the file once, and each
//! variant holds the evaluator compiled for it, so a search built over a variant's evaluator
//! never branches on the shape ([`with_nnue!`](crate::with_nnue) builds it).

use super::NnueOf;
use super::error::{NnueError, NnueFault};
use super::features::{self, Features};
use super::network::{NetworkOf, classic_shape, read_header};
use super::shape::Shape;
use crate::Evaluator;
use crate::simd::Isa;
use hayate_core::Position;
use std::path::{Path, PathBuf};

/// Declares [`AnyNnue`] with one variant per supported shape, and its loader.
macro_rules! any_nnue {
    ($($variant:ident = ($feat:ident, $half:literal, $h1:literal, $h2:literal)),+ $(,)?) => {
        /// An NNUE evaluation of one of the classic shapes public nets use (HalfKP of every
        /// size in [`super::shape::KNOWN_SIZES`], the other feature sets at 256x2-32-32).
        /// Cloning shares the parameters.
        #[derive(Clone, Debug)]
        pub enum AnyNnue {
            $(
                #[doc = concat!(stringify!($feat), " ", $half, "x2-", $h1, "-", $h2, ".")]
                $variant(NnueOf<$half, $h1, $h2, features::$feat>),
            )+
        }

        impl AnyNnue {
            /// Every supported shape, in the order of the variants.
            pub const SHAPES: &[Shape] = &[$(Shape {
                features: <features::$feat as Features>::SET,
                half: $half,
                h1: $h1,
                h2: $h2,
            }),+];

            /// Parses `nn.bin` bytes of any supported shape.
            fn parse(bytes: &[u8]) -> Result<AnyNnue, NnueFault> {
                let shape = classic_shape(&read_header(bytes)?, bytes.len())?;
                match (shape.features, shape.half, shape.h1, shape.h2) {
                    $(
                        (f, $half, $h1, $h2) if f == <features::$feat as Features>::SET => NetworkOf::<$half, $h1, $h2, features::$feat>::from_bytes(bytes)
                            .map(|n| AnyNnue::$variant(NnueOf::from_network(n))),
                    )+
                    _ => Err(NnueFault::UnsupportedArchitecture {
                        found: shape.name(),
                        text: shape.text(),
                    }),
                }
            }
        }
    };
}

any_nnue! {
    Halfkp256x32x32 = (HalfKp, 256, 32, 32),
    Halfkp512x8x64 = (HalfKp, 512, 8, 64),
    Halfkp512x8x96 = (HalfKp, 512, 8, 96),
    Halfkp512x16x32 = (HalfKp, 512, 16, 32),
    Halfkp768x16x64 = (HalfKp, 768, 16, 64),
    Halfkp1024x8x32 = (HalfKp, 1024, 8, 32),
    Halfkp1024x8x64 = (HalfKp, 1024, 8, 64),
    Halfkp1536x16x64 = (HalfKp, 1536, 16, 64),
    HalfkpVm256x32x32 = (HalfKpVm, 256, 32, 32),
    HalfkpE9x256x32x32 = (HalfKpE9, 256, 32, 32),
    Halfka1x256x32x32 = (HalfKa1, 256, 32, 32),
    HalfkaHm1x256x32x32 = (HalfKaHm1, 256, 32, 32),
    Halfka2x256x32x32 = (HalfKa2, 256, 32, 32),
    HalfkaHm2x256x32x32 = (HalfKaHm2, 256, 32, 32),
}

/// Runs `$body` with `$n` bound to the shape-specific evaluator ([`NnueOf`]) inside an
/// [`AnyNnue`] (by value or by reference, as `$any` is): the body is compiled once per shape,
/// and the match on the shape runs once, here.
///
/// ```no_run
/// use hayate_eval::{AnyNnue, Evaluator, with_nnue};
/// let net = AnyNnue::load("eval/nn.bin")?;
/// let pos = hayate_core::Position::startpos();
/// let v = with_nnue!(&net, n => n.evaluate_once(&pos));
/// # Ok::<(), hayate_eval::NnueError>(())
/// ```
#[macro_export]
macro_rules! with_nnue {
    ($any:expr, $n:ident => $body:expr) => {
        match $any {
            $crate::nnue::AnyNnue::Halfkp256x32x32($n) => $body,
            $crate::nnue::AnyNnue::Halfkp512x8x64($n) => $body,
            $crate::nnue::AnyNnue::Halfkp512x8x96($n) => $body,
            $crate::nnue::AnyNnue::Halfkp512x16x32($n) => $body,
            $crate::nnue::AnyNnue::Halfkp768x16x64($n) => $body,
            $crate::nnue::AnyNnue::Halfkp1024x8x32($n) => $body,
            $crate::nnue::AnyNnue::Halfkp1024x8x64($n) => $body,
            $crate::nnue::AnyNnue::Halfkp1536x16x64($n) => $body,
            $crate::nnue::AnyNnue::HalfkpVm256x32x32($n) => $body,
            $crate::nnue::AnyNnue::HalfkpE9x256x32x32($n) => $body,
            $crate::nnue::AnyNnue::Halfka1x256x32x32($n) => $body,
            $crate::nnue::AnyNnue::HalfkaHm1x256x32x32($n) => $body,
            $crate::nnue::AnyNnue::Halfka2x256x32x32($n) => $body,
            $crate::nnue::AnyNnue::HalfkaHm2x256x32x32($n) => $body,
        }
    };
}

impl AnyNnue {
    /// Loads an `nn.bin` file of any supported shape, using the best instruction set of this
    /// CPU.
    ///
    /// # Errors
    /// An unreadable file, or one whose size, version, hashes or architecture text do not
    /// describe a supported HalfKP shape; the error names the file.
    pub fn load(path: impl AsRef<Path>) -> Result<AnyNnue, NnueError> {
        NnueError::read_with(path.as_ref(), AnyNnue::parse)
    }

    /// Parses `nn.bin` bytes already in memory (the error's path is `<memory>`).
    ///
    /// # Errors
    /// As [`AnyNnue::load`].
    pub fn from_bytes(bytes: &[u8]) -> Result<AnyNnue, NnueError> {
        AnyNnue::parse(bytes).map_err(|fault| NnueError {
            path: PathBuf::from("<memory>"),
            fault,
        })
    }

    /// The net's shape.
    pub fn shape(&self) -> Shape {
        fn of<const HALF: usize, const H1: usize, const H2: usize, F: Features>(
            _: &NnueOf<HALF, H1, H2, F>,
        ) -> Shape {
            NetworkOf::<HALF, H1, H2, F>::SHAPE
        }
        crate::with_nnue!(self, n => of(n))
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        crate::with_nnue!(self, n => n.isa())
    }

    /// The same net with the kernels of `isa`, or `None` if this CPU lacks it.
    pub fn with_isa(&self, isa: Isa) -> Option<AnyNnue> {
        match self {
            AnyNnue::Halfkp256x32x32(n) => n.with_isa(isa).map(AnyNnue::Halfkp256x32x32),
            AnyNnue::Halfkp512x8x64(n) => n.with_isa(isa).map(AnyNnue::Halfkp512x8x64),
            AnyNnue::Halfkp512x8x96(n) => n.with_isa(isa).map(AnyNnue::Halfkp512x8x96),
            AnyNnue::Halfkp512x16x32(n) => n.with_isa(isa).map(AnyNnue::Halfkp512x16x32),
            AnyNnue::Halfkp768x16x64(n) => n.with_isa(isa).map(AnyNnue::Halfkp768x16x64),
            AnyNnue::Halfkp1024x8x32(n) => n.with_isa(isa).map(AnyNnue::Halfkp1024x8x32),
            AnyNnue::Halfkp1024x8x64(n) => n.with_isa(isa).map(AnyNnue::Halfkp1024x8x64),
            AnyNnue::Halfkp1536x16x64(n) => n.with_isa(isa).map(AnyNnue::Halfkp1536x16x64),
            AnyNnue::HalfkpVm256x32x32(n) => n.with_isa(isa).map(AnyNnue::HalfkpVm256x32x32),
            AnyNnue::HalfkpE9x256x32x32(n) => n.with_isa(isa).map(AnyNnue::HalfkpE9x256x32x32),
            AnyNnue::Halfka1x256x32x32(n) => n.with_isa(isa).map(AnyNnue::Halfka1x256x32x32),
            AnyNnue::HalfkaHm1x256x32x32(n) => n.with_isa(isa).map(AnyNnue::HalfkaHm1x256x32x32),
            AnyNnue::Halfka2x256x32x32(n) => n.with_isa(isa).map(AnyNnue::Halfka2x256x32x32),
            AnyNnue::HalfkaHm2x256x32x32(n) => n.with_isa(isa).map(AnyNnue::HalfkaHm2x256x32x32),
        }
    }

    /// One-off evaluation of `pos` from the side to move's view (for tools and tests; a
    /// search takes the variant's evaluator through [`with_nnue!`](crate::with_nnue)).
    pub fn evaluate_once(&self, pos: &Position) -> i32 {
        crate::with_nnue!(self, n => n.evaluate_once(pos))
    }
}
