//! Game records: one in-memory [`record::GameRecord`] and the CSA, KIF, KI2, JKF and USI-line
//! formats.

pub mod csa;
pub mod csa_notation;
pub mod error;
pub mod format;
pub mod japanese;
pub mod jkf;
pub mod ki2;
pub mod kif;
pub mod names;
pub mod record;
pub mod text;
pub mod usi;
