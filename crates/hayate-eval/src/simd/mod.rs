//! The NNUE kernels, one module per instruction set; `scalar` is the reference and every other
//! path must give identical results (the tests compare them on the reference positions).
//!
//! The instruction set is chosen at run time ([`Isa::detect`]); intrinsics live only here.

pub mod scalar;

#[cfg(target_arch = "x86_64")]
pub mod avx2;

/// An instruction set the NNUE kernels can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Plain Rust (the compiler may still vectorise it).
    Scalar,
    /// x86-64 AVX2 intrinsics.
    Avx2,
}

impl Isa {
    /// The best instruction set this CPU supports.
    pub fn detect() -> Isa {
        if Isa::Avx2.is_available() {
            Isa::Avx2
        } else {
            Isa::Scalar
        }
    }

    /// Whether this CPU can run the kernels of `self`.
    pub fn is_available(self) -> bool {
        match self {
            Isa::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => std::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            Isa::Avx2 => false,
        }
    }
}
