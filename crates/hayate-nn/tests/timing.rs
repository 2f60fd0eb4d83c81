//! Throughput of feature extraction, run by hand:
//! `cargo test --release -p hayate-nn --test timing -- --ignored --nocapture --test-threads=1`.
//! It uses the 200 positions of the cshogi reference file, repeated.

use hayate_core::Position;
use hayate_nn::novice::{NOVICE_CHANNELS, NoviceConfig, write_novice_features};
use hayate_nn::prelude::prelude_tokens;
use hayate_nn::{DlshogiFeatures, INPUT1_PLANES, INPUT2_PLANES_NYUGYOKU, move_label};
use std::hint::black_box;
use std::time::Instant;

fn positions() -> Vec<Position> {
    let text =
        std::fs::read_to_string("/work/shared/data/dl/dlshogi-features.jsonl").expect("data");
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("json");
            Position::from_sfen(v["sfen"].as_str().expect("sfen")).expect("sfen")
        })
        .collect()
}

/// Runs `f` `n` times in 10 rounds and prints the fastest round's time per call: the machine is
/// shared, and the minimum is the least disturbed figure.
fn time(name: &str, n: usize, mut f: impl FnMut()) {
    let per_round = (n / 10).max(1);
    let mut best = f64::INFINITY;
    for _ in 0..10 {
        let t = Instant::now();
        for _ in 0..per_round {
            f();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / per_round as f64);
    }
    println!("{name}: {best:.0} ns per position (best of 10 rounds)");
}

#[test]
#[ignore]
fn feature_extraction_ns_per_position() {
    let ps = positions();
    let reps = 500;
    let n = ps.len() * reps;
    let mut i = 0;
    let mut next = || {
        i = (i + 1) % ps.len();
        &ps[i]
    };
    time("dlshogi bit planes (62 + 57)", n, || {
        black_box(DlshogiFeatures::new(black_box(next()), false));
    });
    let mut i = 0;
    let mut f1 = vec![0f32; INPUT1_PLANES * 81];
    let mut f2 = vec![0f32; INPUT2_PLANES_NYUGYOKU * 81];
    time("dlshogi planes + f32 expansion (62 + 57)", n, || {
        i = (i + 1) % ps.len();
        let f = DlshogiFeatures::new(&ps[i], false);
        f.write_input1(&mut f1);
        f.write_input2(&mut f2[..57 * 81]);
        black_box((&f1, &f2));
    });
    let mut i = 0;
    time("dlshogi planes + f32 expansion (62 + 119)", n, || {
        i = (i + 1) % ps.len();
        let f = DlshogiFeatures::new(&ps[i], true);
        f.write_input1(&mut f1);
        f.write_input2(&mut f2);
        black_box((&f1, &f2));
    });
    let mut i = 0;
    time(
        "labels of all legal moves (movegen included)",
        n / 5,
        || {
            i = (i + 1) % ps.len();
            let pos = &ps[i];
            let us = pos.side_to_move();
            for m in pos.legal_moves().iter() {
                black_box(move_label(*m, us));
            }
        },
    );
    let mut i = 0;
    let mut nov = vec![0f32; NOVICE_CHANNELS * 81];
    let cfg = NoviceConfig::default();
    time("novice 85 channels (f32)", n, || {
        i = (i + 1) % ps.len();
        write_novice_features(&ps[i], &cfg, &mut nov);
        black_box(&nov);
    });
    let mut i = 0;
    time("prelude 95 tokens", n, || {
        i = (i + 1) % ps.len();
        black_box(prelude_tokens(&ps[i]));
    });
    // Where batch assembly spends its time: a packed position becomes a Position through SFEN
    // text, the only public constructor of the core.
    let sfens: Vec<String> = ps.iter().map(|p| p.to_sfen()).collect();
    let mut i = 0;
    time("Position::from_sfen", n / 5, || {
        i = (i + 1) % sfens.len();
        black_box(Position::from_sfen(black_box(&sfens[i])).ok());
    });
    let hcps: Vec<_> = ps
        .iter()
        .map(|p| hayate_records::Hcp::from_position(p).expect("full set"))
        .collect();
    let mut i = 0;
    time("Hcp -> RawPosition -> SFEN -> Position", n / 5, || {
        i = (i + 1) % hcps.len();
        black_box(hcps[i].decode().ok().and_then(|r| r.to_position(1).ok()));
    });
}

#[test]
#[ignore]
fn hcp_decode_parts() {
    let ps = positions();
    let hcps: Vec<_> = ps
        .iter()
        .map(|p| hayate_records::Hcp::from_position(p).expect("full set"))
        .collect();
    let raws: Vec<_> = hcps.iter().map(|h| h.decode().expect("decode")).collect();
    let mut i = 0;
    time("Hcp::decode", 100_000, || {
        i = (i + 1) % hcps.len();
        black_box(hcps[i].decode().ok());
    });
    let mut i = 0;
    time("RawPosition::to_sfen", 100_000, || {
        i = (i + 1) % raws.len();
        black_box(raws[i].to_sfen(1));
    });
}
