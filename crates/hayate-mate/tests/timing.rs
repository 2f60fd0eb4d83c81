//! Cost of `mate_in_1`, in nanoseconds per call, over the problem positions (half of them with a
//! mate in one) and positions of random games. Run by hand:
//! `cargo test --release -p hayate-mate --test timing -- --ignored --nocapture`.

use hayate_core::MoveList;
use hayate_core::Position;
use hayate_mate::{generate_checks, mate_in_1};
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
