//! Training data made by Hayate: αβ self-play (material evaluation, fixed depth) written as
//! dlshogi hcpe records (position, search score, best move, game result).
//! `cargo run --release -p hayate-train --example selfplay_hcpe -- OUT.hcpe GAMES DEPTH SEED`
//!
//! Each game starts with 8 random plies (for variety, not recorded), then both sides play the
//! αβ best move under the one game runner (`hayate_core::game`: mate, repetition, perpetual
//! check, verified declarations); it is a draw at 160 plies after the opening.
//! (`hayate selfplay` is the full tool: shards, threads, psv.)

use hayate_core::game::{GameRules, Side, play_game};
use hayate_core::player::{Limits, Score};
use hayate_core::{Color, Position};
use hayate_eval::Material;
use hayate_records::{AperyMove16, GameResult, Hcp, Hcpe, RecordWriter};
use hayate_search::{AlphaBeta, Options};
use std::io::BufWriter;

const RANDOM_PLIES: usize = 8;

fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn random_opening(rng: &mut u64) -> Vec<hayate_core::Move> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for _ in 0..RANDOM_PLIES {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal.as_slice()[(next(rng) % legal.len() as u64) as usize];
        pos.do_move(m);
        moves.push(m);
    }
    moves
}

fn side<'a>(player: &'a mut AlphaBeta<Material>, limits: &Limits) -> Side<'a> {
    Side {
        player,
        time_control: None,
        limits: limits.clone(),
    }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let out = args.get(1).map_or("selfplay.hcpe", String::as_str);
    let games: usize = args.get(2).map_or(Ok(100), |s| s.parse())?;
    let depth: u32 = args.get(3).map_or(Ok(3), |s| s.parse())?;
    let mut rng: u64 = args.get(4).map_or(Ok(1), |s| s.parse())?;
    let options = Options {
        hash_mb: 16,
        ..Options::default()
    };
    let mut players = [
        AlphaBeta::with_options(Material, options.clone()),
        AlphaBeta::with_options(Material, options),
    ];
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut w = RecordWriter::new(BufWriter::new(std::fs::File::create(out)?));
    let (mut positions, mut decided) = (0usize, 0usize);
    let started = std::time::Instant::now();
    for _ in 0..games {
        let opening = random_opening(&mut rng);
        let rules = GameRules {
            max_plies: opening.len() + 160,
            ..GameRules::default()
        };
        let [pb, pw] = &mut players;
        let sides = [side(pb, &limits), side(pw, &limits)];
        let g = play_game(&Position::startpos(), &opening, sides, &rules);
        let result = match g.result.winner() {
            None => GameResult::Draw,
            Some(Color::Black) => GameResult::BlackWin,
            Some(Color::White) => GameResult::WhiteWin,
        };
        if result != GameResult::Draw {
            decided += 1;
        }
        let mut records = Vec::new();
        g.replay(|pos, m| {
            if m.time_ms.is_some() {
                let eval = match m.info.score {
                    Some(Score::Cp(v)) => v.clamp(-30000, 30000),
                    Some(Score::Mate(n)) if n > 0 => 30000,
                    Some(Score::Mate(_)) => -30000,
                    None => 0,
                };
                records.push((Hcp::from_position(pos), eval as i16, m.mv));
            }
        });
        for (hcp, eval, m) in records {
            w.write(&Hcpe {
                hcp: hcp?,
                eval,
                best_move16: AperyMove16::from_move(m),
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
