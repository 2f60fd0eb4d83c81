//! The evaluation chosen by name: one enum for every command, the USI host and self-play.
//!
//! [`EvalKind`] is the choice (parsed from and printed as `kkpee9`, `material`, `nnue`);
//! [`EvalKind::load`] turns it into a [`LoadedEval`], the evaluation itself, and
//! [`with_eval!`](crate::with_eval) runs generic code over whichever evaluation was loaded.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use crate::{AnyNnue, Kkpee9, Material, NnueError};

/// Which static evaluation to use. The first, [`EvalKind::Kkpee9`], is the default: it needs
/// no file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// The KKPEE9 effect tables (built at start-up, 9.6 MB).
    #[default]
    Kkpee9,
    /// Piece values only.
    Material,
    /// An NNUE `nn.bin` of any supported HalfKP shape (needs a file).
    Nnue,
}

impl EvalKind {
    /// Every kind, the default first.
    pub const ALL: [EvalKind; 3] = [EvalKind::Kkpee9, EvalKind::Material, EvalKind::Nnue];
    /// Their names, in the order of [`EvalKind::ALL`].
    pub const NAMES: [&'static str; 3] = ["kkpee9", "material", "nnue"];

    /// The name (`kkpee9`, `material`, `nnue`): the same as [`crate::Evaluator::name`].
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Whether loading needs a file (an NNUE net).
    pub fn needs_file(self) -> bool {
        self == EvalKind::Nnue
    }

    /// Builds the evaluation: the KKPEE9 tables, or the net at `nnue` (read only for
    /// [`EvalKind::Nnue`]).
    ///
    /// # Errors
    /// The NNUE file cannot be read or is not a supported `nn.bin` (the error names it).
    pub fn load(self, nnue: &Path) -> Result<LoadedEval, NnueError> {
        Ok(match self {
            EvalKind::Kkpee9 => LoadedEval::Kkpee9(Kkpee9::new()),
            EvalKind::Material => LoadedEval::Material(Material),
            EvalKind::Nnue => LoadedEval::Nnue(AnyNnue::load(nnue)?),
        })
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not an evaluation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown evaluation {0:?} (kkpee9, material or nnue)")]
pub struct UnknownEval(pub String);

impl FromStr for EvalKind {
    type Err = UnknownEval;

    fn from_str(s: &str) -> Result<Self, UnknownEval> {
        Self::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s))
            .map(|i| Self::ALL[i])
            .ok_or_else(|| UnknownEval(s.to_string()))
    }
}

/// A loaded evaluation (cloning shares the tables and nets).
#[derive(Clone)]
pub enum LoadedEval {
    /// The KKPEE9 effect tables.
    Kkpee9(Kkpee9),
    /// Piece values only.
    Material(Material),
    /// An NNUE net of any supported shape.
    Nnue(AnyNnue),
}

impl LoadedEval {
    /// What was loaded, for a log line: `kkpee9`, `material` or `nnue <shape>`.
    pub fn describe(&self) -> String {
        match self {
            LoadedEval::Kkpee9(_) => EvalKind::Kkpee9.name().into(),
            LoadedEval::Material(_) => EvalKind::Material.name().into(),
            LoadedEval::Nnue(n) => format!("nnue {}", n.shape().name()),
        }
    }
}

/// Runs `$body` with `$e` bound to the concrete evaluator of a [`LoadedEval`] (each arm is
/// compiled for its own evaluator type, so generic searchers are monomorphised per kind).
#[macro_export]
macro_rules! with_eval {
    ($loaded:expr, $e:ident => $body:expr) => {
        match $loaded {
            $crate::LoadedEval::Kkpee9($e) => $body,
            $crate::LoadedEval::Material($e) => $body,
            $crate::LoadedEval::Nnue(net) => $crate::with_nnue!(net, $e => $body),
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_the_default_needs_no_file() {
        for k in EvalKind::ALL {
            assert_eq!(k.name().parse::<EvalKind>(), Ok(k));
            assert_eq!(k.to_string(), k.name());
        }
        assert_eq!("KKPEE9".parse::<EvalKind>(), Ok(EvalKind::Kkpee9));
        assert_eq!("dl".parse::<EvalKind>(), Err(UnknownEval("dl".to_string())));
        assert_eq!(EvalKind::default(), EvalKind::ALL[0]);
        assert!(!EvalKind::default().needs_file());
        assert!(EvalKind::Nnue.needs_file());
    }

    #[test]
    fn loading_names_what_was_loaded_and_a_missing_net_is_an_error() {
        let missing = Path::new("/no/such/nn.bin");
        let m = EvalKind::Material
            .load(missing)
            .expect("material needs no file");
        assert_eq!(m.describe(), "material");
        let err = EvalKind::Nnue.load(missing).err().expect("no such file");
        assert!(err.to_string().contains("/no/such/nn.bin"), "{err}");
        let pos = hayate_core::Position::startpos();
        let score = with_eval!(&m, e => crate::Evaluator::evaluate_once(e, &pos));
        assert_eq!(score, 0);
    }
}
