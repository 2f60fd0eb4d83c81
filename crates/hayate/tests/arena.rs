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
