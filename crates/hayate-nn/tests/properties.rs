//! Properties over random positions (seeded random play): label ↔ move round trips, the label
//! set of a position is exactly what `label_to_move` accepts, and the colour-flipped position
//! has the same side-to-move-relative inputs.

use hayate_core::sfen::hand_text;
use hayate_core::{Color, Position, Square};
use hayate_nn::compact_label;
use hayate_nn::cshogi_order::cshogi_legal_order;
use hayate_nn::novice::{NOVICE_CHANNELS, NoviceConfig, NoviceTargets, write_novice_features};
use hayate_nn::prelude::prelude_tokens;
use hayate_nn::{DlshogiFeatures, LABEL_NUM, label_to_move, move_label};

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Positions along seeded random games (captures preferred so hands fill up).
fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = XorShift(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let caps: Vec<_> = moves.iter().copied().filter(|m| m.is_capture()).collect();
            let m = if !caps.is_empty() && rng.next().is_multiple_of(3) {
                caps[(rng.next() % caps.len() as u64) as usize]
            } else {
                moves[(rng.next() % moves.len() as u64) as usize]
            };
            pos.do_move(m);
            out.push(pos.without_history());
        }
    }
    out
}

/// The same position with colours swapped and the board rotated 180°.
fn flipped(pos: &Position) -> Position {
    let mut board = String::new();
    for rank in 1..=9u8 {
        let mut empty = 0;
        for file in (1..=9u8).rev() {
            let sq = Square::from_file_rank(file, rank).expect("square");
            let pc = pos.piece_on(sq.inv());
            if pc.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            board.push_str(&pc.flip_color().to_sfen());
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if rank < 9 {
            board.push('/');
        }
    }
    let side = if pos.side_to_move() == Color::Black {
        "w"
    } else {
        "b"
    };
    let hands = hand_text(pos.hand(Color::White), pos.hand(Color::Black));
    let sfen = format!("{board} {side} {hands} {}", pos.game_ply());
    Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e:?}"))
}

#[test]
fn label_round_trips_and_label_set_is_exact() {
    let positions = random_positions(0x5eed_1234_abcd_0001, 12, 160);
    assert!(positions.len() > 1000);
    let mut moves_checked = 0;
    for (i, pos) in positions.iter().enumerate() {
        let us = pos.side_to_move();
        // cshogi's order is a permutation of the legal moves.
        let mut ordered: Vec<u16> = cshogi_legal_order(pos)
            .iter()
            .map(|m| m.to_move16().0)
            .collect();
        let mut legal: Vec<u16> = pos.legal_moves().iter().map(|m| m.to_move16().0).collect();
        ordered.sort_unstable();
        legal.sort_unstable();
        assert_eq!(ordered, legal, "{}", pos.to_sfen());
        let mut seen = vec![false; LABEL_NUM];
        for &m in pos.legal_moves().iter() {
            let l = move_label(m, us);
            assert!(
                !seen[l as usize],
                "two moves with label {l} in {}",
                pos.to_sfen()
            );
            seen[l as usize] = true;
            assert!(
                compact_label(l).is_some(),
                "legal move {m} has a non-compact label {l}"
            );
            assert_eq!(label_to_move(pos, l), Some(m), "{} {m}", pos.to_sfen());
            moves_checked += 1;
        }
        // Every fifth position: no other label decodes to a move.
        if i.is_multiple_of(5) {
            for l in 0..LABEL_NUM as u16 {
                assert_eq!(
                    label_to_move(pos, l).is_some(),
                    seen[l as usize],
                    "label {l} in {}",
                    pos.to_sfen()
                );
            }
        }
    }
    assert!(moves_checked > 50_000, "{moves_checked}");
}

#[test]
fn colour_flipped_positions_give_the_same_relative_inputs() {
    let cfg = NoviceConfig {
        max_plies: 256,
        draw_score_black: 0.5,
        draw_score_white: 0.5,
    };
    let mut a = vec![0.0; NOVICE_CHANNELS * 81];
    let mut b = vec![0.0; NOVICE_CHANNELS * 81];
    for pos in random_positions(0xf11f_0000_0000_0077, 6, 200) {
        let flip = flipped(&pos);
        assert_eq!(flipped(&flip).to_sfen(), pos.to_sfen());
        let sfen = pos.to_sfen();
        assert_eq!(
            DlshogiFeatures::new(&pos, false),
            DlshogiFeatures::new(&flip, false),
            "{sfen}"
        );
        // The entering-king planes are not colour-symmetric: Black needs 28 points, White 27,
        // so the same material puts Black's "points still needed" plane one further.
        let (fa, fb) = (
            DlshogiFeatures::new(&pos, true),
            DlshogiFeatures::new(&flip, true),
        );
        assert_eq!(fa.input1_planes(), fb.input1_planes());
        let score = |bits: u128, base: usize| (bits >> (base + 11)) & ((1 << 20) - 1);
        let mut rest_a = fa.input2_bits();
        let mut rest_b = fb.input2_bits();
        for (rel, base) in [(0, 57), (1, 88)] {
            let (sa, sb) = (score(rest_a, base), score(rest_b, base));
            rest_a &= !(((1u128 << 20) - 1) << (base + 11));
            rest_b &= !(((1u128 << 20) - 1) << (base + 11));
            let black_is_a = (pos.side_to_move() == Color::Black) == (rel == 0);
            let (black, white) = if black_is_a { (sa, sb) } else { (sb, sa) };
            assert_eq!(black >> 1, white & ((1 << 19) - 1), "{sfen}");
        }
        assert_eq!(rest_a, rest_b, "{sfen}");
        assert_eq!(prelude_tokens(&pos), prelude_tokens(&flip));
        assert_eq!(NoviceTargets::new(&pos), NoviceTargets::new(&flip));
        write_novice_features(&pos, &cfg, &mut a);
        write_novice_features(&flip, &cfg, &mut b);
        // Identical except the two absolute side-to-move channels, which swap.
        for ch in 0..NOVICE_CHANNELS {
            let other = match ch {
                76 => 77,
                77 => 76,
                c => c,
            };
            assert_eq!(
                a[ch * 81..(ch + 1) * 81],
                b[other * 81..(other + 1) * 81],
                "channel {ch}"
            );
        }
        // Corresponding moves carry the same label.
        let (us, them) = (pos.side_to_move(), flip.side_to_move());
        let mut la: Vec<u16> = pos
            .legal_moves()
            .iter()
            .map(|m| move_label(*m, us))
            .collect();
        let mut lb: Vec<u16> = flip
            .legal_moves()
            .iter()
            .map(|m| move_label(*m, them))
            .collect();
        la.sort_unstable();
        lb.sort_unstable();
        assert_eq!(la, lb);
    }
}
