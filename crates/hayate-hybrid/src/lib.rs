//! Hayate's hybrid player (Ryfamate's 変則合議): an αβ player (KKPEE9 or NNUE) and the MCTS
//! player over a policy/value network search the same position at once, and a rule given as
//! options decides whose move is played.
//!
//! - [`rule`]: the decision rule, pure (mate, decisive αβ score, verified DL move);
//! - [`options`]: the `Hybrid_*` USI options that set it;
//! - [`side`]: the two sides ([`AlphaBetaSide`] for any αβ evaluation, the MCTS player);
//! - [`clock`]: one clock for both, less the verification's reserve;
//! - [`consult`]: both sides on their own threads, signals relayed, early stops;
//! - [`verify`]: the short αβ search of the DL move;
//! - [`tag`]: which side each `info` line comes from; [`report`]: the decision said;
//! - [`player`]: [`HybridPlayer`], the `Player` the USI loop, the CSA client and the arena
//!   drive (`EvalType hybrid` in the `hayate` binary).
//!
//! ```
//! use hayate_core::Position;
//! use hayate_core::player::{BestMove, Limits, Player, Signals};
//! use hayate_eval::Material;
//! use hayate_hybrid::{AlphaBetaSide, HybridPlayer};
//! use hayate_infer::UniformBackend;
//! use hayate_mcts::MctsPlayer;
//! use hayate_search::AlphaBeta;
//! let ab: Box<dyn AlphaBetaSide> = Box::new(AlphaBeta::new(Material));
//! let mut p = HybridPlayer::new(Ok(ab), MctsPlayer::with_backend(Box::new(UniformBackend)));
//! p.set_option("USI_Hash", "16")?;
//! p.set_option("UCT_Threads", "1")?;
//! p.prepare()?;
//! let limits = Limits { nodes: Some(300), depth: Some(3), ..Limits::default() };
//! let best = p.think(&Position::startpos(), &limits, &Signals::new(), &mut |_| {});
//! assert!(matches!(best, BestMove::Move { .. }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod clock;
pub mod consult;
pub mod options;
pub mod player;
pub mod report;
pub mod rule;
pub mod side;
pub mod tag;
pub mod verify;

pub use options::Options;
pub use player::HybridPlayer;
pub use rule::{Decision, Reason, Rule, Side};
pub use side::AlphaBetaSide;
