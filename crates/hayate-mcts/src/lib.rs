#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod answer;
pub mod bench;
pub mod cache;
pub mod leaf;
pub mod node;
pub mod noise;
mod options;
pub mod params;
pub mod player;
pub mod pv_mate;
pub mod report;
pub mod root;
pub mod run;
pub mod search;
pub mod select;
pub mod stop;
pub mod tree;

pub use cache::NnCache;
pub use params::{Puct, SearchParams};
pub use player::{MctsPlayer, SearchReport};
