//! Timings, run by hand: `cargo test --release -p hayate-eval --test speed -- --ignored --nocapture`.

mod common;

use hayate_core::{MoveList, Position};
use hayate_eval::nnue::{RandomNetParams, random_net_bytes};
use hayate_eval::{EffectUpdate, Evaluator, Isa, Kkpee9, Material, Nnue};
use std::hint::black_box;
use std::time::Instant;

/// A search-like walk: every node is entered with do_move + push and evaluated, as a
/// searcher whose quiescence evaluates every node would do. Returns (nodes, Σ eval).
fn walk<E: Evaluator>(e: &E, st: &mut E::Stack, pos: &mut Position, depth: u32) -> (u64, i64) {
    let mut acc = (1u64, e.evaluate(st, pos) as i64);
    if depth == 0 {
        return acc;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    for &m in list.iter() {
        pos.do_move(m);
        e.push(st, pos, m);
        let (n, s) = walk(e, st, pos, depth - 1);
        acc.0 += n;
        acc.1 += s;
        e.pop(st);
        pos.undo_move(m);
    }
    acc
}

const WALK_SFENS: [&str; 3] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "ln1g1g1nl/1ks2r3/1pppp1bpp/p3spp2/9/P1P1P1PP1/1P1PSP2P/1BK1GS1R1/LN1G3NL b - 1",
];

/// This thread's CPU time in ns (Linux `schedstat`): on a shared machine wall time counts the
/// other engineers' processes too. Falls back to 0 elsewhere.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn time_walk<E: Evaluator>(e: &E, label: &str, depth: u32) {
    let mut nodes = 0;
    let mut sum = 0;
    let t = Instant::now();
    let c = cpu_ns();
    for s in WALK_SFENS {
        let mut pos = Position::from_sfen(s).expect("valid");
        let mut st = e.new_stack();
        e.reset(&mut st, &pos);
        let (n, v) = walk(e, &mut st, &mut pos, depth);
        nodes += n;
        sum += v;
    }
    let cpu = cpu_ns() - c;
    let dt = t.elapsed();
    println!(
        "{label:>28}: {nodes} nodes, {:.1} ns/node CPU, {:.1} ns/node wall (checksum {})",
        cpu as f64 / nodes as f64,
        dt.as_nanos() as f64 / nodes as f64,
        black_box(sum)
    );
}

#[test]
#[ignore]
fn kkpee9_build_and_walk_timings() {
    for threads in [1, 2] {
        let t = Instant::now();
        let k = Kkpee9::with_threads(threads, EffectUpdate::Incremental);
        println!("KKPEE9 table build, {threads} thread(s): {:?}", t.elapsed());
        drop(black_box(k));
    }
    let k = Kkpee9::new();
    for _ in 0..2 {
        time_walk(&Material, "material", 3);
        time_walk(
            &k.with_update(EffectUpdate::Incremental),
            "kkpee9 incremental",
            3,
        );
        time_walk(
            &k.with_update(EffectUpdate::AtEvaluation),
            "kkpee9 at evaluation",
            3,
        );
    }
}

#[test]
#[ignore]
fn nnue_walk_timings() {
    let t = Instant::now();
    let bytes = random_net_bytes(&RandomNetParams::default());
    println!("generate random net: {:?}", t.elapsed());
    let t = Instant::now();
    let base = Nnue::from_bytes(&bytes).expect("valid");
    println!("parse 64 MB net from memory: {:?}", t.elapsed());
    for _ in 0..2 {
        time_walk(&Material, "material", 3);
        for isa in Isa::ALL {
            if let Some(n) = base.with_isa(isa) {
                time_walk(&n, &format!("nnue {isa:?}"), 3);
            }
        }
    }
}

/// For `perf stat -e cycles:u,instructions:u` (CPU counters are steadier than clocks on a shared
/// machine): `HAYATE_WALK=<scalar|avx2|avx512vnni|material|kkpee9|kkpee9-lazy|none>`, one
/// evaluator, depth-3 walk; `none` measures the setup alone.
#[test]
#[ignore]
fn walk_one_for_perf_stat() {
    let which = std::env::var("HAYATE_WALK").unwrap_or_default();
    let nnue = || Nnue::from_bytes(&random_net_bytes(&RandomNetParams::default())).expect("valid");
    let kk = || Kkpee9::new();
    match which.as_str() {
        "material" => time_walk(&Material, "material", 3),
        "scalar" => time_walk(&nnue().with_isa(Isa::Scalar).expect("isa"), "scalar", 3),
        "avx2" => time_walk(&nnue().with_isa(Isa::Avx2).expect("isa"), "avx2", 3),
        "avx512vnni" => time_walk(&nnue().with_isa(Isa::Avx512Vnni).expect("isa"), "vnni", 3),
        "kkpee9" => time_walk(&kk().with_update(EffectUpdate::Incremental), "kkpee9", 3),
        "kkpee9-lazy" => time_walk(&kk().with_update(EffectUpdate::AtEvaluation), "lazy", 3),
        "nnue-setup" => drop(black_box(nnue())),
        "kkpee9-setup" => drop(black_box(kk())),
        _ => {}
    }
}

/// The walk for a random net of every supported shape, on this CPU's best instruction set.
#[test]
#[ignore]
fn nnue_shape_walk_timings() {
    use hayate_eval::nnue::random_net_bytes_of;
    use hayate_eval::nnue::shape::{FeatureSet, KNOWN_SIZES, Shape};
    use hayate_eval::{AnyNnue, with_nnue};
    for (half, h1, h2) in KNOWN_SIZES {
        let shape = Shape {
            features: FeatureSet::HalfKp,
            half,
            h1,
            h2,
        };
        let bytes = random_net_bytes_of(&shape, &RandomNetParams::for_shape(&shape, 1));
        let net = AnyNnue::from_bytes(&bytes).expect("valid");
        drop(bytes);
        let label = format!("{} {:?}", shape.name(), net.isa());
        for _ in 0..2 {
            with_nnue!(&net, n => time_walk(n, &label, 3));
        }
    }
}
