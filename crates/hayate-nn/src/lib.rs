#![doc = include_str!("../README.md")]
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
