//! Shared fixtures: the reference positions and expected columns.
#![allow(dead_code)]

use hayate_core::{Move, Position};
use std::path::PathBuf;

/// `/work/shared/data/eval/<name>` relative to this crate.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/eval")
        .join(name)
}

/// The 200 SFEN lines.
pub fn positions() -> Vec<String> {
    std::fs::read_to_string(data_path("positions.sfen"))
        .expect("shared eval positions")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// Column `col` (0 material, 1 kkpee9, 2 nnue netA) of expected.txt.
pub fn expected(col: usize) -> Vec<i32> {
    std::fs::read_to_string(data_path("expected.txt"))
        .expect("shared eval expected values")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .nth(col)
                .expect("column")
                .parse()
                .expect("integer")
        })
        .collect()
}

/// A small deterministic generator for random games.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next value in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize % n
    }

    /// Plays a random legal move in `pos` and returns it; `None` when there is none.
    pub fn play_random(&mut self, pos: &mut Position) -> Option<Move> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves[self.below(moves.len())];
        pos.do_move(m);
        Some(m)
    }
}
