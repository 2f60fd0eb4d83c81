//! The bench: a fixed set of positions searched to a fixed depth with one thread. Its node
//! total is a signature of the search: any functional change alters it.

use crate::{AlphaBeta, Options};
use hayate_core::Position;
use hayate_core::player::{Limits, Signals};
use hayate_eval::Evaluator;
use std::time::Duration;

/// The start position and lines 1–8 of `shared/data/eval/positions.sfen`.
pub const BENCH_POSITIONS: [&str; 9] = [
    hayate_core::sfen::STARTPOS,
    "6+B+L1/1k7/4+L3l/7R1/3B5/1G5P1/4PPP2/1SG1KS2+p/+l5G2 b R2S2N11Pg2n2p 121",
    "2g3n1S/4s4/3n4p/lpgp4k/p8/2P3PlP/PP1PG3R/2S3SGL/LN2K4 b 6Pr2bn2p 139",
    "2G1k1s+B1/9/p1p4n1/9/2s6/4K2P1/G1n1P4/9/3+l5 b RBG2N5Prg2s3l9p 115",
    "lnsgk1snl/r5gb1/2ppppppp/pp7/9/2PPPP3/PPN3PPP/1BG1KG1SR/L1S4NL b - 27",
    "1ns4+N1/lrg1kg3/4p3S/ppppB4/6P2/PPG2p1Pl/L1B4SP/2S2G3/1N2K4 w L2Prn5p 86",
    "+B8/3k1sg2/8+R/p2p5/3R5/S1L1PPPP1/8G/l2G1p3/2S3K2 b BGS4N2L11P 121",
    "4g2n1/1s2k3L/np2p1+Rp1/P8/3p5/4PnbPb/1l+l1GPG2/5S1R1/2K3SN1 b GS2Pl8p 101",
    "g1nsg1s2/lr3k1P1/n1np2ps1/ppp2K3/4S3G/PPP3P2/B1NG5/2+r6/4L4 w BLl8p 126",
];

/// Default bench depth.
pub const BENCH_DEPTH: u32 = 10;

/// Totals of a bench run.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Search time over all positions.
    pub elapsed: Duration,
}

/// The bench's options: one thread, a 64 MB TT, everything else the engine's default.
pub fn options() -> Options {
    Options {
        hash_mb: 64,
        threads: 1,
        ..Options::default()
    }
}

/// Searches every bench position to `depth` with `options` (normally [`options`]) and the
/// table cleared before each, calling `line` with (index, sfen, nodes, best move) per position.
pub fn run<E: Evaluator>(
    eval: E,
    depth: u32,
    options: Options,
    mut line: impl FnMut(usize, &str, u64, String),
) -> BenchResult {
    let mut player = AlphaBeta::with_options(eval, options);
    let mut total = BenchResult {
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for (i, sfen) in BENCH_POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_sfen(sfen) else {
            continue;
        };
        player.clear();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = player.search(&pos, &limits, &Signals::new(), &mut |_| {});
        let best = match r.best {
            hayate_core::player::BestMove::Move { best, .. } => best.to_usi(),
            hayate_core::player::BestMove::Resign => "resign".into(),
            hayate_core::player::BestMove::Win => "win".into(),
        };
        line(i, sfen, r.nodes, best);
        total.nodes += r.nodes;
        total.elapsed += r.elapsed;
    }
    total
}
