//! The NNUE kernels, one module per instruction set; `scalar` is the reference and every other
//! path must give identical results (the tests compare them on the reference positions).
//!
//! The instruction set is chosen at run time ([`Isa::detect`]); intrinsics live only here.

pub mod scalar;

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512vnni;

/// An instruction set the NNUE kernels can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Plain Rust (the compiler may still vectorise it).
    Scalar,
    /// x86-64 AVX2 intrinsics.
    Avx2,
    /// AVX2 for the accumulator, AVX-512 VNNI (`vpdpbusd`) for the affine layers.
    Avx512Vnni,
}

impl Isa {
    /// Every instruction set, scalar first.
    pub const ALL: [Isa; 3] = [Isa::Scalar, Isa::Avx2, Isa::Avx512Vnni];

    /// The best instruction set this CPU supports.
    pub fn detect() -> Isa {
        if Isa::Avx512Vnni.is_available() {
            Isa::Avx512Vnni
        } else if Isa::Avx2.is_available() {
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
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Vnni => {
                std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512vnni")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Isa::Avx2 | Isa::Avx512Vnni => false,
        }
    }
}

/// Asks the CPU to bring row `f` of the feature weights `w` (`N` values a row) into the
/// cache, so that an update that comes later finds it there. A hint: it changes no result.
#[inline(always)]
pub fn prefetch_row<const N: usize>(w: &[i16], f: u32) {
    let start = f as usize * N;
    #[cfg(target_arch = "x86_64")]
    if let Some(row) = w.get(start..start + N) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        for line in row.chunks_exact(32) {
            // SAFETY: a prefetch reads no memory and cannot fault; the pointer lies in `row`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (w, start);
}
