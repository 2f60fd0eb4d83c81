//! Hayate's deep-learning foundations, with no ML framework: positions in, plain arrays out.
//!
//! - [`features`]: dlshogi's `input1` (62 planes) and `input2` (57, or 119 with the
//!   entering-king planes), exact against cshogi;
//! - [`labels`]: dlshogi's 2187 policy labels, move → label and label → move;
//! - [`compact`]: the 1496-class compact policy (the labels a legal move can produce);
//! - [`cshogi_order`]: the legal moves in cshogi's order (for byte-exact dumps);
//! - [`novice`]: Novice's 85 input channels and auxiliary targets;
//! - [`prelude`]: prelude's 95 tokens;
//! - [`jsonl`]: the feature dump of `hayate dataset features`;
//! - [`dataset`]: training samples from hcpe/hcpe3 files, shuffling, batches on worker threads,
//!   file statistics.
//!
//! Everything is from the side to move: colour 0 is the side to move and the board is rotated
//! 180° when White is to move.
//!
//! ```
//! use hayate_core::Position;
//! use hayate_nn::{DlshogiFeatures, label_to_move, move_label};
//! let pos = Position::startpos();
//! let f = DlshogiFeatures::new(&pos, false);
//! let mut input1 = vec![0.0f32; 62 * 81];
//! f.write_input1(&mut input1);
//! let m = pos.parse_usi_move("7g7f")?;
//! assert_eq!(move_label(m, pos.side_to_move()), 59);
//! assert_eq!(label_to_move(&pos, 59), Some(m));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod compact;
pub mod cshogi_order;
pub mod dataset;
pub mod features;
pub mod jsonl;
pub mod labels;
pub mod novice;
pub mod orient;
pub mod prelude;

pub use compact::{COMPACT_LABEL_NUM, compact_label, full_label};
pub use features::{DlshogiFeatures, INPUT1_PLANES, INPUT2_PLANES, INPUT2_PLANES_NYUGYOKU};
pub use labels::{LABEL_NUM, label_to_move, move_label};
pub use orient::{orient, orient_square, rotate};
