//! `hayate mcts`: one MCTS search from a position (info lines and `bestmove`), or the speed
//! bench (network positions/s at batch 1 and the batch size, search playouts/s).

use anyhow::{Context, anyhow};
use hayate_core::Position;
use hayate_core::player::{Limits, Player, Signals};
use hayate_infer::BackendKind;
use hayate_infer::kind::LoadOptions;
use hayate_infer::throughput::network_throughput;
use hayate_mcts::MctsPlayer;
use hayate_mcts::bench::search_speed;
use std::time::Duration;

/// Arguments of `hayate mcts`.
#[derive(clap::Args)]
pub struct Args {
    /// dlshogi-format ONNX model (`DNN_Model`).
    #[arg(long, default_value = "")]
    model: String,
    /// Inference backend: tract, ort, uniform or random (`DNN_Backend`).
    #[arg(long, default_value = "tract")]
    backend: String,
    /// Search threads (`UCT_Threads`).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Positions per network call (`DNN_Batch_Size`).
    #[arg(long, default_value_t = 16)]
    batch: usize,
    /// CPU threads per network call (`DNN_Threads`; default: the machine's cores).
    #[arg(long)]
    dnn_threads: Option<usize>,
    /// Playouts per search (`go nodes`).
    #[arg(long, default_value_t = 10_000)]
    playouts: u64,
    /// Position as `startpos [moves ...]` or `sfen ... [moves ...]`.
    #[arg(long, default_value = "startpos")]
    position: String,
    /// Measure speed on the bench positions instead of searching `--position`.
    #[arg(long)]
    bench: bool,
    /// More options as NAME=VALUE (USI option names), repeatable.
    #[arg(long = "option")]
    options: Vec<String>,
}

/// Runs the search or the bench and prints the results.
pub fn run(a: Args) -> anyhow::Result<()> {
    let mut p = MctsPlayer::new();
    let mut set = |k: &str, v: &str| p.set_option(k, v).map_err(|e| anyhow!(e));
    set("DNN_Model", &a.model)?;
    set("DNN_Backend", &a.backend)?;
    set("UCT_Threads", &a.threads.to_string())?;
    set("DNN_Batch_Size", &a.batch.to_string())?;
    let dnn_threads = a
        .dnn_threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    set("DNN_Threads", &dnn_threads.to_string())?;
    for o in &a.options {
        let (k, v) = super::name_value(o)?;
        set(k, v)?;
    }
    p.prepare().map_err(|e| anyhow!(e))?;
    if a.bench {
        if let Some(kind) = BackendKind::parse(&a.backend) {
            let opts = LoadOptions {
                model: &a.model,
                seed: 1,
                threads: dnn_threads,
            };
            let mut net = hayate_infer::load(kind, &opts)?;
            println!("network {}", net.name());
            for b in [1, a.batch] {
                let pps = network_throughput(net.as_mut(), b, Duration::from_secs(3))
                    .map_err(|e| anyhow!(e))?;
                println!("network batch {b}: {pps:.0} positions/s");
            }
        }
        let (n, t) = search_speed(&mut p, a.playouts);
        println!(
            "search threads {} batch {}: {n} playouts in {:.2} s = {:.0} playouts/s",
            a.threads,
            a.batch,
            t.as_secs_f64(),
            n as f64 / t.as_secs_f64().max(1e-9)
        );
        return Ok(());
    }
    let pos = Position::from_usi_position(&a.position)
        .with_context(|| format!("bad --position {:?}", a.position))?;
    let limits = Limits {
        nodes: Some(a.playouts),
        ..Limits::default()
    };
    let best = p.think(&pos, &limits, &Signals::new(), &mut |i| {
        println!("{}", hayate_usi::format_info(i));
    });
    println!("{}", hayate_usi::format_bestmove(&best));
    Ok(())
}
