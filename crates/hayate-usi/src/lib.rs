#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod engine_side;
mod gui_side;
mod input;

pub use engine_side::{
    Command, Go, MAX_GO_MILLIS, MateLimit, UsiError, format_bestmove, format_info, parse_command,
};
pub use gui_side::{EngineLine, format_go, parse_engine_line, parse_info};
pub use input::{LineError, MAX_LINE_BYTES, decode_line, read_line};
