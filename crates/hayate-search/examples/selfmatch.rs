//! An in-process match between two evaluations at equal limits, for strength checks:
//! `cargo run --release -p hayate-search --example selfmatch -- <games> <limitA> <limitB> [evalA] [evalB]`
//! with limits `nodes:N` or `depth:N` and evaluations `kkpee9` or `material`.
//! Openings are 6 random plies from the start, each played twice with colours swapped. Games are
//! played and adjudicated by the one game runner (`hayate_core::game`).

use hayate_core::game::{GameRules, Side, play_game};
use hayate_core::player::{Limits, Player};
use hayate_core::{Color, Position};
use hayate_eval::{Kkpee9, Material};
use hayate_search::{AlphaBeta, Options};

fn player(name: &str, table: &Kkpee9) -> Box<dyn Player> {
    let o = Options {
        hash_mb: 32,
        ..Options::default()
    };
    match name {
        "material" => Box::new(AlphaBeta::with_options(Material, o)),
        _ => Box::new(AlphaBeta::with_options(table.clone(), o)),
    }
}

fn opening(seed: u64) -> Position {
    let mut pos = Position::startpos();
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for _ in 0..6 {
        let moves = pos.legal_moves();
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        pos.do_move(moves[(s % moves.len() as u64) as usize]);
    }
    pos
}

/// 1 if `a` (playing `a_color`) wins, 0 for a loss, 0.5 for a draw.
fn game(
    a: &mut dyn Player,
    b: &mut dyn Player,
    a_color: Color,
    start: &Position,
    la: &Limits,
    lb: &Limits,
) -> f64 {
    let side = |player, limits: &Limits| Side {
        player,
        time_control: None,
        limits: limits.clone(),
    };
    let sides = if a_color == Color::Black {
        [side(a, la), side(b, lb)]
    } else {
        [side(b, lb), side(a, la)]
    };
    let rules = GameRules {
        max_plies: 320,
        ..GameRules::default()
    };
    let g = play_game(start, &[], sides, &rules);
    match g.result.winner() {
        None => 0.5,
        Some(c) if c == a_color => 1.0,
        Some(_) => 0.0,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let limit_a = args.get(2).cloned().unwrap_or_else(|| "nodes:20000".into());
    let limit_b = args.get(3).cloned().unwrap_or_else(|| limit_a.clone());
    let a_name = args.get(4).cloned().unwrap_or_else(|| "kkpee9".into());
    let b_name = args.get(5).cloned().unwrap_or_else(|| "material".into());
    let parse = |l: &str| match l.split_once(':') {
        Some(("depth", d)) => Limits {
            depth: d.parse().ok(),
            ..Limits::default()
        },
        Some(("nodes", n)) => Limits {
            nodes: n.parse().ok(),
            ..Limits::default()
        },
        _ => panic!("limit must be depth:N or nodes:N"),
    };
    let (la, lb) = (parse(&limit_a), parse(&limit_b));
    let table = Kkpee9::new();
    let mut a = player(&a_name, &table);
    let mut b = player(&b_name, &table);
    let (mut w, mut d, mut l) = (0, 0, 0);
    for g in 0..games {
        let start = opening(g as u64 / 2);
        let color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let r = game(a.as_mut(), b.as_mut(), color, &start, &la, &lb);
        if r == 1.0 {
            w += 1
        } else if r == 0.0 {
            l += 1
        } else {
            d += 1
        }
        eprintln!(
            "game {} {a_name} as {color:?}: {r}  (W{w} D{d} L{l})",
            g + 1
        );
    }
    let score = (w as f64 + 0.5 * d as f64) / games as f64;
    let elo = if score > 0.0 && score < 1.0 {
        -400.0 * (1.0 / score - 1.0).log10()
    } else {
        f64::NAN
    };
    println!(
        "{a_name} ({limit_a}) vs {b_name} ({limit_b}): +{w} ={d} -{l} score {:.1}% elo {elo:+.0}",
        score * 100.0
    );
}
