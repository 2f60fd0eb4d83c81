#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod attacks;
mod bitboard;
mod checks;
mod color;
pub mod game;
mod hand;
mod huge_pages;
mod movegen;
mod moves;
mod perft;
mod piece;
pub mod player;
mod position;
mod rules;
pub mod sfen;
mod square;
pub mod timeman;
pub mod usi;
pub mod usi_option;
pub mod zobrist;

pub use attacks::{attacks, between, line_through};
pub use bitboard::{Bitboard, BitboardIter};
pub use checks::{drop_check_squares, generate_board_checks, generate_checks};
pub use color::Color;
pub use hand::Hand;
pub use huge_pages::{advise_huge_pages, prefault};
pub use movegen::{Stage, dead_ranks, promotion_zone};
pub use moves::{Move, Move16, MoveList};
pub use perft::{perft, perft_divide};
pub use piece::{Piece, PieceType};
pub use position::{NextTo, Position, StateInfo, next_to_slot};
pub use rules::{DeclarationRule, GameRepetition, Repetition};
pub use sfen::SfenError;
pub use square::Square;
pub use usi::{MoveTextError, PositionCommandError};
pub use usi_option::{OptionError, OptionKind, UsiOption};
