//! Novice's 4-head network (85-channel input, win/draw/loss value) and prelude's gMLP (95
//! tokens, 1496 compact labels) play through USI as the DL player: each trained a few steps by
//! `hayate train fit`, exported to ONNX, then full games in the arena against the material αβ
//! player with no engine fault.

mod support;

use std::time::Duration;
use support::{Engine, hayate, tiny_net};

const HAYATE: &str = env!("CARGO_BIN_EXE_hayate");

#[test]
fn a_novice_network_plays_full_games_through_usi() {
    plays_full_games("novice1x8");
}

#[test]
fn a_gmlp_network_plays_full_games_through_usi() {
    plays_full_games("gmlp1x16");
}

fn plays_full_games(model: &str) {
    let dir = std::env::temp_dir().join(format!("hayate-dl-{model}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let p = |x: &str| dir.join(x).display().to_string();
    let net = tiny_net(&dir, model);
    // The DL player itself answers (a model that does not load would make the engine fall
    // back to the αβ player, which also plays legal games).
    let mut usi = Engine::start();
    let lines = usi.handshake(&[
        ("EvalType", "dl"),
        ("DNN_Model", &net),
        ("UCT_Threads", "1"),
    ]);
    usi.send("position startpos moves 7g7f");
    usi.send("go nodes 32");
    let (_, _, search) = usi.bestmove(Duration::from_secs(60));
    let out = [lines, search].concat().join("\n");
    assert!(out.contains("info string backend tract"), "{out}");
    assert!(!out.contains("cannot be used"), "{out}");
    usi.quit();

    let engines = dir.join("engines.toml");
    std::fs::write(
        &engines,
        format!(
            "[[engine]]\nname = \"dl\"\npath = {HAYATE:?}\ngo = \"nodes 24\"\n\
             [engine.options]\nEvalType = \"dl\"\nDNN_Model = {:?}\nUCT_Threads = 1\n\
             DNN_Threads = 1\nDraw_Value_Black = 400\n\n\
             [[engine]]\nname = \"material\"\npath = {HAYATE:?}\ngo = \"depth 1\"\n\
             [engine.options]\nEvalType = \"material\"\nUSI_Hash = 8\n",
            net
        ),
    )
    .unwrap();
    let out = dir.join("match");
    let text = hayate(&[
        "match",
        "--engines",
        &engines.display().to_string(),
        "--out",
        &out.display().to_string(),
        "--games",
        "2",
        "--byoyomi",
        "5000",
        "--max-plies",
        "80",
        "--quiet",
    ]);
    assert!(text.contains("2 games"), "{text}");
    let results = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    assert_eq!(results.lines().count(), 2, "{results}");
    for fault in [
        "crash",
        "hang",
        "time_loss",
        "illegal_move",
        "illegal_declaration",
    ] {
        assert!(
            !results.contains(&format!("\"{fault}\"")),
            "{fault}: {results}"
        );
    }
    // Whole games, not an early abort: each went on for many moves.
    for line in results.lines() {
        let plies: usize = line
            .split("\"plies\":")
            .nth(1)
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .expect("a plies field");
        assert!(plies >= 10, "{line}");
    }
    // And in MCTS self-play, its games' leaves multiplexed.
    let text = hayate(&[
        "selfplay",
        "--player",
        "mcts",
        "--model",
        &net,
        "--out",
        &p("sp"),
        "--positions",
        "20",
        "--shard-size",
        "10",
        "--threads",
        "2",
        "--playouts",
        "8",
        "--max-plies",
        "30",
        "--quiet",
    ]);
    assert!(text.contains("shards 2 written"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
