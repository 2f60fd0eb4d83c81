//! Generated training data for tests and throughput measurements: positions from seeded
//! random games with fixed, learnable targets.

use crate::data::TrainData;
use hayate_core::{Color, Position};
use hayate_nn::dataset::Sample;
use hayate_nn::move_label;
use hayate_records::Hcp;

fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `n` samples from random games (seeded; at most 60 plies per game). Each target is
/// one-hot on a random legal move, which is then played; the game result is a coin flip per
/// game, the eval value a random number in (0.05, 0.95).
pub fn random_games(n: usize, seed: u64) -> TrainData {
    let mut rng = seed ^ 0xD1B5_4A32_D192_ED03;
    let mut samples = Vec::with_capacity(n);
    'games: while samples.len() < n {
        let mut pos = Position::startpos();
        let black_wins = next(&mut rng) & 1 == 0;
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() || samples.len() >= n {
                continue 'games;
            }
            let m = moves.as_slice()[(next(&mut rng) % moves.len() as u64) as usize];
            let Ok(hcp) = Hcp::from_position(&pos) else {
                continue 'games;
            };
            let side = pos.side_to_move();
            let result = if black_wins == (side == Color::Black) {
                1.0
            } else {
                0.0
            };
            samples.push(Sample {
                hcp,
                ply: pos.game_ply().min(u32::from(u16::MAX)) as u16,
                policy: vec![(move_label(m, side), 1.0)],
                value: 0.05 + 0.9 * (next(&mut rng) % 1000) as f32 / 1000.0,
                result,
                novice: None,
            });
            pos.do_move(m);
        }
    }
    TrainData::new(samples)
}
