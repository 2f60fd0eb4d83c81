//! A Novice 4-head network (85-channel input, win/draw/loss value) plays through USI as the DL
//! player: trained a few steps by `hayate train fit`, exported to ONNX, then full games in the
//! arena against the material αβ player with no engine fault.

use std::process::Command;

const HAYATE: &str = env!("CARGO_BIN_EXE_hayate");

fn hayate(args: &[&str]) -> String {
    let out = Command::new(HAYATE)
        .args(args)
        .output()
        .expect("hayate runs");
    assert!(
        out.status.success(),
        "hayate {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_novice_network_plays_full_games_through_usi() {
    let dir = std::env::temp_dir().join(format!("hayate-novice-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let p = |x: &str| dir.join(x).display().to_string();
    hayate(&[
        "selfplay",
        "--eval",
        "material",
        "--depth",
        "1",
        "--format",
        "hcpe",
        "--out",
        &p("ab"),
        "--positions",
        "100",
        "--shard-size",
        "100",
        "--quiet",
    ]);
    hayate(&[
        "train",
        "fit",
        "--model",
        "novice1x8",
        "--out",
        &p("nov"),
        "--steps",
        "2",
        "--batch",
        "16",
        &p("ab/shard-000000.hcpe"),
    ]);
    hayate(&[
        "train",
        "export-onnx",
        &p("nov/checkpoint"),
        &p("novice.onnx"),
    ]);

    let engines = dir.join("engines.toml");
    std::fs::write(
        &engines,
        format!(
            "[[engine]]\nname = \"novice\"\npath = {HAYATE:?}\ngo = \"nodes 24\"\n\
             [engine.options]\nEvalType = \"dl\"\nDNN_Model = {:?}\nUCT_Threads = 1\n\
             DNN_Threads = 1\nDraw_Value_Black = 400\n\n\
             [[engine]]\nname = \"material\"\npath = {HAYATE:?}\ngo = \"depth 1\"\n\
             [engine.options]\nEvalType = \"material\"\nUSI_Hash = 8\n",
            p("novice.onnx")
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
    let _ = std::fs::remove_dir_all(&dir);
}
