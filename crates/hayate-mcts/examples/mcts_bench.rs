//! Playouts per second and network positions per second for an ONNX model on tract.
//!
//! `cargo run --release -p hayate-mcts --example mcts_bench -- MODEL.onnx [threads] [batch] [playouts] [--symbolic] [--ort]`
//!
//! `--ort` runs the search on ONNX Runtime (build with `--features ort`, set `ORT_DYLIB_PATH`).

use hayate_core::player::Player;
use hayate_infer::TractBackend;
use hayate_infer::throughput::{network_throughput_cpu, process_cpu_time};
use hayate_mcts::MctsPlayer;
use hayate_mcts::bench::search_speed;
use std::path::Path;
use std::time::Duration;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let model = args
        .get(1)
        .ok_or("usage: mcts_bench MODEL.onnx [threads] [batch] [playouts]")?;
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (threads, batch, playouts) = (num(2, 1), num(3, 16), num(4, 2000));
    let mut backend = TractBackend::load(Path::new(model)).map_err(|e| e.to_string())?;
    for b in [1, batch as usize] {
        let (pps, cpu) = network_throughput_cpu(&mut backend, b, Duration::from_secs(3))?;
        println!(
            "network batch {b}: {pps:.0} positions/s wall, {:.0} per CPU second",
            cpu.unwrap_or(0.0)
        );
    }
    if args.iter().any(|a| a == "--symbolic") {
        let mut sym = TractBackend::load(Path::new(model))
            .map_err(|e| e.to_string())?
            .symbolic_only();
        for b in [1, batch as usize] {
            let (pps, cpu) = network_throughput_cpu(&mut sym, b, Duration::from_secs(3))?;
            println!(
                "network (symbolic batch plan) batch {b}: {pps:.0} positions/s wall, {:.0} per CPU second",
                cpu.unwrap_or(0.0)
            );
        }
    }
    let mut p = MctsPlayer::new();
    for (k, v) in [
        ("DNN_Model", model.to_string()),
        ("UCT_Threads", threads.to_string()),
        ("DNN_Batch_Size", batch.to_string()),
        ("Mate_Root_Search", "false".to_string()),
        ("PV_Interval", "0".to_string()),
        (
            "DNN_Backend",
            if args.iter().any(|a| a == "--ort") {
                "ort"
            } else {
                "tract"
            }
            .to_string(),
        ),
    ] {
        p.set_option(k, &v).map_err(|e| e.to_string())?;
    }
    p.prepare()?;
    let cpu0 = process_cpu_time();
    let (n, t) = search_speed(&mut p, playouts);
    let cpu = match (cpu0, process_cpu_time()) {
        (Some(a), Some(b)) if b > a => (b - a).as_secs_f64(),
        _ => f64::NAN,
    };
    println!(
        "search threads {threads} batch {batch}: {n} playouts in {:.2} s = {:.0} playouts/s wall, {:.0} per CPU second",
        t.as_secs_f64(),
        n as f64 / t.as_secs_f64(),
        n as f64 / cpu
    );
    Ok(())
}
