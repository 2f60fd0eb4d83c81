//! KKPEE9 against the reference column, and incremental == scratch along random games.

mod common;

use common::{Lcg, expected, positions};
use hayate_core::{Color, Position};
use hayate_eval::{EffectUpdate, Evaluator, Kkpee9};
use std::sync::OnceLock;

/// One table per test binary: it takes a moment to build.
fn kkpee9() -> &'static Kkpee9 {
    static K: OnceLock<Kkpee9> = OnceLock::new();
    K.get_or_init(Kkpee9::new)
}

#[test]
fn kkpee9_matches_reference_column_for_all_200_positions() {
    let sfens = positions();
    let want = expected(1);
    assert_eq!(sfens.len(), 200);
    assert_eq!(want.len(), 200);
    for update in [EffectUpdate::Incremental, EffectUpdate::AtEvaluation] {
        let k = kkpee9().with_update(update);
        let mut bad = Vec::new();
        for (s, &e) in sfens.iter().zip(&want) {
            let pos = Position::from_sfen(s).expect("valid sfen");
            let got = k.evaluate_once(&pos);
            if got != e {
                bad.push(format!("{s}: got {got}, want {e}"));
            }
        }
        assert!(
            bad.is_empty(),
            "{update:?}: {} wrong\n{}",
            bad.len(),
            bad.join("\n")
        );
    }
}

#[test]
fn kkpee9_incremental_equals_scratch_along_random_games() {
    let inc = kkpee9().with_update(EffectUpdate::Incremental);
    let lazy = kkpee9().with_update(EffectUpdate::AtEvaluation);
    let mut rng = Lcg(7);
    for game in 0..20 {
        let mut pos = Position::startpos();
        let (mut si, mut sl) = (inc.new_stack(), lazy.new_stack());
        inc.reset(&mut si, &pos);
        lazy.reset(&mut sl, &pos);
        let mut played = Vec::new();
        for _ in 0..300 {
            let Some(m) = rng.play_random(&mut pos) else {
                break;
            };
            inc.push(&mut si, &pos, m);
            lazy.push(&mut sl, &pos, m);
            played.push(m);
            let scratch = inc.evaluate_black(&pos);
            let stm = if pos.side_to_move() == Color::Black {
                1
            } else {
                -1
            };
            assert_eq!(
                inc.evaluate(&mut si, &pos) * stm,
                scratch,
                "game {game} {}",
                pos.to_sfen()
            );
            assert_eq!(lazy.evaluate(&mut sl, &pos) * stm, scratch);
        }
        // Unwind half the game: the frames below must still be right.
        for _ in 0..played.len() / 2 {
            let m = played.pop().expect("non-empty");
            pos.undo_move(m);
            inc.pop(&mut si);
            let stm = if pos.side_to_move() == Color::Black {
                1
            } else {
                -1
            };
            assert_eq!(inc.evaluate(&mut si, &pos) * stm, inc.evaluate_black(&pos));
        }
    }
}

/// The search's pattern: most frames are evaluated, some never (a TT cutoff), some only get
/// children (`prepare`, as before a move of a node in check), null moves on either kind.
#[test]
fn kkpee9_lazy_frames_equal_scratch_whatever_is_skipped() {
    let k = kkpee9().with_update(EffectUpdate::Incremental);
    let mut rng = Lcg(11);
    let view = |pos: &Position, v: i32| match pos.side_to_move() {
        Color::Black => v,
        Color::White => -v,
    };
    let (mut evaluated, mut from_scratch_parent) = (0, 0);
    for game in 0..20 {
        let mut pos = Position::startpos();
        let mut st = k.new_stack();
        k.reset(&mut st, &pos);
        let mut played = Vec::new();
        let mut prev_skipped = false;
        for ply in 0..300 {
            let action = rng.below(6);
            if action == 0 {
                k.prepare(&mut st, &pos);
            }
            let Some(m) = rng.play_random(&mut pos) else {
                break;
            };
            k.push(&mut st, &pos, m);
            played.push(m);
            if action == 1 {
                // A null move on top, evaluated, then taken back.
                pos.do_null_move();
                k.push_null(&mut st, &pos);
                let want = k.evaluate_black(&pos);
                assert_eq!(
                    view(&pos, k.evaluate(&mut st, &pos)),
                    want,
                    "null {game} {ply}"
                );
                pos.undo_null_move();
                k.pop(&mut st);
            }
            let skip = action == 2 || action == 3;
            if !skip {
                let want = k.evaluate_black(&pos);
                assert_eq!(
                    view(&pos, k.evaluate(&mut st, &pos)),
                    want,
                    "game {game} {ply}"
                );
                evaluated += 1;
                from_scratch_parent += (prev_skipped && action != 0) as u32;
            }
            prev_skipped = skip;
        }
        // Unwind: frames left unready below must still come out right.
        while let Some(m) = played.pop() {
            pos.undo_move(m);
            k.pop(&mut st);
            if rng.below(3) == 0 {
                let want = k.evaluate_black(&pos);
                assert_eq!(view(&pos, k.evaluate(&mut st, &pos)), want, "unwind {game}");
            }
        }
    }
    assert!(
        evaluated > 3000 && from_scratch_parent > 500,
        "{evaluated} {from_scratch_parent}"
    );
}

#[test]
fn kkpee9_without_a_king_is_material() {
    use hayate_eval::Material;
    let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").expect("valid");
    for update in [EffectUpdate::Incremental, EffectUpdate::AtEvaluation] {
        let k = kkpee9().with_update(update);
        assert_eq!(k.evaluate_once(&pos), Material.evaluate_once(&pos));
        let mut st = k.new_stack();
        k.reset(&mut st, &pos);
        let mut pos = pos.clone();
        for m in pos
            .legal_moves()
            .iter()
            .take(5)
            .copied()
            .collect::<Vec<_>>()
        {
            pos.do_move(m);
            k.push(&mut st, &pos, m);
            assert_eq!(k.evaluate(&mut st, &pos), Material.evaluate_once(&pos));
            k.pop(&mut st);
            pos.undo_move(m);
        }
    }
}
