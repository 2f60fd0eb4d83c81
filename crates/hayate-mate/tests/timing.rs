//! Cost of `mate_in_1`, in nanoseconds per call, over the problem positions (half of them with a
//! mate in one) and positions of random games. Run by hand:
//! `cargo test --release -p hayate-mate --test timing -- --ignored --nocapture`.

use hayate_core::MoveList;
use hayate_core::Position;
use hayate_mate::{OddPlyResult, OddPlySearch, generate_checks, mate_in_1};
use std::hint::black_box;
use std::time::Instant;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/mate");

fn positions() -> Vec<Position> {
    let mut v = Vec::new();
    for (file, col) in [("exact-short.tsv", 0), ("muso.tsv", 1)] {
        let text = std::fs::read_to_string(format!("{DIR}/{file}")).expect("shared mate data");
        for l in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            if let Some(s) = l.split('\t').nth(col) {
                v.push(Position::from_sfen(s).expect("valid sfen"));
            }
        }
    }
    // Middle-game positions: random legal moves from the start.
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..40 {
        let mut p = Position::startpos();
        for _ in 0..60 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            p.do_move(moves[(rng % moves.len() as u64) as usize]);
        }
        v.push(Position::from_sfen(&p.to_sfen()).expect("round trip"));
    }
    v
}

#[test]
#[ignore = "timing, run by hand"]
fn mate_in_1_ns_per_call() {
    let ps = positions();
    let mut found = 0;
    let reps = 2000;
    let t = Instant::now();
    for _ in 0..reps {
        for p in &ps {
            found += black_box(mate_in_1(black_box(p))).is_some() as u32;
        }
    }
    let calls = (reps * ps.len()) as f64;
    println!(
        "mate_in_1: {} positions, {:.0} ns per call ({} mates found per pass)",
        ps.len(),
        t.elapsed().as_nanos() as f64 / calls,
        found / reps as u32
    );
    let t = Instant::now();
    let mut n = 0;
    for _ in 0..reps {
        for p in &ps {
            let mut l = MoveList::new();
            generate_checks(black_box(p), &mut l);
            n += l.len();
        }
    }
    println!(
        "generate_checks alone: {:.0} ns per call, {:.1} checks per position",
        t.elapsed().as_nanos() as f64 / calls,
        n as f64 / calls
    );
}

#[test]
#[ignore = "timing, run by hand"]
fn odd_ply_search_cost() {
    let ps = positions();
    for plies in [3u32, 5, 7] {
        let (mut mates, mut aborted, mut nodes) = (0, 0, 0u64);
        let t = Instant::now();
        for p in &ps {
            let mut p = p.clone();
            // A leaf budget, as an MCTS would give it.
            let mut s = OddPlySearch::new(100_000);
            match s.search(&mut p, plies) {
                OddPlyResult::Mate(_) => mates += 1,
                OddPlyResult::Aborted => aborted += 1,
                OddPlyResult::NoMate => {}
            }
            nodes += s.nodes();
        }
        println!(
            "mate_in {plies}: {} positions, {:.1} us per call, {} mates, {} over 100k nodes, {:.0} nodes per call",
            ps.len(),
            t.elapsed().as_secs_f64() * 1e6 / ps.len() as f64,
            mates,
            aborted,
            nodes as f64 / ps.len() as f64
        );
    }
}
