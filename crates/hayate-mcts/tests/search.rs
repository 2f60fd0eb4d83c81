//! The player end to end with network-free backends: budgets, threads, stop, mates, reuse,
//! and long self-play.

use hayate_core::player::{BestMove, Info, Limits, Player, Signals};
use hayate_core::{GameRepetition, Move, Position};
use hayate_infer::{RandomBackend, UniformBackend};
use hayate_mcts::MctsPlayer;
use hayate_mcts::node::{Node, NodeState};
use std::time::{Duration, Instant};

fn player(random: bool, threads: usize, batch: usize) -> MctsPlayer {
    let mut p = if random {
        MctsPlayer::with_backend(Box::new(RandomBackend::new(7)))
    } else {
        MctsPlayer::with_backend(Box::new(UniformBackend))
    };
    for (k, v) in [
        ("UCT_Threads", threads.to_string()),
        ("DNN_Batch_Size", batch.to_string()),
        ("PV_Interval", "0".to_string()),
        ("Mate_Root_Search", "false".to_string()),
        ("Resign_Threshold", "0".to_string()),
    ] {
        p.set_option(k, &v).expect("option");
    }
    p
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

fn think(p: &mut MctsPlayer, pos: &Position, limits: &Limits) -> BestMove {
    p.think(pos, limits, &Signals::new(), &mut |_: &Info| {})
}

/// Every node's visits and wins are the sums over its edges (no virtual loss left behind), an
/// evaluated child has one visit fewer than its edge at most, and values stay in [0, 1].
fn check_tree(node: &Node) -> usize {
    let edges = node.edges();
    let n: u64 = edges.iter().map(|e| e.n() as u64).sum();
    assert_eq!(node.n() as u64, n, "node visits = sum of edge visits");
    let w: f64 = edges.iter().map(|e| e.win.get()).sum();
    assert!(
        (node.win.get() - w).abs() < 1e-6 * (n as f64 + 1.0),
        "node wins = sum of edge wins"
    );
    let prior: f32 = edges.iter().map(|e| e.prior).sum();
    assert!(
        edges.is_empty() || (prior - 1.0).abs() < 1e-3,
        "priors sum to 1: {prior}"
    );
    let mut count = 1;
    for e in edges {
        if let Some(q) = e.q() {
            assert!((-1e-9..=1.0 + 1e-9).contains(&q), "q {q}");
        }
        if let Some(c) = e.child() {
            if c.state() == NodeState::Expanded {
                assert!(e.n() > c.n(), "edge {} vs child {}", e.n(), c.n());
            }
            count += check_tree(c);
        }
    }
    count
}

fn is_move(b: &BestMove, pos: &Position) -> Option<Move> {
    match *b {
        BestMove::Move { best, .. } => {
            assert!(
                pos.legal_moves().contains(best),
                "illegal {}",
                best.to_usi()
            );
            Some(best)
        }
        _ => None,
    }
}

#[test]
fn go_nodes_is_an_exact_playout_budget() {
    let mut p = player(false, 2, 8);
    let pos = Position::startpos();
    let b = think(&mut p, &pos, &nodes(1000));
    assert!(is_move(&b, &pos).is_some());
    assert_eq!(p.last_report().playouts, 1000);
    let root = p.tree_root().expect("tree");
    assert_eq!(root.n(), 1000);
    check_tree(root);
}

#[test]
fn the_node_limit_stops_the_search() {
    let mut p = player(true, 2, 8);
    p.set_option("UCT_NodeLimit", "1000").expect("option");
    let limits = Limits {
        movetime: Some(Duration::from_secs(20)),
        ..Limits::default()
    };
    let t = Instant::now();
    let b = think(&mut p, &Position::startpos(), &limits);
    assert!(matches!(b, BestMove::Move { .. }));
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let r = p.last_report();
    // Each thread may finish the descent it started when the limit was reached.
    assert!(r.nodes >= 1000 && r.nodes <= 1000 + 2 * 8, "{r:?}");
    let counted = p.tree_root().map(Node::count).unwrap_or(0);
    assert_eq!(counted, r.nodes, "the counter matches the tree");
}

#[test]
fn two_threads_keep_the_statistics_consistent() {
    let mut p = player(true, 2, 4);
    let pos = Position::from_usi_position("startpos moves 7g7f 3c3d 8h2b+ 3a2b").expect("pos");
    for _ in 0..3 {
        think(&mut p, &pos, &nodes(3000));
        let root = p.tree_root().expect("tree");
        let count = check_tree(root);
        assert!(count > 1000, "{count}");
    }
}

#[test]
fn stop_answers_at_once() {
    let mut p = player(true, 2, 8);
    let signals = Signals::new();
    let s2 = signals.clone();
    let handle = std::thread::spawn(move || {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let b = p.think(&Position::startpos(), &limits, &s2, &mut |_| {});
        (b, Instant::now())
    });
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    signals.stop();
    let (b, answered) = handle.join().expect("thread");
    assert!(matches!(b, BestMove::Move { .. }));
    let lag = answered.duration_since(asked);
    assert!(lag < Duration::from_millis(100), "stop took {lag:?}");
}

#[test]
fn ponder_waits_for_ponderhit_then_keeps_to_the_clock() {
    let mut p = player(false, 1, 8);
    let signals = Signals::new();
    let s2 = signals.clone();
    let handle = std::thread::spawn(move || {
        let limits = Limits {
            ponder: true,
            byoyomi: Some(Duration::from_millis(200)),
            ..Limits::default()
        };
        let b = p.think(&Position::startpos(), &limits, &s2, &mut |_| {});
        (b, Instant::now())
    });
    std::thread::sleep(Duration::from_millis(300));
    assert!(!handle.is_finished(), "pondering returned before ponderhit");
    let hit = Instant::now();
    signals.ponderhit();
    let (b, answered) = handle.join().expect("thread");
    assert!(matches!(b, BestMove::Move { .. }));
    // Byoyomi 200 less the network delay (a quarter: 50) and the few ms the search needs to
    // wind down: about 145 ms after ponderhit.
    let t = answered.duration_since(hit);
    assert!(
        t >= Duration::from_millis(120) && t < Duration::from_millis(400),
        "{t:?}"
    );
}

/// Whether `m` starts a mate in `plies` for the side to move.
fn starts_mate(pos: &Position, m: Move, plies: u32) -> bool {
    let mut pos = pos.clone();
    pos.do_move(m);
    if plies == 1 {
        return pos.legal_moves().is_empty();
    }
    let replies = pos.legal_moves();
    !replies.is_empty()
        && replies.iter().all(|&r| {
            pos.do_move(r);
            let ok = hayate_mate::mate_in(&mut pos, plies - 2).is_some();
            pos.undo_move(r);
            ok
        })
}

const MATE5: &str = "9/9/5k3/9/4G4/4P4/9/9/9 b 3G2r2b4s4n4l17p 1";
const MATE5_B: &str = "3sr4/4p4/2Sks1n2/3p1P3/2L3N2/4P1P2/4N4/9/9 b BNb3gs3l13p 1";

#[test]
fn a_mate_proven_by_leaf_searches_in_the_tree_is_played() {
    // Leaf searches see 3 plies; the mate takes 5, so the tree has to prove it.
    let mut p = player(false, 2, 8);
    p.set_option("Mate_Leaf_Depth", "3").expect("option");
    let pos = Position::from_sfen(MATE5).expect("sfen");
    let b = think(&mut p, &pos, &nodes(200_000));
    let m = is_move(&b, &pos).expect("a move");
    assert_eq!(p.last_report().proven, Some(true), "{:?}", p.last_report());
    assert!(p.last_report().playouts < 200_000, "stops once proven");
    assert!(starts_mate(&pos, m, 5), "{} does not mate", m.to_usi());
}

#[test]
fn a_short_mate_at_the_root_is_played_without_search() {
    let mut p = player(false, 1, 8);
    let pos = Position::from_sfen(MATE5_B).expect("sfen");
    let mut score = None;
    let b = p.think(&pos, &nodes(1000), &Signals::new(), &mut |i: &Info| {
        score = i.score
    });
    let m = is_move(&b, &pos).expect("a move");
    assert_eq!(p.last_report().source, "root odd-ply mate");
    assert_eq!(
        score,
        Some(hayate_core::player::Score::Mate(5)),
        "exact-short.tsv: mate in 5"
    );
    assert!(starts_mate(&pos, m, 5));
}

#[test]
fn root_df_pn_finds_what_the_leaf_search_cannot() {
    let mut p = player(false, 1, 8);
    p.set_option("Mate_Leaf_Depth", "1").expect("option");
    p.set_option("Mate_Root_Search", "true").expect("option");
    let pos = Position::from_sfen(MATE5).expect("sfen");
    let limits = Limits {
        movetime: Some(Duration::from_secs(20)),
        ..Limits::default()
    };
    let mut mate_info = false;
    let b = p.think(&pos, &limits, &Signals::new(), &mut |i: &Info| {
        mate_info |= matches!(i.score, Some(hayate_core::player::Score::Mate(_)));
    });
    let m = is_move(&b, &pos).expect("a move");
    let r = p.last_report();
    assert!(r.proven == Some(true), "{r:?}");
    assert!(r.elapsed < Duration::from_secs(10), "{r:?}");
    assert!(starts_mate(&pos, m, 5), "{} does not mate", m.to_usi());
    if r.source == "root df-pn" {
        assert!(mate_info, "info score mate");
    }
}

#[test]
fn pv_mate_threads_prove_what_the_leaves_cannot() {
    // Leaves see mate in 1 only and the root df-pn is off: the PV-mate thread's df-pn on the
    // positions after the opponent's replies proves the mate in 5.
    let mut p = player(false, 1, 8);
    p.set_option("Mate_Leaf_Depth", "1").expect("option");
    p.set_option("PV_Mate_Search_Threads", "1").expect("option");
    p.set_option("PV_Mate_Search_Nodes", "20000")
        .expect("option");
    let pos = Position::from_sfen(MATE5).expect("sfen");
    let limits = Limits {
        movetime: Some(Duration::from_secs(20)),
        ..Limits::default()
    };
    let b = think(&mut p, &pos, &limits);
    let m = is_move(&b, &pos).expect("a move");
    let r = p.last_report();
    assert_eq!(r.proven, Some(true), "{r:?}");
    assert!(r.elapsed < Duration::from_secs(15), "{r:?}");
    assert!(starts_mate(&pos, m, 5), "{} does not mate", m.to_usi());
}

#[test]
fn declaration_and_no_move_need_no_search() {
    let mut p = player(false, 1, 8);
    let pos = Position::from_sfen("4K4/1RBGGSS2/PPPPPPPPP/9/9/9/9/9/4k4 b RB 1").expect("sfen");
    assert!(pos.can_declare_win(hayate_core::DeclarationRule::Csa27));
    assert_eq!(think(&mut p, &pos, &nodes(100)), BestMove::Win);
    // Black is checkmated.
    let mated = Position::from_sfen("4k4/9/9/9/9/9/4p4/4g4/4K4 b 2r2b3g4s4n4l17p 1").expect("sfen");
    assert!(mated.legal_moves().is_empty());
    assert_eq!(think(&mut p, &mated, &nodes(100)), BestMove::Resign);
}

#[test]
fn the_subtree_of_the_moves_played_is_reused() {
    let mut p = player(false, 1, 8);
    let pos = Position::startpos();
    let BestMove::Move { best, ponder } = think(&mut p, &pos, &nodes(2000)) else {
        panic!("no move");
    };
    let ponder = ponder.expect("a ponder move after 2000 playouts");
    let kept = {
        let root = p.tree_root().expect("tree");
        let e = root
            .edges()
            .iter()
            .find(|e| e.mv == best)
            .expect("best edge");
        let child = e.child().expect("best child");
        let e2 = child
            .edges()
            .iter()
            .find(|e| e.mv == ponder)
            .expect("ponder edge");
        e2.child().map(Node::count).unwrap_or(0)
    };
    assert!(kept >= 2, "{kept}");
    let mut next = pos.clone();
    next.do_move(best);
    next.do_move(ponder);
    think(&mut p, &next, &nodes(100));
    let r = p.last_report();
    assert_eq!(r.reused_nodes, kept, "{r:?}");
    assert!(r.nodes > kept && r.nodes <= kept + 100, "{r:?}");
    check_tree(p.tree_root().expect("tree"));
}

/// Plays games against itself from the start position with a random network; every move must
/// be legal, every game must end by the rules or at 256 plies.
fn self_play(p: &mut MctsPlayer, target: usize, playouts: u64) -> (usize, usize) {
    let mut total = 0;
    let mut games = 0;
    while total < target {
        games += 1;
        p.new_game();
        let mut pos = Position::startpos();
        for _ in 0..256 {
            let b = think(p, &pos, &nodes(playouts));
            match b {
                BestMove::Move { best, .. } => {
                    assert!(
                        pos.legal_moves().contains(best),
                        "{} in {}",
                        best.to_usi(),
                        pos.to_sfen()
                    );
                    pos.do_move(best);
                    total += 1;
                }
                BestMove::Win => {
                    assert!(pos.can_declare_win(hayate_core::DeclarationRule::Csa27));
                    break;
                }
                BestMove::Resign => break,
            }
            if pos.game_repetition() != GameRepetition::None {
                break;
            }
        }
    }
    (total, games)
}

#[test]
fn thousands_of_self_play_moves_are_legal() {
    let mut p = player(true, 1, 8);
    p.set_option("Mate_Leaf_Nodes", "300").expect("option");
    p.set_option("Mate_Root_Search", "true").expect("option");
    p.set_option("Mate_Root_Nodes", "2000").expect("option");
    let (one, games_one) = self_play(&mut p, 1500, 24);
    let mut p = player(true, 2, 4);
    p.set_option("Mate_Leaf_Nodes", "300").expect("option");
    let (two, games_two) = self_play(&mut p, 600, 24);
    assert!(one + two >= 2100);
    eprintln!(
        "self-play: {one} moves in {games_one} games (1 thread), {two} in {games_two} (2 threads)"
    );
}

#[test]
fn options_are_checked() {
    let mut p = MctsPlayer::new();
    assert!(p.set_option("No_Such_Option", "1").is_err());
    assert!(p.set_option("UCT_Threads", "many").is_err());
    assert!(p.set_option("Softmax_Temperature", "0").is_err());
    assert!(p.set_option("DNN_Backend", "cuda").is_err());
    assert!(p.options().iter().any(|o| o.name == "DNN_Model"));
    // No model: a clear error, and resign rather than a crash.
    assert!(p.prepare().is_err());
    p.set_option("DNN_Model", "/nonexistent/model.onnx")
        .expect("option");
    let e = p.prepare().expect_err("missing model");
    assert!(e.contains("/nonexistent/model.onnx"), "{e}");
    let mut said = String::new();
    let b = p.think(
        &Position::startpos(),
        &nodes(10),
        &Signals::new(),
        &mut |i: &Info| {
            if let Some(s) = &i.string {
                said.push_str(s);
            }
        },
    );
    assert_eq!(b, BestMove::Resign);
    assert!(said.contains("error"), "{said}");
}

#[test]
fn the_tiny_onnx_net_plays_through_tract() {
    let mut p = MctsPlayer::new();
    let model =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tiny_resnet.onnx");
    p.set_option("DNN_Model", &model.display().to_string())
        .expect("option");
    p.set_option("Mate_Root_Search", "false").expect("option");
    p.set_option("PV_Interval", "0").expect("option");
    p.prepare().expect("prepare");
    let pos = Position::startpos();
    let mut last = None;
    let b = p.think(&pos, &nodes(300), &Signals::new(), &mut |i: &Info| {
        last = Some(i.clone())
    });
    assert!(is_move(&b, &pos).is_some());
    assert_eq!(p.last_report().playouts, 300);
    let info = last.expect("a final info line");
    assert!(!info.pv.is_empty() && info.nodes == Some(300), "{info:?}");
    check_tree(p.tree_root().expect("tree"));
}

#[test]
fn info_lines_come_at_the_interval_with_legal_pvs() {
    let mut p = player(true, 2, 8);
    p.set_option("PV_Interval", "50").expect("option");
    let pos = Position::startpos();
    let limits = Limits {
        movetime: Some(Duration::from_millis(400)),
        ..Limits::default()
    };
    let mut infos: Vec<Info> = Vec::new();
    let b = p.think(&pos, &limits, &Signals::new(), &mut |i: &Info| {
        infos.push(i.clone())
    });
    let best = is_move(&b, &pos).expect("a move");
    // The first line says which backend runs; the search's lines follow.
    let backend = infos.remove(0);
    assert_eq!(backend.string.as_deref(), Some("backend random (seed 7)"));
    assert!(infos.len() >= 4, "{} info lines", infos.len());
    for i in &infos {
        let mut q = pos.clone();
        for &m in &i.pv {
            assert!(
                q.legal_moves().contains(m),
                "pv move {} illegal",
                m.to_usi()
            );
            q.do_move(m);
        }
        assert!(i.nodes.is_some() && i.nps.is_some() && i.time_ms.is_some());
    }
    let last = infos.last().expect("final info");
    assert_eq!(
        last.pv.first(),
        Some(&best),
        "the final PV starts with the best move"
    );
    assert!(matches!(
        last.score,
        Some(hayate_core::player::Score::Cp(_))
    ));
}
