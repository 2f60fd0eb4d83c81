//! NNUE HalfKP: the tanuki-/Suisho `nn.bin` format, evaluated bit-exactly as the reference
//! engine does, with an accumulator stack updated incrementally on every move.
//!
//! [`NnueOf`] is one evaluator per layer shape (`HALF`x2-`H1`-`H2`, const generics: every
//! shape is compiled on its own, and nothing branches on the shape per node); [`Nnue`] is the
//! 256x2-32-32 of most nets, and [`AnyNnue`] holds a net of any shape public nets use, chosen
//! once when the file is loaded.

mod any;
pub mod arch;
mod error;
pub mod features;
mod forward;
pub mod network;
mod random_net;
pub mod shape;

pub use any::AnyNnue;
pub use error::{NnueError, NnueFault};
pub use network::{Network, NetworkOf};
pub use random_net::{RandomNetParams, random_net_bytes, random_net_bytes_of};

use crate::Evaluator;
use crate::effect::CappedEffects;
use crate::material::material_black;
use crate::simd::{Isa, scalar};
use features::{FeatureDelta, Features, HalfKp};
use hayate_core::{Color, Move, PieceType, Position};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The NNUE evaluation of HalfKP `HALF`x2-`H1`-`H2`. Cloning is cheap: the parameters (64 MB
/// and more) are shared behind an [`Arc`].
#[derive(Debug)]
pub struct NnueOf<const HALF: usize, const H1: usize, const H2: usize, F: Features = HalfKp> {
    net: Arc<NetworkOf<HALF, H1, H2, F>>,
    isa: Isa,
}

/// The NNUE evaluation of HalfKP 256x2-32-32, the net most public files hold.
pub type Nnue = NnueOf<256, 32, 32>;

impl<const HALF: usize, const H1: usize, const H2: usize, F: Features> Clone
    for NnueOf<HALF, H1, H2, F>
{
    fn clone(&self) -> Self {
        NnueOf {
            net: Arc::clone(&self.net),
            isa: self.isa,
        }
    }
}

/// Both perspectives' feature-transformer sums, indexed by colour (Black 0, White 1).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub struct Accumulator<const HALF: usize = 256> {
    /// `halves[c]`: the sums of perspective `c`.
    pub halves: [[i16; HALF]; 2],
    /// False when a king is missing (mate problems): the net cannot evaluate then.
    pub valid: bool,
}

impl<const HALF: usize> Accumulator<HALF> {
    const INVALID: Self = Accumulator {
        halves: [[0; HALF]; 2],
        valid: false,
    };
}

/// One ply of an [`NnueStack`]: the accumulator, and for each perspective whether its half is
/// computed or is still the parent's half plus `delta` (filled in when an evaluation needs it).
/// The push only prefetches the weight rows of the delta: by the time the search evaluates the
/// node (after its table probe and checks), they are in the cache. The search evaluates almost
/// every node it enters, so the gain is the prefetch, not the skipped work: in `perf record` of
/// `hayate bench --depth 13 --evaluator nnue`, the update's share went from 9.2 % to 6.8 %.
#[derive(Clone, Copy, Debug)]
struct Frame<const HALF: usize> {
    acc: Accumulator<HALF>,
    /// `computed[c]`: `acc.halves[c]` holds perspective `c`'s sums.
    computed: [bool; 2],
    /// `delta[c]`: what the move changed for perspective `c` (when not computed).
    delta: [FeatureDelta; 2],
}

impl<const HALF: usize> Frame<HALF> {
    const INVALID: Self = Frame {
        acc: Accumulator::INVALID,
        computed: [true; 2],
        delta: [FeatureDelta::EMPTY; 2],
    };
}

/// Per-thread NNUE state: one frame per ply. Frames are kept when popped and reused by the
/// next push, so the search only moves the `top` index (no copy, no allocation once the
/// deepest ply has been reached). A push records the move's feature changes; the vector work
/// waits until a position is evaluated, and then covers every frame since the last computed
/// one (the root frame is always computed).
#[derive(Debug)]
pub struct NnueStack<const HALF: usize = 256> {
    frames: Vec<Frame<HALF>>,
    /// Number of live frames (`frames[top - 1]` is the current one).
    top: usize,
}

impl<const HALF: usize> NnueStack<HALF> {
    /// The current frame.
    #[inline(always)]
    fn current(&self) -> Option<&Frame<HALF>> {
        self.top.checked_sub(1).and_then(|i| self.frames.get(i))
    }

    /// Makes room for one more frame and returns (parent, new frame), or `None` at the root.
    #[inline(always)]
    fn grow(&mut self) -> (Option<&Frame<HALF>>, &mut Frame<HALF>) {
        if self.top == self.frames.len() {
            self.frames.push(Frame::INVALID);
        }
        self.top += 1;
        let (below, at) = self.frames.split_at_mut(self.top - 1);
        (below.last(), &mut at[0])
    }
}

impl<const HALF: usize, const H1: usize, const H2: usize, F: Features> NnueOf<HALF, H1, H2, F> {
    /// Loads an `nn.bin` file, using the best instruction set of this CPU.
    ///
    /// # Errors
    /// An unreadable file, or one whose size, version, hashes or architecture text do not
    /// describe HalfKP `HALF`x2-`H1`-`H2`; the error names the file.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, NnueError> {
        let net = NnueError::read_with(path.as_ref(), NetworkOf::from_bytes)?;
        Ok(Self::from_network(net))
    }

    /// Parses `nn.bin` bytes already in memory (the error's path is `<memory>`).
    ///
    /// # Errors
    /// As [`NnueOf::load`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, NnueError> {
        NetworkOf::from_bytes(bytes)
            .map(Self::from_network)
            .map_err(|fault| NnueError {
                path: PathBuf::from("<memory>"),
                fault,
            })
    }

    /// Wraps parsed parameters, using the best instruction set of this CPU.
    pub fn from_network(net: NetworkOf<HALF, H1, H2, F>) -> Self {
        NnueOf {
            net: Arc::new(net),
            isa: Isa::detect(),
        }
    }

    /// The same net with the kernels of `isa`, or `None` if this CPU lacks it.
    pub fn with_isa(&self, isa: Isa) -> Option<Self> {
        isa.is_available().then(|| NnueOf {
            net: Arc::clone(&self.net),
            isa,
        })
    }

    /// The instruction set in use.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// The parameters.
    pub fn network(&self) -> &NetworkOf<HALF, H1, H2, F> {
        &self.net
    }

    /// `dst = src - removed + added` with the chosen kernels.
    #[inline(always)]
    fn update(&self, dst: &mut [i16; HALF], src: &[i16; HALF], removed: &[u32], added: &[u32]) {
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `self.isa` is Avx2 or Avx512Vnni only when `Isa::is_available` confirmed
            // AVX2 (`Isa::detect` and `with_isa` are the only ways to set it). Every supported
            // HALF is a multiple of the kernel's 256-lane tile (checked at compile time).
            Isa::Avx2 | Isa::Avx512Vnni => unsafe {
                crate::simd::avx2::update(dst, src, &self.net.ft_weight, removed, added)
            },
            _ => scalar::update(dst, src, &self.net.ft_weight, removed, added),
        }
    }

    /// Recomputes perspective `p`'s half from the active features, given the position's
    /// [`features::set_effects`]. Returns false without kings.
    fn refresh_half(
        &self,
        acc: &mut Accumulator<HALF>,
        pos: &Position,
        p: Color,
        effects: Option<&CappedEffects>,
    ) -> bool {
        match features::active_with::<F>(pos, p, effects) {
            Some(list) => {
                let bias = self.net.ft_bias;
                self.update(&mut acc.halves[p.index()], &bias, &[], list.as_slice());
                true
            }
            None => false,
        }
    }

    /// Refreshes `acc` for `pos` in place.
    fn refresh_into(&self, acc: &mut Accumulator<HALF>, pos: &Position) {
        let effects = features::set_effects::<F>(pos);
        acc.valid = pos.king_square(Color::Black).is_some()
            && pos.king_square(Color::White).is_some()
            && self.refresh_half(acc, pos, Color::Black, effects.as_ref())
            && self.refresh_half(acc, pos, Color::White, effects.as_ref());
    }

    /// A fully refreshed accumulator for `pos`.
    pub fn refresh(&self, pos: &Position) -> Accumulator<HALF> {
        let mut acc = Accumulator::INVALID;
        self.refresh_into(&mut acc, pos);
        acc
    }

    /// Fills `f`, the frame after `m` (`pos` is after the move), lazily: the mover's half is
    /// refreshed at once when its king moved (the walk back stops there), every other half
    /// keeps the move's feature delta for [`NnueOf::materialise`].
    fn defer(&self, f: &mut Frame<HALF>, pos: &Position, m: Move) {
        let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
        f.acc.valid = kings.iter().all(Option::is_some);
        if !f.acc.valid {
            f.computed = [true; 2];
            return;
        }
        if F::SET.has_effects() {
            // Recomputed when evaluated (a move changes the class of many pieces).
            f.computed = [false; 2];
            return;
        }
        let mover = m.moved_piece().color();
        let king_moved = !m.is_drop() && m.moved_piece().piece_type() == PieceType::KING;
        for p in Color::ALL {
            let i = p.index();
            if king_moved && p == mover {
                f.computed[i] =
                    self.refresh_half(&mut f.acc, pos, p, features::set_effects::<F>(pos).as_ref());
            } else if let Some(k) = kings[i] {
                let d = features::delta_of::<F>(pos, m, p, k);
                for &row in d.removed.as_slice().iter().chain(d.added.as_slice()) {
                    crate::simd::prefetch_row::<HALF>(&self.net.ft_weight, row);
                }
                f.delta[i] = d;
                f.computed[i] = false;
            }
        }
    }

    /// Computes perspective `p`'s half of the top frame from the last computed one below it.
    fn materialise(&self, stack: &mut NnueStack<HALF>, p: Color) {
        let i = p.index();
        let top = stack.top.saturating_sub(1);
        let mut from = top;
        while from > 0 && !stack.frames[from].computed[i] {
            from -= 1;
        }
        for n in from + 1..=top {
            let (below, at) = stack.frames.split_at_mut(n);
            self.apply_delta(&mut at[0], &below[n - 1].acc.halves[i], i);
        }
    }

    /// Computes half `i` of `f` as `parent` (the same half one ply before) plus `f`'s delta.
    fn apply_delta(&self, f: &mut Frame<HALF>, parent: &[i16; HALF], i: usize) {
        let d = f.delta[i];
        self.update(
            &mut f.acc.halves[i],
            parent,
            d.removed.as_slice(),
            d.added.as_slice(),
        );
        f.computed[i] = true;
    }

    /// The accumulator after `m` from `parent`, the one before it (`pos` is after the move).
    /// The mover's half is refreshed when its king moved, every other half is updated from
    /// the feature delta (the stack's own steps, done at once).
    pub fn updated(
        &self,
        parent: &Accumulator<HALF>,
        pos: &Position,
        m: Move,
    ) -> Accumulator<HALF> {
        if !parent.valid || F::SET.has_effects() {
            return self.refresh(pos);
        }
        let mut f = Frame::INVALID;
        self.defer(&mut f, pos, m);
        for p in Color::ALL {
            let i = p.index();
            if !f.computed[i] {
                self.apply_delta(&mut f, &parent.halves[i], i);
            }
        }
        f.acc
    }

    /// The evaluation of an accumulator from the side to move's view (`None` if invalid).
    #[inline]
    pub fn evaluate_accumulator(&self, acc: &Accumulator<HALF>, stm: Color) -> Option<i32> {
        acc.valid.then(|| {
            let raw = forward::raw_output(
                &self.net,
                self.isa,
                &acc.halves[stm.index()],
                &acc.halves[(!stm).index()],
            );
            forward::scale(raw)
        })
    }

    /// The evaluation of `pos` from scratch, side to move's view. Without both kings the net
    /// cannot evaluate, and material stands in.
    pub fn evaluate_scratch(&self, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        self.evaluate_accumulator(&self.refresh(pos), stm)
            .unwrap_or_else(|| material_stm(pos))
    }
}

/// Material from the side to move's view (the stand-in when a king is missing).
fn material_stm(pos: &Position) -> i32 {
    let v = material_black(pos);
    if pos.side_to_move() == Color::Black {
        v
    } else {
        -v
    }
}

impl<const HALF: usize, const H1: usize, const H2: usize, F: Features> Evaluator
    for NnueOf<HALF, H1, H2, F>
{
    type Stack = NnueStack<HALF>;

    fn name(&self) -> &'static str {
        "nnue"
    }

    fn new_stack(&self) -> NnueStack<HALF> {
        NnueStack {
            frames: Vec::with_capacity(256),
            top: 0,
        }
    }

    fn reset(&self, stack: &mut NnueStack<HALF>, pos: &Position) {
        stack.top = 0;
        let (_, f) = stack.grow();
        self.refresh_into(&mut f.acc, pos);
        f.computed = [true; 2];
    }

    #[inline]
    fn push(&self, stack: &mut NnueStack<HALF>, pos: &Position, m: Move) {
        match stack.grow() {
            (Some(_), f) => self.defer(f, pos, m),
            (None, f) => {
                self.refresh_into(&mut f.acc, pos);
                f.computed = [true; 2];
            }
        }
    }

    fn push_null(&self, stack: &mut NnueStack<HALF>, pos: &Position) {
        match stack.grow() {
            (Some(parent), f) => {
                // Nothing changes: an empty delta copies the parent's halves when needed.
                f.acc.valid = parent.acc.valid;
                f.computed = [!parent.acc.valid; 2];
                f.delta = [FeatureDelta::EMPTY; 2];
            }
            (None, f) => {
                self.refresh_into(&mut f.acc, pos);
                f.computed = [true; 2];
            }
        }
    }

    #[inline]
    fn pop(&self, stack: &mut NnueStack<HALF>) {
        stack.top = stack.top.saturating_sub(1);
    }

    #[inline]
    fn evaluate(&self, stack: &mut NnueStack<HALF>, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        let Some(f) = stack.current() else {
            return self.evaluate_scratch(pos);
        };
        if f.acc.valid {
            let computed = f.computed;
            if F::SET.has_effects() {
                if computed != [true; 2]
                    && let Some(top) = stack.top.checked_sub(1)
                {
                    let f = &mut stack.frames[top];
                    self.refresh_into(&mut f.acc, pos);
                    f.computed = [true; 2];
                }
            } else {
                for p in Color::ALL {
                    if !computed[p.index()] {
                        self.materialise(stack, p);
                    }
                }
            }
        }
        stack
            .current()
            .and_then(|f| self.evaluate_accumulator(&f.acc, stm))
            .unwrap_or_else(|| material_stm(pos))
    }
}
