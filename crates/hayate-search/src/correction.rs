//! Correction history: how far the search's result has been from the static eval, learnt per
//! feature of the position and added to later static evals. Two features: the hands (the
//! side to move's and the opponent's pieces in hand, through the hand key) and the move that
//! led here (its piece and destination).

use crate::history::ContKey;
use crate::value::Value;
use hayate_core::Color;

const HAND_SIZE: usize = 1 << 14;
const CONT_SIZE: usize = hayate_core::Piece::NUM * 81 + 1;
/// Entries stay within ±this (in 1/32 of an eval unit: at most ±32 units each).
const LIMIT: i32 = 1024;

/// The correction tables of one search thread.
pub struct Correction {
    hand: Vec<i16>,
    cont: Vec<i16>,
}

#[inline(always)]
fn gravity(e: &mut i16, bonus: i32) {
    let v = i32::from(*e);
    *e = (v + bonus - v * bonus.abs() / LIMIT) as i16;
}

impl Correction {
    /// Zeroed tables.
    pub fn new() -> Correction {
        Correction {
            hand: vec![0; 2 * HAND_SIZE],
            cont: vec![0; 2 * CONT_SIZE],
        }
    }

    /// Clears everything (new game).
    pub fn clear(&mut self) {
        self.hand.fill(0);
        self.cont.fill(0);
    }

    #[inline(always)]
    fn idx(us: Color, hand_key: u64, prev: ContKey) -> (usize, usize) {
        (
            us.index() * HAND_SIZE + (hand_key as usize & (HAND_SIZE - 1)),
            us.index() * CONT_SIZE + prev,
        )
    }

    /// `raw` corrected for the side to move `us`, its hands' key and the previous move's block.
    #[inline(always)]
    pub fn adjust(&self, us: Color, hand_key: u64, prev: ContKey, raw: Value) -> Value {
        let (h, c) = Self::idx(us, hand_key, prev);
        raw + (i32::from(self.hand[h]) + i32::from(self.cont[c])) / 32
    }

    /// Learns that a search to `depth` found `diff` = result − corrected static eval.
    #[inline(always)]
    pub fn update(&mut self, us: Color, hand_key: u64, prev: ContKey, diff: Value, depth: i32) {
        let bonus = (diff * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        let (h, c) = Self::idx(us, hand_key, prev);
        gravity(&mut self.hand[h], bonus);
        gravity(&mut self.cont[c], bonus);
    }
}

impl Default for Correction {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let mut c = Correction::new();
        assert_eq!(c.adjust(Color::Black, 7, 3, 100), 100);
        for _ in 0..1000 {
            c.update(Color::Black, 7, 3, 500, 10);
        }
        // Both tables near +LIMIT: +32 units each.
        let up = c.adjust(Color::Black, 7, 3, 100);
        assert!((160..=164).contains(&up), "{up}");
        assert_eq!(c.adjust(Color::White, 7, 3, 100), 100, "per side to move");
        assert_eq!(c.adjust(Color::Black, 8, 4, 100), 100, "per key");
        for _ in 0..1000 {
            c.update(Color::Black, 7, 3, -500, 10);
        }
        let down = c.adjust(Color::Black, 7, 3, 100);
        assert!((36..=40).contains(&down), "{down}");
    }
}
