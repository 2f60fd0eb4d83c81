//! hcpe read throughput (run by hand: `cargo test --release -p hayate-records --test throughput
//! -- --ignored --nocapture`).

use hayate_core::Position;
use hayate_records::*;
use std::time::Instant;

/// Positions from random play with a fixed-seed LCG, as hcpe bytes.
fn make_hcpe(n: usize) -> Vec<u8> {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move |k: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % k
    };
    let mut w = RecordWriter::new(Vec::new());
    let mut pos = Position::startpos();
    while w.records() < n as u64 {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.game_ply() > 200 {
            pos = Position::startpos();
            continue;
        }
        let m = moves[rnd(moves.len())];
        let rec = Hcpe {
            hcp: Hcp::from_position(&pos).expect("full set"),
            eval: rnd(2000) as i16 - 1000,
            best_move16: AperyMove16::from_move(m),
            result: rnd(3) as u8,
            padding: 0,
        };
        w.write(&rec).expect("in memory");
        pos.do_move(m);
    }
    w.finish().expect("in memory")
}

/// CPU seconds this thread has used (Linux `/proc/thread-self/stat`, 10 ms ticks), or `None`.
/// On a shared machine CPU time measures the work; wall time also counts waiting for a core.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which is in parentheses): utime is the 12th, stime 13th.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Best of `n` runs of `f`: (wall seconds, CPU seconds of the same run).
fn best_of<F: FnMut()>(n: usize, mut f: F) -> (f64, f64) {
    (0..n)
        .map(|_| {
            let c = thread_cpu_seconds().unwrap_or(0.0);
            let t = Instant::now();
            f();
            let wall = t.elapsed().as_secs_f64();
            let cpu = thread_cpu_seconds().map(|x| x - c).unwrap_or(wall);
            (wall, cpu.max(0.01))
        })
        .fold((f64::INFINITY, f64::INFINITY), |a, b| {
            (a.0.min(b.0), a.1.min(b.1))
        })
}

#[test]
#[ignore]
fn hcpe_read_throughput() {
    let n = 200_000;
    let bytes = make_hcpe(n);
    let mb = bytes.len() as f64 / 1e6;
    let mut recs: Vec<Hcpe> = Vec::new();

    let (s, c) = best_of(5, || {
        recs = HcpeReader::new(&bytes[..], ErrorPolicy::Stop)
            .collect::<Result<_, _>>()
            .expect("reads");
    });
    println!(
        "read + hcp check: {n} records, {mb:.1} MB: wall {:.0} MB/s, CPU {:.0} MB/s ({:.0} k records per CPU second)",
        mb / s,
        mb / c,
        n as f64 / c / 1e3
    );

    let mut sum = 0u64;
    let (s, c) = best_of(5, || {
        for r in &recs {
            let raw = r.hcp.decode().expect("decodes");
            sum += raw.hands[0].raw() as u64;
        }
    });
    println!(
        "hcp decode into RawPosition alone: wall {:.0} MB/s, CPU {:.0} MB/s ({:.0} k records per CPU second) [{sum}]",
        mb / s,
        mb / c,
        n as f64 / c / 1e3
    );

    let (s, c) = best_of(3, || {
        let mut legal = 0usize;
        for r in &recs {
            let pos = r.position().expect("valid");
            legal += r.best_move(&pos).is_some() as usize;
        }
        assert_eq!(legal, n);
    });
    println!(
        "into checked Position (via SFEN) + legal best move: wall {:.1} MB/s, CPU {:.1} MB/s ({:.0} k records per CPU second)",
        mb / s,
        mb / c,
        n as f64 / c / 1e3
    );
}
