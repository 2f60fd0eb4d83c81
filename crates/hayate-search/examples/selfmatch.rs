//! An in-process match between two evaluations at equal limits, for strength checks:
//! `cargo run --release -p hayate-search --example selfmatch -- <games> <limitA> <limitB> [evalA] [evalB]`
//! with limits `nodes:N` or `depth:N` and evaluations `kkpee9` or `material`.
//! Openings are 6 random plies from the start, each played twice with colours swapped.

use hayate_core::player::{BestMove, Limits, Signals};
use hayate_core::{Color, GameRepetition, Position};
use hayate_eval::{Evaluator, Kkpee9, Material};
use hayate_search::{AlphaBeta, Options};

enum Any {
    Material(AlphaBeta<Material>),
    Kkpee9(AlphaBeta<Kkpee9>),
}

impl Any {
    fn new(name: &str, table: &Kkpee9) -> Any {
        let o = Options {
            hash_mb: 32,
            ..Options::default()
        };
        match name {
            "material" => Any::Material(AlphaBeta::with_options(Material, o)),
            _ => Any::Kkpee9(AlphaBeta::with_options(table.clone(), o)),
        }
    }
    fn play(&mut self, pos: &Position, limits: &Limits) -> BestMove {
        match self {
            Any::Material(p) => p.search(pos, limits, &Signals::new(), &mut |_| {}).best,
            Any::Kkpee9(p) => p.search(pos, limits, &Signals::new(), &mut |_| {}).best,
        }
    }
    fn clear(&mut self) {
        match self {
            Any::Material(p) => p.clear(),
            Any::Kkpee9(p) => p.clear(),
        }
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
    a: &mut Any,
    b: &mut Any,
    a_color: Color,
    start: &Position,
    la: &Limits,
    lb: &Limits,
) -> f64 {
    let mut pos = start.clone();
    a.clear();
    b.clear();
    for _ in 0..320 {
        let us = pos.side_to_move();
        let (player, limits) = if us == a_color {
            (&mut *a, la)
        } else {
            (&mut *b, lb)
        };
        match player.play(&pos, limits) {
            BestMove::Move { best, .. } => pos.do_move(best),
            BestMove::Resign => return if us == a_color { 0.0 } else { 1.0 },
            BestMove::Win => return if us == a_color { 1.0 } else { 0.0 },
        }
        match pos.game_repetition() {
            GameRepetition::Draw => return 0.5,
            GameRepetition::PerpetualCheckBy(c) => return if c == a_color { 0.0 } else { 1.0 },
            GameRepetition::None => {}
        }
    }
    0.5
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
    let _ = table.name();
    let mut a = Any::new(&a_name, &table);
    let mut b = Any::new(&b_name, &table);
    let (mut w, mut d, mut l) = (0, 0, 0);
    for g in 0..games {
        let start = opening(g as u64 / 2);
        let color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let r = game(&mut a, &mut b, color, &start, &la, &lb);
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
