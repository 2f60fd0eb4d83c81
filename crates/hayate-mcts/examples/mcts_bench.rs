//! Playouts per second and network positions per second for an ONNX model on tract.
//!
//! `cargo run --release -p hayate-mcts --example mcts_bench -- MODEL.onnx [threads] [batch] [playouts]`

use hayate_core::player::Player;
use hayate_mcts::bench::{network_throughput, search_speed};
use hayate_mcts::{MctsPlayer, TractBackend};
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
        let pps = network_throughput(&mut backend, b, Duration::from_secs(3))?;
        println!("network batch {b}: {pps:.0} positions/s");
    }
    let mut p = MctsPlayer::new();
    for (k, v) in [
        ("DNN_Model", model.to_string()),
        ("UCT_Threads", threads.to_string()),
        ("DNN_Batch_Size", batch.to_string()),
        ("Mate_Root_Search", "false".to_string()),
        ("PV_Interval", "0".to_string()),
    ] {
        p.set_option(k, &v)?;
    }
    p.prepare()?;
    let (n, t) = search_speed(&mut p, playouts);
    println!(
        "search threads {threads} batch {batch}: {n} playouts in {:.2} s = {:.0} playouts/s",
        t.as_secs_f64(),
        n as f64 / t.as_secs_f64()
    );
    Ok(())
}
