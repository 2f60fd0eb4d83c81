//! Search values: centipawn-like scores (pawn = 90) and mate scores.

/// A search value from the side to move's view.
pub type Value = i32;

/// Mate at the root (mated in 0 is `-MATE`).
pub const MATE: Value = 32_000;
/// Larger than any value.
pub const INFINITE: Value = 32_001;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 246;
/// Values at or beyond this are mates found within the search.
pub const MATE_IN_MAX_PLY: Value = MATE - MAX_PLY as Value;
/// A position repeated with more in our hand than before: winning, but not a proven mate.
pub const SUPERIOR: Value = 20_000;
/// Evaluations are clamped inside this so they never look like mates or superior positions.
pub const EVAL_LIMIT: Value = 15_000;

/// Mate in `ply` plies for the side to move.
#[inline(always)]
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// Mated in `ply` plies.
#[inline(always)]
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// Whether `v` is a mate score (either side).
#[inline(always)]
pub const fn is_mate(v: Value) -> bool {
    v.abs() >= MATE_IN_MAX_PLY
}

/// Converts a value searched at `ply` to the form stored in the TT (mates relative to the node).
#[inline(always)]
pub const fn to_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_IN_MAX_PLY {
        v + ply as Value
    } else if v <= -MATE_IN_MAX_PLY {
        v - ply as Value
    } else {
        v
    }
}

/// Inverse of [`to_tt`].
#[inline(always)]
pub const fn from_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_IN_MAX_PLY {
        v - ply as Value
    } else if v <= -MATE_IN_MAX_PLY {
        v + ply as Value
    } else {
        v
    }
}

/// The USI score of a value: `Cp` or `Mate` in plies.
pub fn to_score(v: Value) -> hayate_core::player::Score {
    use hayate_core::player::Score;
    if v >= MATE_IN_MAX_PLY {
        Score::Mate(MATE - v)
    } else if v <= -MATE_IN_MAX_PLY {
        Score::Mate(-(MATE + v))
    } else {
        Score::Cp(v)
    }
}
