//! Checks of a mate line with the rules core alone: every move legal, every attacker move a
//! check, the last position checkmate.

use crate::futile::{Defence, is_mated};
use hayate_core::{Move, Position};
use std::fmt;

/// Why a line is not a checkmate sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The line is empty or has an even number of moves.
    BadLength(usize),
    /// Move `index` (0-based) is not legal where it is played.
    Illegal(usize),
    /// Attacker move `index` does not give check.
    NotCheck(usize),
    /// The final position is not checkmate.
    NotMate,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::BadLength(n) => write!(f, "a mate line has an odd number of moves, not {n}"),
            LineError::Illegal(i) => write!(f, "move {} is illegal", i + 1),
            LineError::NotCheck(i) => write!(f, "attacker move {} is not a check", i + 1),
            LineError::NotMate => write!(f, "the final position is not checkmate"),
        }
    }
}

impl std::error::Error for LineError {}

/// Whether `line`, played from `pos`, is a checkmate sequence (every move legal, every attacker
/// move a check, the final position checkmate). It does not prove the defence was best.
pub fn check_mate_line(pos: &Position, line: &[Move]) -> Result<(), LineError> {
    check_mate_line_with(pos, line, Defence::AllLegal)
}

/// [`check_mate_line`] under a convention for the defence: with [`Defence::NoFutileDrops`] the
/// final position may also be one where the defender's only evasions are futile drops (each
/// answered by a capture that is checkmate, which this also checks).
pub fn check_mate_line_with(
    pos: &Position,
    line: &[Move],
    defence: Defence,
) -> Result<(), LineError> {
    if line.len().is_multiple_of(2) {
        return Err(LineError::BadLength(line.len()));
    }
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        let Some(m) = p.to_move(m.to_move16()) else {
            return Err(LineError::Illegal(i));
        };
        if i % 2 == 0 && !p.gives_check(m) {
            return Err(LineError::NotCheck(i));
        }
        p.do_move(m);
    }
    if is_mated(&mut p, defence) {
        Ok(())
    } else {
        Err(LineError::NotMate)
    }
}

/// Test helper: `m` is a legal check after which every evasion is mated within `plies - 2`.
#[cfg(test)]
pub(crate) fn verify_first_move(
    pos: &mut Position,
    m: Move,
    plies: u32,
    defence: Defence,
) -> Result<(), String> {
    if !pos.is_legal(m) || !pos.gives_check(m) {
        return Err(format!("{m} is not a legal check"));
    }
    pos.do_move(m);
    let mut result = Ok(());
    if plies == 1 {
        if !is_mated(pos, defence) {
            result = Err(format!("{m} does not mate"));
        }
    } else {
        for e in pos.legal_moves().iter().copied() {
            pos.do_move(e);
            let ok = crate::oddply::mate_in_with(pos, plies - 2, defence).is_some();
            pos.undo_move(e);
            if !ok {
                result = Err(format!("{m} {e} escapes"));
                break;
            }
        }
    }
    pos.undo_move(m);
    result
}
