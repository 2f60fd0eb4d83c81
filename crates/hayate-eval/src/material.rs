//! Material: piece values on the board and in hand, kept incrementally.

use crate::Evaluator;
use hayate_core::{Color, Move, Piece, PieceType, Position, Square};

/// Piece values by type code (pawn = 90), as in YaneuraOu's material evaluation.
pub const PIECE_VALUE: [i32; 15] = [
    0, 90, 315, 405, 495, 855, 990, 540, 15000, 540, 540, 540, 540, 945, 1395,
];

/// Value of a piece from Black's view (White's pieces negative).
#[inline(always)]
pub fn signed_value(pc: Piece) -> i32 {
    let v = PIECE_VALUE[pc.piece_type().index()];
    if pc.color() == Color::White { -v } else { v }
}

/// Material from Black's view, computed from scratch.
pub fn material_black(pos: &Position) -> i32 {
    let mut v = 0;
    for sq in Square::all() {
        let pc = pos.piece_on(sq);
        if !pc.is_empty() {
            v += signed_value(pc);
        }
    }
    for pt in PieceType::HAND_TYPES {
        let d = pos.hand(Color::Black).count(pt) as i32 - pos.hand(Color::White).count(pt) as i32;
        v += d * PIECE_VALUE[pt.index()];
    }
    v
}

/// The change in Black-view material made by `m` (read from the move's piece fields).
#[inline(always)]
pub fn material_delta(m: Move) -> i32 {
    if m.is_drop() {
        return 0;
    }
    let mut d = 0;
    let cap = m.captured();
    if !cap.is_empty() {
        // The captured piece leaves the board and joins the capturer's hand unpromoted.
        let hand_value = PIECE_VALUE[cap.piece_type().unpromoted().index()];
        d -= signed_value(cap);
        d += if cap.color() == Color::White {
            hand_value
        } else {
            -hand_value
        };
    }
    if m.is_promotion() {
        let pc = m.moved_piece();
        d += signed_value(pc.promoted()) - signed_value(pc);
    }
    d
}

/// The material evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Material;

impl Evaluator for Material {
    type Stack = Vec<i32>;
    fn name(&self) -> &'static str {
        "material"
    }
    fn new_stack(&self) -> Vec<i32> {
        Vec::with_capacity(256)
    }
    fn reset(&self, stack: &mut Vec<i32>, pos: &Position) {
        stack.clear();
        stack.push(material_black(pos));
    }
    #[inline]
    fn push(&self, stack: &mut Vec<i32>, _pos: &Position, m: Move) {
        let top = stack.last().copied().unwrap_or(0);
        stack.push(top + material_delta(m));
    }
    fn push_null(&self, stack: &mut Vec<i32>, _pos: &Position) {
        let top = stack.last().copied().unwrap_or(0);
        stack.push(top);
    }
    #[inline]
    fn pop(&self, stack: &mut Vec<i32>) {
        stack.pop();
    }
    #[inline]
    fn evaluate(&self, stack: &mut Vec<i32>, pos: &Position) -> i32 {
        let v = stack.last().copied().unwrap_or_else(|| material_black(pos));
        if pos.side_to_move() == Color::Black {
            v
        } else {
            -v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(name: &str) -> Vec<String> {
        let p = format!(
            "{}/../../../shared/data/eval/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(p)
            .expect("shared eval data")
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn material_matches_reference_column() {
        let sfens = lines("positions.sfen");
        let expected: Vec<i32> = lines("expected.txt")
            .iter()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(sfens.len(), 200);
        for (s, e) in sfens.iter().zip(&expected) {
            let pos = Position::from_sfen(s).unwrap();
            assert_eq!(Material.evaluate_once(&pos), *e, "{s}");
        }
    }

    #[test]
    fn incremental_material_equals_scratch_along_random_games() {
        let mut pos = Position::startpos();
        let mut st = Material.new_stack();
        Material.reset(&mut st, &pos);
        let mut seed = 12345u64;
        for _ in 0..400 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = moves[(seed >> 33) as usize % moves.len()];
            pos.do_move(m);
            Material.push(&mut st, &pos, m);
            let scratch = material_black(&pos);
            let inc = Material.evaluate(&mut st, &pos);
            assert_eq!(
                if pos.side_to_move() == Color::Black {
                    inc
                } else {
                    -inc
                },
                scratch
            );
        }
    }
}
