//! prelude's 95 input tokens for a gMLP over the board.
//!
//! No public code of prelude exists; this is the seed's description with a fixed vocabulary.
//! Tokens, from the side to move's view (board rotated 180° when White is to move):
//! - tokens 0..81: the squares in index order 1一, 1二, …, 1九, 2一, …, 9九 (index
//!   `(file - 1) * 9 + rank - 1` of the relative square), each a piece id:
//!   0 empty, 1..=14 own piece of type code 1..=14 (P L N S B R G K +P +L +N +S +B +R),
//!   15..=28 opponent piece of type code `id - 14`;
//! - tokens 81..88: own hand counts, 88..95 opponent hand counts, each in HandPiece order
//!   P L N S G B R, as id `29 + count` (count 0..=18).
//!
//! The shared vocabulary therefore has [`PRELUDE_VOCAB`] = 29 + 19 = 48 ids.

use crate::features::HAND_PIECE_ORDER;
use crate::orient::orient_square;
use hayate_core::{Position, Square};

/// Number of tokens.
pub const PRELUDE_TOKENS: usize = 95;
/// Number of piece ids (empty, 14 own, 14 opponent).
pub const PRELUDE_PIECE_IDS: usize = 29;
/// Id of a hand count of zero; count `n` is `PRELUDE_HAND_BASE + n`.
pub const PRELUDE_HAND_BASE: u8 = PRELUDE_PIECE_IDS as u8;
/// Largest hand count (18 pawns).
pub const PRELUDE_MAX_HAND_COUNT: usize = 18;
/// Vocabulary size.
pub const PRELUDE_VOCAB: usize = PRELUDE_PIECE_IDS + PRELUDE_MAX_HAND_COUNT + 1;

/// The 95 tokens of `pos`.
pub fn prelude_tokens(pos: &Position) -> [u8; PRELUDE_TOKENS] {
    let us = pos.side_to_move();
    let mut t = [0u8; PRELUDE_TOKENS];
    for (i, tok) in t.iter_mut().take(81).enumerate() {
        let pc = pos.piece_on(orient_square(Square::new(i as u8), us));
        if !pc.is_empty() {
            let code = pc.piece_type().raw();
            *tok = if pc.color() == us { code } else { code + 14 };
        }
    }
    for (rel, c) in [us, !us].into_iter().enumerate() {
        let hand = pos.hand(c);
        for (j, pt) in HAND_PIECE_ORDER.iter().enumerate() {
            let n = (hand.count(*pt) as usize).min(PRELUDE_MAX_HAND_COUNT);
            t[81 + rel * 7 + j] = PRELUDE_HAND_BASE + n as u8;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_tokens() {
        let t = prelude_tokens(&Position::startpos());
        // 1九 (index 8) holds the own lance, 1一 (index 0) the opponent's.
        assert_eq!(t[8], 2);
        assert_eq!(t[0], 2 + 14);
        // 5九 own king, 5一 opponent king.
        assert_eq!(t[4 * 9 + 8], 8);
        assert_eq!(t[4 * 9], 8 + 14);
        assert!(t[81..].iter().all(|&x| x == PRELUDE_HAND_BASE));
        assert!(t.iter().all(|&x| (x as usize) < PRELUDE_VOCAB));
    }
}
