//! The engine beats a random mover every game, and finds short mates.

use hayate_core::player::{BestMove, Limits, Signals};
use hayate_core::{Color, GameRepetition, Position};
use hayate_eval::Material;
use hayate_search::{AlphaBeta, Options};

fn random_move(pos: &Position, seed: &mut u64) -> Option<hayate_core::Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    Some(moves[(*seed % moves.len() as u64) as usize])
}

/// Plays one game; returns the winner (None for a draw).
fn play_vs_random(engine_color: Color, seed: u64) -> Option<Color> {
    let mut engine = AlphaBeta::with_options(
        Material,
        Options {
            hash_mb: 16,
            ..Options::default()
        },
    );
    let mut pos = Position::startpos();
    let mut seed = seed | 1;
    for _ in 0..400 {
        let us = pos.side_to_move();
        if us == engine_color {
            let limits = Limits {
                depth: Some(4),
                nodes: Some(20_000),
                ..Limits::default()
            };
            match engine
                .search(&pos, &limits, &Signals::new(), &mut |_| {})
                .best
            {
                BestMove::Move { best, .. } => pos.do_move(best),
                BestMove::Resign => return Some(!us),
                BestMove::Win => return Some(us),
            }
        } else {
            match random_move(&pos, &mut seed) {
                Some(m) => pos.do_move(m),
                None => return Some(!us),
            }
        }
        match pos.game_repetition() {
            GameRepetition::Draw => return None,
            GameRepetition::PerpetualCheckBy(c) => return Some(!c),
            GameRepetition::None => {}
        }
        if pos.legal_moves().is_empty() {
            return Some(us);
        }
    }
    None
}

#[test]
fn beats_a_random_mover_every_game() {
    for (i, color) in [Color::Black, Color::White, Color::Black, Color::White]
        .into_iter()
        .enumerate()
    {
        assert_eq!(
            play_vs_random(color, 0x1234_5678 + i as u64 * 7919),
            Some(color),
            "game {i}"
        );
    }
}

#[test]
fn finds_short_mates() {
    // (SFEN, mate length in plies). The defender's pieces in hand cannot interpose usefully here,
    // so a strict search sees the composed length.
    let cases = [
        ("k2G5/9/K8/9/N8/9/9/9/9 b 2r2b3g4s3n4l18p 1", 3),
        ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1),
        ("3sks3/9/4S4/9/9/8B/9/9/9 b S 1", 3),
    ];
    let mut engine = AlphaBeta::with_options(
        Material,
        Options {
            hash_mb: 16,
            ..Options::default()
        },
    );
    for (sfen, n) in cases {
        let pos = Position::from_sfen(sfen).unwrap();
        engine.clear();
        let r = engine.search(
            &pos,
            &Limits {
                depth: Some(n + 2),
                ..Limits::default()
            },
            &Signals::new(),
            &mut |_| {},
        );
        assert_eq!(r.score, hayate_search::value::MATE - n as i32, "{sfen}");
        // The reported line is a real mate: every move legal, the last position checkmate.
        let mut p = pos.clone();
        for m in &r.pv {
            assert!(p.is_legal(*m), "{sfen}: {m}");
            p.do_move(*m);
        }
        assert!(p.is_checkmate(), "{sfen}: pv {:?}", r.pv);
    }
}

#[test]
fn lazy_smp_threads_search_together_and_answer_legally() {
    let mut engine = AlphaBeta::with_options(
        Material,
        Options {
            hash_mb: 16,
            threads: 3,
            ..Options::default()
        },
    );
    let pos = Position::from_sfen(
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    )
    .unwrap();
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    let r = engine.search(&pos, &limits, &Signals::new(), &mut |_| {});
    let BestMove::Move { best, .. } = r.best else {
        panic!("expected a move, got {:?}", r.best)
    };
    assert!(pos.is_legal(best));
    assert!(r.nodes > 0 && r.depth >= 7);
    // A stop from outside ends all threads promptly.
    let signals = Signals::new();
    let s2 = signals.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        s2.stop();
    });
    let t0 = std::time::Instant::now();
    let mut last_pv = Vec::new();
    let r = engine.search(
        &pos,
        &Limits {
            infinite: true,
            ..Limits::default()
        },
        &signals,
        &mut |info| {
            if !info.pv.is_empty() {
                last_pv = info.pv.clone();
            }
        },
    );
    assert!(t0.elapsed() < std::time::Duration::from_secs(2));
    // The threads voted (one line, no depth limit): whichever thread's move is played, it is
    // legal and it is the move the last reported line starts with.
    let BestMove::Move { best, .. } = r.best else {
        panic!("expected a move, got {:?}", r.best)
    };
    assert!(pos.is_legal(best));
    assert!(
        last_pv.first().is_some_and(|m| m.same(best)),
        "{last_pv:?} vs {best:?}"
    );
    t.join().unwrap();
}

#[test]
fn bench_node_count_is_deterministic() {
    let run = || {
        hayate_search::bench::run(
            Material,
            5,
            hayate_search::bench::options(),
            |_, _, _, _| {},
        )
    };
    let (a, b) = (run(), run());
    assert_eq!(a.nodes, b.nodes);
    assert!(a.nodes > 1000);
}

/// The hidden `Tune_` options reach the search: the defaults search the tree the constants
/// did, another margin another tree; out-of-range values are refused and change nothing.
#[test]
fn tuning_options_change_the_search_and_defaults_do_not() {
    use hayate_core::player::Player;
    // After 7g7f 3c3d.
    let pos =
        Position::from_sfen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3")
            .expect("sfen");
    let nodes = |opts: &[(&str, &str)]| {
        let mut p = AlphaBeta::with_options(
            Material,
            hayate_search::Options {
                hash_mb: 16,
                ..hayate_search::Options::default()
            },
        );
        for (n, v) in opts {
            p.set_option(n, v).expect("accepted");
        }
        let limits = Limits {
            depth: Some(9),
            ..Limits::default()
        };
        p.search(&pos, &limits, &Signals::new(), &mut |_| {}).nodes
    };
    let plain = nodes(&[]);
    let defaults = hayate_search::params::SearchParams::default();
    let (rfp, div) = (
        defaults.rfp_margin.to_string(),
        defaults.lmr_div.to_string(),
    );
    assert_eq!(
        nodes(&[("Tune_rfp_margin", &rfp), ("Tune_lmr_div", &div)]),
        plain
    );
    assert_ne!(nodes(&[("Tune_rfp_margin", "20")]), plain);
    assert_ne!(nodes(&[("Tune_lmr_div", "120")]), plain);
    let mut p = AlphaBeta::with_options(Material, hayate_search::Options::default());
    assert!(p.set_option("Tune_rfp_margin", "5").is_err());
    assert!(p.set_option("Tune_no_such_knob", "5").is_err());
    assert!(
        p.options()
            .iter()
            .all(|o| !o.name.starts_with("Tune_") || o.hidden)
    );
}
