//! `go mate` over USI and `hayate mate` on the command line, against the real binary: the
//! progress lines, the shortest mate, `nomate` only on a proof, `timeout` otherwise, and a table
//! larger than memory.

use hayate_core::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Mate in 9 exactly (shared/data/mate/exact-short.tsv).
const MATE9: &str = "ln7/1k1+P5/1pp1S4/p8/9/2P6/9/9/9 b BGN2rbg2s2n3l13p 1";
/// No mate: the only mating move would be a pawn-drop mate (illegal).
const NOMATE: &str = "kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1";
/// Shogi Muso 28, a mate in 51: not solved in 300 ms.
const HARD: &str = "4+R2+Pl/3gp4/1+P1lN1k1S/6p2/9/5SP1N/B5B2/1+n1r1L3/5N1Sg b 2gsl13p 1";

/// Sends `commands` to the engine, then reads up to the `checkmate` line; returns every line.
fn usi_session(commands: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the engine");
    let mut stdin = child.stdin.take().expect("stdin");
    for c in commands {
        writeln!(stdin, "{c}").expect("write to engine");
    }
    stdin.flush().expect("flush");
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("engine output");
        let done = line.starts_with("checkmate");
        lines.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").expect("quit");
    drop(stdin);
    assert!(child.wait().expect("engine exit").success());
    lines
}

fn go_mate(sfen: &str, limit: &str) -> Vec<String> {
    usi_session(&[
        "usi",
        "setoption name USI_Hash value 16",
        "isready",
        &format!("position sfen {sfen}"),
        &format!("go mate {limit}"),
    ])
}

#[test]
fn go_mate_reports_progress_and_the_proven_shortest_mate() {
    let lines = go_mate(MATE9, "20000");
    let last = lines.last().expect("a checkmate line");
    let moves: Vec<&str> = last.split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 9, "{lines:?}");
    let mut pos = Position::from_sfen(MATE9).expect("sfen");
    for m in &moves {
        let mv = pos.parse_usi_move(m).expect("a legal move");
        pos.do_move(mv);
    }
    assert!(pos.is_checkmate(), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string mate proven shortest: 9 plies")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info time") && l.contains("score mate 9 pv ")),
        "{lines:?}"
    );
}

#[test]
fn go_mate_says_nomate_only_on_a_proof() {
    let lines = go_mate(NOMATE, "20000");
    assert_eq!(lines.last().map(String::as_str), Some("checkmate nomate"));
    let lines = go_mate(HARD, "300");
    assert_eq!(lines.last().map(String::as_str), Some("checkmate timeout"));
}

#[test]
fn mate_with_a_table_larger_than_memory_clamps_it_and_answers() {
    for mb in ["100000", "100000000"] {
        let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
            .args([
                "mate",
                "--sfen",
                MATE9,
                "--time-ms",
                "20000",
                "--hash-mb",
                mb,
            ])
            .output()
            .expect("run hayate mate");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{mb}: {:?} {stderr}", out.status);
        assert!(stdout.starts_with("checkmate "), "{stdout}");
        assert_eq!(stdout.split_whitespace().count(), 10, "{stdout}");
        // 100 TB never fits; 100 GB does not fit on the machines the suite runs on.
        if mb == "100000000" {
            assert!(stderr.contains("does not fit in memory"), "{mb}: {stderr}");
        }
    }
}

/// A mate in 1 in the tsume-shogi convention (the defender's drops between the dragon and the
/// king are futile) and in 3 under the game's rules, where such a drop counts as a defence.
#[test]
fn go_mate_follows_the_tsume_convention_unless_mate_game_rules_is_set() {
    const FUTILE: &str = "6Snl/5+Rg1k/6ppp/9/9/9/9/9/9 b r2b3g3s3n3l15p 1";
    let plies = |game_rules: bool| {
        let lines = usi_session(&[
            "usi",
            "setoption name USI_Hash value 16",
            &format!("setoption name Mate_GameRules value {game_rules}"),
            "isready",
            &format!("position sfen {FUTILE}"),
            "go mate 5000",
        ]);
        let last = lines.last().expect("a checkmate line").clone();
        assert!(
            !last.contains("nomate") && !last.contains("timeout"),
            "{lines:?}"
        );
        last.split_whitespace().count() - 1
    };
    assert_eq!(plies(false), 1);
    assert_eq!(plies(true), 3);
}
