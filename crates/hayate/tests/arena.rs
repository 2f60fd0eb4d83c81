//! `hayate match` end to end: the binary runs a tiny league between two configurations of itself,
//! writes results, records, the game list and the HTML report, and a second run resumes (plays
//! nothing more).

use std::process::Command;

const HAYATE: &str = env!("CARGO_BIN_EXE_hayate");

#[test]
fn match_runs_a_tiny_league_and_resumes() {
    let dir = std::env::temp_dir().join(format!("hayate-match-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let engines = dir.join("engines.toml");
    std::fs::write(
        &engines,
        format!(
            "[[engine]]\nname = \"material-d1\"\npath = {HAYATE:?}\ngo = \"depth 1\"\n\
             [engine.options]\nEvalType = \"material\"\nUSI_Hash = 8\n\n\
             [[engine]]\nname = \"material-b20\"\npath = {HAYATE:?}\n\
             [engine.options]\nEvalType = \"material\"\nUSI_Hash = 8\n"
        ),
    )
    .unwrap();
    let out = dir.join("run");
    let report = dir.join("report.html");
    let args = |games: &str| {
        let mut c = Command::new(HAYATE);
        c.arg("match")
            .arg("--engines")
            .arg(&engines)
            .arg("--out")
            .arg(&out)
            .args(["--games", games, "--byoyomi", "20", "--margin", "300"])
            .args(["--max-plies", "16", "--concurrency", "2", "--quiet"])
            .arg("--report")
            .arg(&report);
        c
    };
    let first = args("2").output().unwrap();
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(
        first.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(
        text.contains("2 games (0 from an earlier run, 2 now"),
        "{text}"
    );
    assert!(
        text.contains("material-d1") && text.contains("material-b20"),
        "{text}"
    );
    let results = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    assert_eq!(results.lines().count(), 2);
    let list = std::fs::read_to_string(out.join("games.txt")).unwrap();
    assert_eq!(list.lines().count(), 2, "{list}");
    let csa: Vec<_> = std::fs::read_dir(out.join("games")).unwrap().collect();
    assert_eq!(csa.len(), 2);
    let page = std::fs::read_to_string(&report).unwrap();
    assert!(
        page.contains("<svg") && page.contains("href=\"run/games/"),
        "links"
    );

    // Same command, more games: the two already played are kept, two more are played.
    let second = args("4").output().unwrap();
    let text = String::from_utf8_lossy(&second.stdout);
    assert!(second.status.success(), "{text}");
    assert!(
        text.contains("4 games (2 from an earlier run, 2 now"),
        "{text}"
    );

    // A bad engines file is a clear error, not a panic.
    std::fs::write(&engines, "[[engine]]\nname = \"x\"\n").unwrap();
    let bad = args("2").output().unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("engines file") && !err.contains("panicked"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn standing_pools_runs_renames_engines_and_leaves_a_torn_line_in_place() {
    let dir = std::env::temp_dir().join(format!("hayate-standing-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("r1")).unwrap();
    let line = |id: u32, black: &str, white: &str, result: &str| {
        format!(
            "{{\"id\":{id},\"black\":\"{black}\",\"white\":\"{white}\",\"opening\":0,\
             \"result\":\"{result}\",\"reason\":\"checkmate\",\"plies\":90,\"record\":\"g.csa\"}}\n"
        )
    };
    let r1 = [
        line(0, "a", "b", "black"),
        line(1, "b", "a", "white"),
        line(2, "a", "b", "white"),
    ]
    .concat();
    std::fs::write(dir.join("r1/results.jsonl"), r1).unwrap();
    // Every game of r1 names this record (r2's is missing: its times are left out).
    let csa = "N+a\nN-b\nPI\n+\n+7776FU\nT0.1\n-3334FU\nT0.3\n%TORYO\n";
    std::fs::write(dir.join("r1/g.csa"), csa).unwrap();
    // A second run whose build was called a2, with a game still being written.
    let r2 = format!("{}{{\"id\":1,\"black\":\"b", line(0, "b", "a2", "white"));
    std::fs::write(dir.join("r2.jsonl"), &r2).unwrap();
    let out = Command::new(HAYATE)
        .arg("standing")
        .arg(dir.join("r1"))
        .arg(dir.join("r2.jsonl"))
        .args(["--engine", "a2=a"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // 3 wins and 1 loss: 75 %, 400 log10(3) = +191 Elo.
    assert!(
        text.contains("a vs b: 3/0/1 (4 games, 75.0%, Elo +191 ["),
        "{text}"
    );
    assert!(text.contains("ended by: checkmate 4"), "{text}");
    assert!(
        text.contains("a: 3 moves, mean 100, median 100, p90 100, max 100; time losses 0"),
        "{text}"
    );
    assert!(text.contains("b: 3 moves, mean 300"), "{text}");
    assert_eq!(std::fs::read_to_string(dir.join("r2.jsonl")).unwrap(), r2);
    let _ = std::fs::remove_dir_all(&dir);
}
