//! Training positions as HalfKP features: the indices of Hayate's loader
//! ([`hayate_eval::nnue::features::active`]), kept compact (king square + BonaPiece per
//! perspective), and the rows they touch, with the optional factor rows.
//!
//! Factorised features: besides its HalfKP row `k * 1548 + p`, every active feature also
//! touches a P-only row (`INPUTS + p`, shared by all king squares) and a K-only row
//! (`INPUTS + 1548 + k`, shared by all pieces). The effective HalfKP weight is the sum of the
//! three, which is what export folds into the file.

use hayate_core::{Color, Position};
use hayate_eval::nnue::arch::{FE_END, INPUTS, SQ_NB};
use hayate_eval::nnue::features::{MAX_ACTIVE, active, king_offset};

/// Rows of the factor blocks (P-only, then K-only), appended after the HalfKP rows.
pub const FACTOR_ROWS: usize = FE_END + SQ_NB;

/// Feature-transformer rows of a model.
pub const fn ft_rows(factorised: bool) -> usize {
    if factorised {
        INPUTS + FACTOR_ROWS
    } else {
        INPUTS
    }
}

/// The most rows one perspective touches (38 pieces, three rows each when factorised).
pub const MAX_ROWS: usize = 3 * MAX_ACTIVE;

/// One training position: both perspectives' features (side to move first), the score and
/// the game result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// BonaPieces of the side to move's (`[0]`) and the opponent's (`[1]`) perspective.
    bona: [[u16; MAX_ACTIVE]; 2],
    /// King squares (rotated for White) of the two perspectives.
    king: [u8; 2],
    /// Active features per perspective.
    len: [u8; 2],
    /// Search score from the side to move's view.
    pub score: i16,
    /// Game result from the side to move's view, doubled: 2 win, 1 draw, 0 loss.
    pub result2: u8,
}

impl Sample {
    /// The features of `pos` with its score and result (1 win, 0 draw, -1 loss, side to
    /// move's view); `None` without both kings.
    pub fn new(pos: &Position, score: i16, result: i8) -> Option<Sample> {
        let stm = pos.side_to_move();
        let mut s = Sample {
            bona: [[0; MAX_ACTIVE]; 2],
            king: [0; 2],
            len: [0; 2],
            score,
            result2: (result.clamp(-1, 1) + 1) as u8,
        };
        for (slot, p) in [stm, !stm].into_iter().enumerate() {
            let list = active(pos, p)?;
            let k = king_offset(p, pos.king_square(p)?) / FE_END;
            s.king[slot] = k as u8;
            s.len[slot] = list.as_slice().len() as u8;
            for (b, &f) in s.bona[slot].iter_mut().zip(list.as_slice()) {
                debug_assert_eq!(f as usize / FE_END, k);
                *b = (f as usize % FE_END) as u16;
            }
        }
        Some(s)
    }

    /// The game result as a probability (1, 0.5, 0).
    pub fn result(&self) -> f32 {
        self.result2 as f32 * 0.5
    }

    /// The HalfKP indices of perspective `slot` (0 side to move, 1 opponent).
    pub fn halfkp(&self, slot: usize) -> impl Iterator<Item = usize> + '_ {
        let k = self.king[slot] as usize * FE_END;
        self.bona[slot][..self.len[slot] as usize]
            .iter()
            .map(move |&b| k + b as usize)
    }

    /// Writes the feature-transformer rows perspective `slot` touches into `out` and returns
    /// how many (with the factor rows when `factorised`).
    pub fn rows(&self, slot: usize, factorised: bool, out: &mut [u32; MAX_ROWS]) -> usize {
        let k = self.king[slot] as usize;
        let n = self.len[slot] as usize;
        for (i, &b) in self.bona[slot][..n].iter().enumerate() {
            out[i] = (k * FE_END + b as usize) as u32;
            if factorised {
                out[n + i] = (INPUTS + b as usize) as u32;
                out[2 * n + i] = (INPUTS + FE_END + k) as u32;
            }
        }
        if factorised { 3 * n } else { n }
    }
}

/// The colour of perspective `slot` for a position whose side to move is `stm`.
pub fn perspective(stm: Color, slot: usize) -> Color {
    if slot == 0 { stm } else { !stm }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_has_38_features_per_side_and_both_sides_mirror() {
        let pos = Position::startpos();
        let s = Sample::new(&pos, 12, 1).expect("kings");
        let black: Vec<usize> = s.halfkp(0).collect();
        let white: Vec<usize> = s.halfkp(1).collect();
        assert_eq!((black.len(), white.len()), (38, 38));
        // The start position is symmetric: both perspectives see the same features.
        let (mut b, mut w) = (black.clone(), white);
        b.sort_unstable();
        w.sort_unstable();
        assert_eq!(b, w);
        let reference = active(&pos, Color::Black).expect("kings");
        let expect: Vec<usize> = reference.as_slice().iter().map(|&f| f as usize).collect();
        assert_eq!(black, expect);
        assert_eq!(s.result(), 1.0);
        let mut rows = [0u32; MAX_ROWS];
        assert_eq!(s.rows(0, true, &mut rows), 114);
        assert_eq!(rows[38] as usize, INPUTS + expect[0] % FE_END);
        assert_eq!(rows[76] as usize, INPUTS + FE_END + expect[0] / FE_END);
    }
}
