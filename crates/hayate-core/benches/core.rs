//! Rules-core speed, with the `rsshogi` crate measured in the same run for a ratio:
//! perft (bulk-counted leaves), do+undo of one move, legal move generation.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use hayate_core::{MoveList, Position, perft};
use std::hint::black_box;

const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";

fn bench_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (name, sfen, depth, leaves) in [
        ("startpos", STARTPOS, 4u32, 719_731u64),
        ("matsuri", MATSURI, 3, 4_809_015),
    ] {
        g.throughput(Throughput::Elements(leaves));
        g.bench_with_input(
            BenchmarkId::new("hayate", name),
            &(sfen, depth),
            |b, &(s, d)| {
                let mut pos = Position::from_sfen(s).unwrap();
                b.iter(|| assert_eq!(perft(&mut pos, d), leaves))
            },
        );
        g.bench_with_input(
            BenchmarkId::new("rsshogi", name),
            &(sfen, depth),
            |b, &(s, d)| {
                let pos = rsshogi::board::position::Position::from_sfen(s).unwrap();
                b.iter(|| {
                    assert_eq!(
                        rsshogi::board::perft::perft(&pos, d as u8).unwrap().nodes,
                        leaves
                    )
                })
            },
        );
    }
    g.finish();
}

fn bench_moves(c: &mut Criterion) {
    let mut g = c.benchmark_group("moves");
    for (name, sfen) in [("startpos", STARTPOS), ("matsuri", MATSURI)] {
        let pos = Position::from_sfen(sfen).unwrap();
        g.bench_function(BenchmarkId::new("generate_legal", name), |b| {
            b.iter(|| {
                let mut l = MoveList::new();
                black_box(&pos).generate_legal(&mut l);
                l.len()
            })
        });
        let mut p = pos.clone();
        let moves = pos.legal_moves();
        g.bench_function(BenchmarkId::new("do_undo_all_moves", name), |b| {
            b.iter(|| {
                for &m in moves.iter() {
                    p.do_move(m);
                    p.undo_move(m);
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_perft, bench_moves);
criterion_main!(benches);
