//! Correction history: how far the search's result has been from the static eval, learnt per
//! feature of the position and added to later static evals. The features: the hands (both
//! sides' pieces in hand, through the hand key), the move that led here (its piece and
//! destination), the pawns of both colours (Stockfish's pawn structure), and for each colour
//! the squares of its other pieces (Stockfish's non-pawn key, by occupancy), and the last two
//! moves together (Stockfish's continuation correction).

use crate::history::ContKey;
use crate::value::Value;
use hayate_core::{Bitboard, Color, PieceType, Position};

const HAND_SIZE: usize = 1 << 14;
const CONT_SIZE: usize = hayate_core::Piece::NUM * 81 + 1;
const BOARD_SIZE: usize = 1 << 14;
/// Where each table starts in [`Correction`]'s one vector (each table is per side to move).
const HAND_AT: usize = 0;
const CONT_AT: usize = HAND_AT + 2 * HAND_SIZE;
const PAWNS_AT: usize = CONT_AT + 2 * CONT_SIZE;
/// [side to move][colour whose pieces the key describes][key].
const OTHERS_AT: usize = PAWNS_AT + 2 * BOARD_SIZE;
/// [side to move][the previous move and the one before it, hashed].
const PAIR_SIZE: usize = 1 << 16;
const PAIR_AT: usize = OTHERS_AT + 4 * BOARD_SIZE;
const TOTAL: usize = PAIR_AT + 2 * PAIR_SIZE;
/// Entries stay within ±this (in 1/32 of an eval unit: at most ±32 units each).
const LIMIT: i32 = 1024;

/// A node's entry in each correction table: the hands, the previous move, the pawns,
/// Black's and White's other pieces, and the last two moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct CorrKeys {
    idx: [usize; 6],
}

#[inline(always)]
fn mix(b: Bitboard, salt: u64) -> usize {
    let lo = (b.0 as u64) ^ salt;
    let hi = (b.0 >> 64) as u64;
    let h = lo.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    ((h ^ (h >> 32)) as usize) & (BOARD_SIZE - 1)
}

impl CorrKeys {
    /// The entries of `pos`, reached by the move whose continuation block is `prev` after the
    /// one whose block is `prev2`.
    #[inline(always)]
    pub fn of(pos: &Position, prev: ContKey, prev2: ContKey) -> CorrKeys {
        let pair = ((prev as u64) << 32 | prev2 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let us = pos.side_to_move().index();
        let pawns = pos.pieces_of_type(PieceType::PAWN);
        let black = pos.pieces(Color::Black);
        let white = pos.pieces(Color::White);
        CorrKeys {
            idx: [
                HAND_AT + us * HAND_SIZE + (pos.hand_key() as usize & (HAND_SIZE - 1)),
                CONT_AT + us * CONT_SIZE + prev,
                PAWNS_AT + us * BOARD_SIZE + (mix(pawns & black, 0) ^ mix(pawns & !black, 0x5555)),
                OTHERS_AT + 2 * us * BOARD_SIZE + mix(black & !pawns, 0),
                OTHERS_AT + (2 * us + 1) * BOARD_SIZE + mix(white & !pawns, 0xAAAA),
                PAIR_AT + us * PAIR_SIZE + (pair >> 48) as usize,
            ],
        }
    }
}

/// The correction tables of one search thread, one after the other in one vector.
pub struct Correction {
    entries: Vec<i16>,
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
            entries: vec![0; TOTAL],
        }
    }

    /// Clears everything (new game).
    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    /// `raw` corrected for the node with keys `k`.
    #[inline(always)]
    pub fn adjust(&self, k: &CorrKeys, raw: Value) -> Value {
        raw + k
            .idx
            .iter()
            .map(|&i| i32::from(self.entries[i]))
            .sum::<i32>()
            / 32
    }

    /// Learns that a search to `depth` found `diff` = result − corrected static eval.
    #[inline(always)]
    pub fn update(&mut self, k: &CorrKeys, diff: Value, depth: i32) {
        let bonus = (diff * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        for &i in &k.idx {
            gravity(&mut self.entries[i], bonus);
        }
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

    /// The same entries for the other side to move.
    fn side_flipped(k: CorrKeys) -> CorrKeys {
        let sizes = [
            HAND_SIZE,
            CONT_SIZE,
            BOARD_SIZE,
            2 * BOARD_SIZE,
            2 * BOARD_SIZE,
            PAIR_SIZE,
        ];
        let mut f = k;
        for (i, size) in f.idx.iter_mut().zip(sizes) {
            *i += size;
        }
        f
    }

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let mut c = Correction::new();
        let pos = Position::startpos();
        let k = CorrKeys::of(&pos, 3, 5);
        assert_eq!(c.adjust(&k, 100), 100);
        for _ in 0..1000 {
            c.update(&k, 500, 10);
        }
        // All six tables near +LIMIT: +32 units each.
        let up = c.adjust(&k, 100);
        assert!((287..=292).contains(&up), "{up}");
        assert_eq!(c.adjust(&side_flipped(k), 100), 100, "per side to move");
        // Another previous move and Black's pieces elsewhere: the hands, the pawns and White's
        // pieces are what they were.
        let mut moved = pos.clone();
        let moves = moved.legal_moves();
        let m = *moves
            .iter()
            .find(|m| !m.is_drop() && moved.piece_on(m.from()).piece_type() != PieceType::PAWN)
            .unwrap();
        moved.do_move(m);
        moved.do_null_move();
        let k2 = CorrKeys::of(&moved, 4, 5);
        assert_eq!(moved.side_to_move(), pos.side_to_move());
        let learnt = c.adjust(&k2, 100) - 100;
        assert!(
            (94..=96).contains(&learnt),
            "three of six tables shared: {learnt}"
        );
        for _ in 0..1000 {
            c.update(&k, -500, 10);
        }
        let down = c.adjust(&k, 100);
        assert!((-92..=-87).contains(&down), "{down}");
    }

    #[test]
    fn pawn_and_piece_keys_follow_the_board() {
        let pos = Position::startpos();
        let a = CorrKeys::of(&pos, 0, 0);
        let mut p2 = pos.clone();
        let moves = p2.legal_moves();
        let pawn_push = *moves
            .iter()
            .find(|m| !m.is_drop() && p2.piece_on(m.from()).piece_type() == PieceType::PAWN)
            .unwrap();
        p2.do_move(pawn_push);
        // The same side to move, so that the entries compare the keys alone.
        p2.do_null_move();
        let b = CorrKeys::of(&p2, 0, 0);
        assert_ne!(a.idx[2], b.idx[2], "the pawns moved");
        assert_eq!(a.idx[3..], b.idx[3..], "no other piece moved");
    }
}
