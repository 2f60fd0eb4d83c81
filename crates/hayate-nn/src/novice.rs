//! Novice's 85 input channels and its auxiliary targets.
//!
//! No public code of Novice exists; this layout follows the seed's table, from the side to move's
//! view (colour 0 = side to move, board rotated 180° when White is to move, as for dlshogi):
//!
//! | channels | contents |
//! |----------|----------|
//! | 0..14    | own pieces, one plane per type P L N S B R G K +P +L +N +S +B +R |
//! | 14..28   | opponent pieces, same order |
//! | 28..52   | own hand, thermometers in HandPiece order P L N S G (4 each, counts capped at 4), B R (2 each) |
//! | 52..76   | opponent hand, same layout |
//! | 76, 77   | side to move: 76 all ones when Black is to move, 77 when White is |
//! | 78       | the side to move is in check |
//! | 79, 80   | own / opponent unpromoted pawn on the file (every square of such a file set) |
//! | 81       | current ply / max plies (clamped to 1) |
//! | 82       | 1 / max plies |
//! | 83, 84   | draw score for the side to move / for the opponent |
//!
//! Auxiliary targets ([`NoviceTargets`]): for each side (own, opponent), the squares it attacks
//! (9×9×2), and the declaration class ([`DeclarationClass`]).

use crate::features::HAND_PIECE_ORDER;
use crate::orient::orient;
use hayate_core::{Bitboard, Color, DeclarationRule, PieceType, Position, attacks};

/// Number of Novice input channels.
pub const NOVICE_CHANNELS: usize = 85;
/// Thermometer length per hand type in HandPiece order (P L N S G B R).
pub const NOVICE_HAND_PLANES: [usize; 7] = [4, 4, 4, 4, 4, 2, 2];
/// Hand channels per side.
pub const NOVICE_HAND_PER_COLOR: usize = 24;
/// First channel of the own hand.
pub const NOVICE_HAND_BASE: usize = 28;
/// Channel set when Black is to move (the next one when White is).
pub const NOVICE_SIDE_BASE: usize = 76;
/// In-check channel.
pub const NOVICE_IN_CHECK: usize = 78;
/// Own pawn-file channel (the opponent's is the next).
pub const NOVICE_PAWN_FILE_BASE: usize = 79;
/// Ply / max plies channel.
pub const NOVICE_PLY: usize = 81;
/// 1 / max plies channel.
pub const NOVICE_INV_MAX_PLIES: usize = 82;
/// Draw score of the side to move (the opponent's is the next).
pub const NOVICE_DRAW_BASE: usize = 83;

/// Game settings the scalar channels need.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NoviceConfig {
    /// The game's ply limit (a draw at this ply); must be at least 1.
    pub max_plies: u32,
    /// Value of a draw for Black, as the network should see it (for example 0.5, or less to
    /// discourage draws).
    pub draw_score_black: f32,
    /// Value of a draw for White.
    pub draw_score_white: f32,
}

impl Default for NoviceConfig {
    fn default() -> NoviceConfig {
        NoviceConfig {
            max_plies: 320,
            draw_score_black: 0.5,
            draw_score_white: 0.5,
        }
    }
}

/// Writes the 85 channels of `pos` into `out` (`[85][9][9]`, index `ch * 81 + sq`), overwriting
/// it. The ply is the SFEN move number of `pos`.
///
/// # Panics
/// If `out.len() != 85 * 81`.
pub fn write_novice_features(pos: &Position, cfg: &NoviceConfig, out: &mut [f32]) {
    assert_eq!(out.len(), NOVICE_CHANNELS * 81, "novice buffer length");
    out.fill(0.0);
    let us = pos.side_to_move();
    let set_bb = |out: &mut [f32], ch: usize, bb: Bitboard| {
        for sq in orient(bb, us) {
            out[ch * 81 + sq.index()] = 1.0;
        }
    };
    let fill = |out: &mut [f32], ch: usize, v: f32| out[ch * 81..(ch + 1) * 81].fill(v);
    for (rel, c) in [us, !us].into_iter().enumerate() {
        for code in 1..=14u8 {
            let Some(pt) = PieceType::from_u8(code) else {
                continue;
            };
            set_bb(out, rel * 14 + code as usize - 1, pos.pieces_of(c, pt));
        }
        let hand = pos.hand(c);
        let mut ch = NOVICE_HAND_BASE + rel * NOVICE_HAND_PER_COLOR;
        for (pt, &max) in HAND_PIECE_ORDER.iter().zip(NOVICE_HAND_PLANES.iter()) {
            let n = (hand.count(*pt) as usize).min(max);
            for i in 0..n {
                fill(out, ch + i, 1.0);
            }
            ch += max;
        }
        set_bb(out, NOVICE_PAWN_FILE_BASE + rel, pawn_file_squares(pos, c));
    }
    fill(out, NOVICE_SIDE_BASE + us.index(), 1.0);
    if pos.in_check() {
        fill(out, NOVICE_IN_CHECK, 1.0);
    }
    let max_plies = cfg.max_plies.max(1) as f32;
    fill(
        out,
        NOVICE_PLY,
        (pos.game_ply() as f32 / max_plies).min(1.0),
    );
    fill(out, NOVICE_INV_MAX_PLIES, 1.0 / max_plies);
    let (own, theirs) = match us {
        Color::Black => (cfg.draw_score_black, cfg.draw_score_white),
        Color::White => (cfg.draw_score_white, cfg.draw_score_black),
    };
    fill(out, NOVICE_DRAW_BASE, own);
    fill(out, NOVICE_DRAW_BASE + 1, theirs);
}

/// Every square of the files where `c` has an unpromoted pawn.
fn pawn_file_squares(pos: &Position, c: Color) -> Bitboard {
    let mut files = Bitboard::EMPTY;
    for sq in pos.pieces_of(c, PieceType::PAWN) {
        files |= Bitboard::file(sq.file());
    }
    files
}

/// What the entering-king declaration says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum DeclarationClass {
    /// Neither side meets the declaration conditions.
    None = 0,
    /// The side to move may declare a win now (27-point rule).
    SideToMove = 1,
    /// The opponent meets the conditions on material and placement (king in the camp, ten
    /// pieces there, enough points) and would win by declaring on its turn if not in check.
    Opponent = 2,
}

/// Number of declaration classes.
pub const DECLARATION_CLASSES: usize = 3;

/// Novice's auxiliary targets of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoviceTargets {
    /// Squares attacked by the side to move (index 0) and by the opponent (1), side-to-move
    /// relative like the inputs.
    pub effects: [Bitboard; 2],
    /// The declaration class.
    pub declaration: DeclarationClass,
}

impl NoviceTargets {
    /// Computes the targets of `pos`.
    pub fn new(pos: &Position) -> NoviceTargets {
        let us = pos.side_to_move();
        let occ = pos.occupied();
        let mut effects = [Bitboard::EMPTY; 2];
        for (rel, c) in [us, !us].into_iter().enumerate() {
            let mut e = Bitboard::EMPTY;
            for sq in pos.pieces(c) {
                e |= attacks(c, pos.piece_on(sq).piece_type(), sq, occ);
            }
            effects[rel] = orient(e, us);
        }
        let declaration = if pos.can_declare_win(DeclarationRule::Csa27) {
            DeclarationClass::SideToMove
        } else if meets_declaration_material(pos, !us) {
            DeclarationClass::Opponent
        } else {
            DeclarationClass::None
        };
        NoviceTargets {
            effects,
            declaration,
        }
    }

    /// Writes the effect planes as `f32` `[2][9][9]` into `out`, overwriting it.
    ///
    /// # Panics
    /// If `out.len() != 2 * 81`.
    pub fn write_effects(&self, out: &mut [f32]) {
        assert_eq!(out.len(), 2 * 81, "effects buffer length");
        for (plane, bb) in out.chunks_exact_mut(81).zip(self.effects.iter()) {
            for (i, v) in plane.iter_mut().enumerate() {
                *v = (bb.0 >> i & 1) as f32;
            }
        }
    }
}

/// The 27-point conditions other than "to move and not in check", for colour `c`.
fn meets_declaration_material(pos: &Position, c: Color) -> bool {
    let camp = match c {
        Color::Black => Bitboard::ranks(1, 3),
        Color::White => Bitboard::ranks(7, 9),
    };
    let Some(k) = pos.king_square(c) else {
        return false;
    };
    let (points, in_camp) = pos.declaration_points(c);
    let need = if c == Color::Black { 28 } else { 27 };
    camp.contains(k) && in_camp >= 10 && points >= need
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_channels() {
        let pos = Position::startpos();
        let mut out = vec![0.0; NOVICE_CHANNELS * 81];
        write_novice_features(&pos, &NoviceConfig::default(), &mut out);
        let plane_sum = |ch: usize| out[ch * 81..(ch + 1) * 81].iter().sum::<f32>();
        assert_eq!(plane_sum(0), 9.0); // own pawns
        assert_eq!(plane_sum(14), 9.0); // opponent pawns
        assert_eq!((28..76).map(plane_sum).sum::<f32>(), 0.0); // empty hands
        assert_eq!(plane_sum(NOVICE_SIDE_BASE), 81.0);
        assert_eq!(plane_sum(NOVICE_SIDE_BASE + 1), 0.0);
        assert_eq!(plane_sum(NOVICE_PAWN_FILE_BASE), 81.0);
        assert!((out[NOVICE_PLY * 81] - 1.0 / 320.0).abs() < 1e-7);
        let t = NoviceTargets::new(&pos);
        assert_eq!(t.declaration, DeclarationClass::None);
        // Black's pieces attack all of rank 6 (pawns) and its own camp in part.
        assert!(t.effects[0].contains(hayate_core::Square::from_file_rank(5, 6).unwrap()));
    }

    #[test]
    fn hand_thermometers_cap_at_four() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w 10P2Rg 1").unwrap();
        let mut out = vec![0.0; NOVICE_CHANNELS * 81];
        write_novice_features(&pos, &NoviceConfig::default(), &mut out);
        let on = |ch: usize| out[ch * 81] == 1.0;
        // White to move: own hand is one gold (channels 28 + 16).
        assert!(on(44) && !on(45));
        assert!(!on(28));
        // Opponent (Black): 10 pawns capped at 4, two rooks.
        assert!((52..56).all(on) && on(74) && on(75));
        assert!(on(NOVICE_SIDE_BASE + 1) && !on(NOVICE_SIDE_BASE));
    }
}
