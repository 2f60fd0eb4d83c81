//! `cargo run --release -p hayate-core --example perft -- DEPTH [SFEN]`: perft without the CLI,
//! for profiling the move generator on its own.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(5);
    let sfen = args
        .get(2)
        .map(String::as_str)
        .unwrap_or(hayate_core::sfen::STARTPOS);
    let mut pos = hayate_core::Position::from_sfen(sfen).expect("valid SFEN");
    let t0 = std::time::Instant::now();
    let n = hayate_core::perft(&mut pos, depth);
    let s = t0.elapsed().as_secs_f64();
    println!(
        "nodes {n} time_ms {} nps {}",
        (s * 1000.0) as u64,
        (n as f64 / s) as u64
    );
}
