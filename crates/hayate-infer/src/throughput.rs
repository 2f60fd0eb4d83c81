//! Network speed: positions per second of a backend over batches of one size, per wall-clock
//! second and per CPU second, on fixed positions.

use crate::backend::Backend;
use crate::batch::Batch;
use hayate_core::Position;
use std::time::{Duration, Instant};

/// Positions the benches use: the start, an opening, a middle game and an endgame (taken from
/// the shared dlshogi feature data).
pub const BENCH_SFENS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgk1snl/r5gb1/2ppppppp/pp7/9/2PPPP3/PPN3PPP/1BG1KG1SR/L1S4NL b - 27",
    "1ns4+N1/lrg1kg3/4p3S/ppppB4/6P2/PPG2p1Pl/L1B4SP/2S2G3/1N2K4 w L2Prn5p 86",
    "4g2n1/1s2k3L/np2p1+Rp1/P8/3p5/4PnbPb/1l+l1GPG2/5S1R1/2K3SN1 b GS2Pl8p 101",
];

/// The bench positions.
pub fn bench_positions() -> Vec<Position> {
    BENCH_SFENS
        .iter()
        .filter_map(|s| Position::from_sfen(s).ok())
        .collect()
}

/// CPU time (user + system) this process has used, from `/proc/self/stat` (Linux; `None`
/// elsewhere). On a shared machine, work per CPU second is steadier than per wall second.
pub fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = f.get(11)?.parse().ok()?;
    let stime: u64 = f.get(12)?.parse().ok()?;
    // Linux reports clock ticks of 1/100 s (USER_HZ) on every mainstream configuration.
    Some(Duration::from_millis((utime + stime) * 10))
}

/// Network throughput over batches of `batch` for about `duration`: positions per wall-clock
/// second, and per CPU second when the CPU time can be read.
///
/// # Errors
/// The backend's message when inference fails.
pub fn network_throughput_cpu(
    backend: &mut dyn Backend,
    batch: usize,
    duration: Duration,
) -> Result<(f64, Option<f64>), String> {
    let cpu0 = process_cpu_time();
    let t = Instant::now();
    let wall = network_throughput(backend, batch, duration)?;
    let done = wall * t.elapsed().as_secs_f64();
    let cpu = match (cpu0, process_cpu_time()) {
        (Some(a), Some(b)) if b > a => Some(done / (b - a).as_secs_f64()),
        _ => None,
    };
    Ok((wall, cpu))
}

/// Network throughput: positions per second over batches of `batch` for about `duration`.
///
/// # Errors
/// The backend's message when inference fails.
pub fn network_throughput(
    backend: &mut dyn Backend,
    batch: usize,
    duration: Duration,
) -> Result<f64, String> {
    let positions = bench_positions();
    let mut b = Batch::new(batch);
    let mut i = 0;
    while !b.is_full() {
        b.push(&positions[i % positions.len()]);
        i += 1;
    }
    // One warm-up run: tract and ONNX Runtime plan lazily.
    backend.evaluate(&mut b).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let mut done = 0usize;
    while t.elapsed() < duration {
        backend.evaluate(&mut b).map_err(|e| e.to_string())?;
        done += batch;
    }
    Ok(done as f64 / t.elapsed().as_secs_f64())
}
