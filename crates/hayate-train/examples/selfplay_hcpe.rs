//! Training data made by Hayate: αβ self-play (material evaluation, fixed depth) written as
//! dlshogi hcpe records (position, search score, best move, game result).
//! `cargo run --release -p hayate-train --example selfplay_hcpe -- OUT.hcpe GAMES DEPTH SEED`
//!
//! Each game starts with 8 random plies (for variety, not recorded), then both sides play the
//! αβ best move; it ends by resignation/mate, a declaration, or a draw at 160 plies.

use hayate_core::player::{BestMove, Info, Limits, Player, Score, Signals};
use hayate_core::{Color, Position};
use hayate_eval::Material;
use hayate_records::{AperyMove16, GameResult, Hcp, Hcpe, RecordWriter};
use hayate_search::{AlphaBeta, Options};
use std::io::BufWriter;

fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let out = args.get(1).map_or("selfplay.hcpe", String::as_str);
    let games: usize = args.get(2).map_or(Ok(100), |s| s.parse())?;
    let depth: u32 = args.get(3).map_or(Ok(3), |s| s.parse())?;
    let mut rng: u64 = args.get(4).map_or(Ok(1), |s| s.parse())?;
    let mut player = AlphaBeta::with_options(
        Material,
        Options {
            hash_mb: 16,
            ..Options::default()
        },
    );
    let mut w = RecordWriter::new(BufWriter::new(std::fs::File::create(out)?));
    let (mut positions, mut decided) = (0usize, 0usize);
    let started = std::time::Instant::now();
    for _ in 0..games {
        player.new_game();
        let mut pos = Position::startpos();
        for _ in 0..8 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves.as_slice()[(next(&mut rng) % moves.len() as u64) as usize]);
        }
        let mut records: Vec<(Hcp, i16, AperyMove16)> = Vec::new();
        let mut result = GameResult::Draw;
        for _ in 0..160 {
            if pos.legal_moves().is_empty() {
                result = winner(!pos.side_to_move());
                break;
            }
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let signals = Signals::new();
            let mut score = 0i32;
            let best = player.think(&pos, &limits, &signals, &mut |i: &Info| {
                if let Some(s) = i.score {
                    score = match s {
                        Score::Cp(v) => v,
                        Score::Mate(n) if n > 0 => 30000,
                        Score::Mate(_) => -30000,
                    };
                }
            });
            match best {
                BestMove::Move { best, .. } => {
                    let hcp = Hcp::from_position(&pos)?;
                    records.push((
                        hcp,
                        score.clamp(-30000, 30000) as i16,
                        AperyMove16::from_move(best),
                    ));
                    pos.do_move(best);
                }
                BestMove::Resign => {
                    result = winner(!pos.side_to_move());
                    break;
                }
                BestMove::Win => {
                    result = winner(pos.side_to_move());
                    break;
                }
            }
        }
        if result != GameResult::Draw {
            decided += 1;
        }
        for (hcp, eval, m) in records {
            w.write(&Hcpe {
                hcp,
                eval,
                best_move16: m,
                result: result as u8,
                padding: 0,
            })?;
            positions += 1;
        }
    }
    w.flush()?;
    eprintln!(
        "{games} games ({decided} decided), {positions} positions -> {out} in {:.1}s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn winner(c: Color) -> GameResult {
    match c {
        Color::Black => GameResult::BlackWin,
        Color::White => GameResult::WhiteWin,
    }
}
