//! Evaluation costs: NNUE refresh, incremental update and forward pass, net loading, and
//! KKPEE9 (both effect-update policies). `cargo bench -p hayate-eval --bench eval`.
//!
//! Times are this thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), not wall time: the development
//! machine is shared, and wall time there counts other people's processes.

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use hayate_core::{Move, Position};
use hayate_eval::nnue::{Accumulator, RandomNetParams, random_net_bytes};
use hayate_eval::{EffectUpdate, Evaluator, Isa, Kkpee9, Nnue};
use std::time::Duration;

/// This thread's CPU time in ns (`CLOCK_THREAD_CPUTIME_ID`).
fn cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the clock id is a constant libc defines.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return 0;
    }
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// Thread CPU time as a criterion measurement.
struct CpuTime;

/// Formats nanoseconds without rescaling.
struct Nanoseconds;

impl ValueFormatter for Nanoseconds {
    fn scale_values(&self, _typical: f64, _values: &mut [f64]) -> &'static str {
        "ns"
    }
    fn scale_throughputs(&self, _t: f64, _th: &Throughput, _values: &mut [f64]) -> &'static str {
        "ns"
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        cpu_ns()
    }
    fn end(&self, i: u64) -> u64 {
        cpu_ns().saturating_sub(i)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &Nanoseconds
    }
}

/// The reference positions.
fn positions() -> Vec<Position> {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/eval/positions.sfen"
    );
    std::fs::read_to_string(p)
        .expect("shared positions")
        .lines()
        .filter_map(|l| Position::from_sfen(l).ok())
        .collect()
}

/// A random game from the start: (position after each move, the move).
fn random_game(plies: usize) -> Vec<(Position, Move)> {
    let mut pos = Position::startpos();
    let mut seed = 11u64;
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = moves[(seed >> 33) as usize % moves.len()];
        pos.do_move(m);
        out.push((pos.clone(), m));
    }
    out
}

fn nnue(c: &mut Criterion<CpuTime>) {
    let bytes = random_net_bytes(&RandomNetParams::default());
    let dir = std::env::temp_dir().join(format!("hayate-eval-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("nn.bin");
    std::fs::write(&file, &bytes).expect("write net");

    let mut g = c.benchmark_group("nnue");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    g.bench_function("load nn.bin (64 MB file)", |b| {
        b.iter(|| Nnue::load(black_box(&file)).expect("valid"))
    });
    g.finish();

    let base = Nnue::from_bytes(&bytes).expect("valid");
    let positions = positions();
    let game = random_game(160);
    // Parents of each move: the accumulator before it.
    let mut parents: Vec<Accumulator> = vec![base.refresh(&Position::startpos())];
    for (pos, m) in &game {
        let next = base.updated(parents.last().expect("root"), pos, *m);
        parents.push(next);
    }
    let mut g = c.benchmark_group("nnue");
    g.measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    for isa in Isa::ALL {
        let Some(n) = base.with_isa(isa) else {
            continue;
        };
        let mut i = 0;
        g.bench_function(format!("{isa:?} refresh + forward (per position)"), |b| {
            b.iter(|| {
                i = (i + 1) % positions.len();
                n.evaluate_scratch(black_box(&positions[i]))
            })
        });
        let mut i = 0;
        g.bench_function(
            format!("{isa:?} incremental update + forward (per move)"),
            |b| {
                b.iter(|| {
                    i = (i + 1) % game.len();
                    let (pos, m) = &game[i];
                    let acc = n.updated(black_box(&parents[i]), pos, *m);
                    n.evaluate_accumulator(&acc, pos.side_to_move())
                })
            },
        );
        let mut i = 0;
        g.bench_function(format!("{isa:?} incremental update only (per move)"), |b| {
            b.iter(|| {
                i = (i + 1) % game.len();
                let (pos, m) = &game[i];
                n.updated(black_box(&parents[i]), pos, *m)
            })
        });
        let mut i = 0;
        g.bench_function(format!("{isa:?} forward only"), |b| {
            b.iter(|| {
                i = (i + 1) % game.len();
                n.evaluate_accumulator(black_box(&parents[i + 1]), game[i].0.side_to_move())
            })
        });
    }
    g.finish();
    std::fs::remove_dir_all(&dir).ok();
}

fn kkpee9(c: &mut Criterion<CpuTime>) {
    let k = Kkpee9::new();
    let positions = positions();
    let game = random_game(160);
    let mut g = c.benchmark_group("kkpee9");
    g.measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    let mut i = 0;
    g.bench_function("scratch (effects + 81 lookups, per position)", |b| {
        b.iter(|| {
            i = (i + 1) % positions.len();
            k.evaluate_black(black_box(&positions[i]))
        })
    });
    for update in [EffectUpdate::Incremental, EffectUpdate::AtEvaluation] {
        let k = k.with_update(update);
        g.bench_function(
            format!("{update:?}: push + evaluate along a game (per move)"),
            |b| {
                let mut st = k.new_stack();
                b.iter(|| {
                    k.reset(&mut st, &Position::startpos());
                    let mut s = 0;
                    for (pos, m) in &game {
                        k.push(&mut st, pos, *m);
                        s += k.evaluate(&mut st, pos);
                    }
                    s
                })
            },
        );
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = nnue, kkpee9
}
criterion_main!(benches);
