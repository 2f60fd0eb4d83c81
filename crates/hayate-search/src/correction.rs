//! Correction history: how far the search's result has been from the static eval, learnt per
//! feature of the position and added to later static evals. The features: the hands (both
//! sides' pieces in hand, through the hand key), the move that led here (its piece and
//! destination), the pawns of both colours (Stockfish's pawn structure), and for each colour
//! the squares of its other pieces (Stockfish's non-pawn key, by occupancy).

use crate::history::ContKey;
use crate::value::Value;
use hayate_core::{Bitboard, Color, PieceType, Position};

const HAND_SIZE: usize = 1 << 14;
const CONT_SIZE: usize = hayate_core::Piece::NUM * 81 + 1;
const BOARD_SIZE: usize = 1 << 14;
/// Entries stay within ±this (in 1/32 of an eval unit: at most ±32 units each).
const LIMIT: i32 = 1024;

/// What a node's corrections are looked up by.
#[derive(Clone, Copy, Debug, Default)]
pub struct CorrKeys {
    us: usize,
    hand: usize,
    prev: ContKey,
    pawns: usize,
    /// By colour: the squares of its pieces other than pawns.
    others: [usize; 2],
}

#[inline(always)]
fn mix(b: Bitboard, salt: u64) -> usize {
    let lo = (b.0 as u64) ^ salt;
    let hi = (b.0 >> 64) as u64;
    let h = lo.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    ((h ^ (h >> 32)) as usize) & (BOARD_SIZE - 1)
}

impl CorrKeys {
    /// The keys of `pos` reached by the move whose continuation block is `prev`.
    #[inline(always)]
    pub fn of(pos: &Position, prev: ContKey) -> CorrKeys {
        let pawns = pos.pieces_of_type(PieceType::PAWN);
        let black = pos.pieces(Color::Black);
        let pawn_key = mix(pawns & black, 0) ^ mix(pawns & !black, 0x5555);
        CorrKeys {
            us: pos.side_to_move().index(),
            hand: pos.hand_key() as usize & (HAND_SIZE - 1),
            prev,
            pawns: pawn_key,
            others: [
                mix(black & !pawns, 0),
                mix(pos.pieces(Color::White) & !pawns, 0xAAAA),
            ],
        }
    }
}

/// The correction tables of one search thread.
pub struct Correction {
    hand: Vec<i16>,
    cont: Vec<i16>,
    pawns: Vec<i16>,
    /// [side to move][colour whose pieces the key describes][key].
    others: Vec<i16>,
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
            pawns: vec![0; 2 * BOARD_SIZE],
            others: vec![0; 4 * BOARD_SIZE],
        }
    }

    /// Clears everything (new game).
    pub fn clear(&mut self) {
        self.hand.fill(0);
        self.cont.fill(0);
        self.pawns.fill(0);
        self.others.fill(0);
    }

    #[inline(always)]
    fn idx(k: &CorrKeys) -> [(usize, usize); 5] {
        [
            (0, k.us * HAND_SIZE + k.hand),
            (1, k.us * CONT_SIZE + k.prev),
            (2, k.us * BOARD_SIZE + k.pawns),
            (3, (k.us * 2) * BOARD_SIZE + k.others[0]),
            (3, (k.us * 2 + 1) * BOARD_SIZE + k.others[1]),
        ]
    }

    #[inline(always)]
    fn table(&mut self, t: usize) -> &mut [i16] {
        match t {
            0 => &mut self.hand,
            1 => &mut self.cont,
            2 => &mut self.pawns,
            _ => &mut self.others,
        }
    }

    /// `raw` corrected for the node with keys `k`.
    #[inline(always)]
    pub fn adjust(&self, k: &CorrKeys, raw: Value) -> Value {
        let sum = i32::from(self.hand[k.us * HAND_SIZE + k.hand])
            + i32::from(self.cont[k.us * CONT_SIZE + k.prev])
            + i32::from(self.pawns[k.us * BOARD_SIZE + k.pawns])
            + i32::from(self.others[(k.us * 2) * BOARD_SIZE + k.others[0]])
            + i32::from(self.others[(k.us * 2 + 1) * BOARD_SIZE + k.others[1]]);
        raw + sum / 32
    }

    /// Learns that a search to `depth` found `diff` = result − corrected static eval.
    #[inline(always)]
    pub fn update(&mut self, k: &CorrKeys, diff: Value, depth: i32) {
        let bonus = (diff * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        for (t, i) in Self::idx(k) {
            gravity(&mut self.table(t)[i], bonus);
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

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let mut c = Correction::new();
        let pos = Position::startpos();
        let k = CorrKeys::of(&pos, 3);
        assert_eq!(c.adjust(&k, 100), 100);
        for _ in 0..1000 {
            c.update(&k, 500, 10);
        }
        // All five tables near +LIMIT: +32 units each.
        let up = c.adjust(&k, 100);
        assert!((255..=260).contains(&up), "{up}");
        let other_side = CorrKeys { us: 1, ..k };
        assert_eq!(c.adjust(&other_side, 100), 100, "per side to move");
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
        let k2 = CorrKeys::of(&moved, 4);
        assert_eq!(k2.us, k.us);
        let learnt = c.adjust(&k2, 100) - 100;
        assert!(
            (94..=96).contains(&learnt),
            "three of five tables shared: {learnt}"
        );
        for _ in 0..1000 {
            c.update(&k, -500, 10);
        }
        let down = c.adjust(&k, 100);
        assert!((-60..=-55).contains(&down), "{down}");
    }

    #[test]
    fn pawn_and_piece_keys_follow_the_board() {
        let pos = Position::startpos();
        let a = CorrKeys::of(&pos, 0);
        let mut p2 = pos.clone();
        let moves = p2.legal_moves();
        let pawn_push = *moves
            .iter()
            .find(|m| !m.is_drop() && p2.piece_on(m.from()).piece_type() == PieceType::PAWN)
            .unwrap();
        p2.do_move(pawn_push);
        let b = CorrKeys::of(&p2, 0);
        assert_ne!(a.pawns, b.pawns);
        assert_eq!(a.others, b.others, "no other piece moved");
    }
}
