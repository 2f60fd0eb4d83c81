//! The arena against scripted engines (tiny `sh` programs that resign, hang, crash, play an
//! illegal move or declare falsely): every ending is adjudicated by the arena, a hung or crashed
//! engine is killed and restarted for the next game, and the results file resumes.

use std::path::{Path, PathBuf};

use hayate_arena::{
    ArenaError, EndReason, EngineConfig, Format, GameResult, League, SprtParams, TimeControl,
    Timeouts, run,
};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hayate-arena-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A USI engine in `sh` whose answer to `go` is `on_go` (shell code).
fn script(dir: &Path, name: &str, on_go: &str) -> EngineConfig {
    let path = dir.join(format!("{name}.sh"));
    let text = format!(
        "while read -r cmd rest; do\n  case \"$cmd\" in\n    usi) echo \"id name {name}\"; echo usiok;;\n    \
         isready) echo readyok;;\n    go) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    let mut e = EngineConfig::new(name, "/bin/sh");
    e.args = vec![path.display().to_string()];
    e
}

fn league(engines: Vec<EngineConfig>, dir: &Path) -> League {
    let mut l = League::new(engines, dir.join("out"));
    l.time_control = TimeControl::byoyomi(100);
    // Generous: a scripted engine under a loaded CI machine must not lose on time by accident.
    l.rules.margin_ms = 400;
    l.timeouts = Timeouts {
        usi_ms: 5000,
        ready_ms: 5000,
        stop_grace_ms: 2000,
        quit_ms: 500,
    };
    l
}

#[test]
fn every_ending_is_adjudicated_and_engines_are_restarted() {
    let dir = temp_dir("endings");
    let resign = script(&dir, "resigner", "echo 'bestmove resign'");
    let engines = vec![
        resign,
        script(&dir, "hanger", ":"),
        script(&dir, "crasher", "exit 3"),
        script(&dir, "illegal", "echo 'bestmove 1a1b'"),
        script(&dir, "declarer", "echo 'bestmove win'"),
        script(&dir, "sleeper", "sleep 1.5; echo 'bestmove resign'"),
    ];
    let mut l = league(engines, &dir);
    l.format = Format::Gauntlet;
    l.games_per_pair = 2;
    l.concurrency = 2;
    l.log_traffic = true;
    let out = run(&l).unwrap();
    assert_eq!(out.played, 10);
    // The traffic logs show what the arena sent and read.
    let logs: Vec<String> = std::fs::read_dir(l.out_dir.join("logs"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        logs.iter()
            .any(|t| t.contains("< go ") && t.contains("> bestmove 1a1b"))
    );
    let s = &out.summary;
    // Game 2k: the resigner is Black and resigns at once; game 2k+1: the other engine is Black.
    for g in &s.games {
        if g.black == "resigner" {
            assert_eq!((g.result, g.reason), (GameResult::White, EndReason::Resign));
            continue;
        }
        assert_eq!(g.result, GameResult::White, "{g:?}");
        let expect = match g.black.as_str() {
            "hanger" => EndReason::Hang,
            "crasher" => EndReason::Crash,
            "illegal" => EndReason::IllegalMove,
            "declarer" => EndReason::IllegalDeclaration,
            "sleeper" => EndReason::TimeLoss,
            other => panic!("{other}"),
        };
        assert_eq!(g.reason, expect, "{g:?}");
        assert!(!g.detail.is_empty(), "{g:?}");
        // The record is a CSA file the records crate reads back with the same winner.
        let text = std::fs::read_to_string(l.out_dir.join(&g.record)).unwrap();
        let rec = hayate_records::game::csa::parse_csa(&text).unwrap();
        assert_eq!(
            rec.outcome(),
            hayate_records::Outcome::Win(hayate_core::Color::White),
            "{text}"
        );
    }
    // Everyone scored 1 of 2 against the resigner.
    for i in 1..6 {
        assert_eq!(s.crosstable.get(0, i).wins, 1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_when_decided_and_resumes_decided() {
    let dir = temp_dir("sprt");
    // "mover" is only ever asked at the start position (as Black: the resigner, as Black,
    // resigns before it moves), so it wins every game.
    let mover = script(&dir, "mover", "echo 'bestmove 7g7f'");
    let resign = script(&dir, "resigner", "echo 'bestmove resign'");
    let mut l = league(vec![mover, resign], &dir);
    l.format = Format::Sprt(SprtParams::default());
    l.games_per_pair = 400;
    l.concurrency = 2;
    let out = run(&l).unwrap();
    let (_, llr, d) = out.summary.sprt.unwrap();
    assert_eq!(d, hayate_arena::SprtDecision::AcceptH1, "LLR {llr}");
    // About 14 straight wins decide it; a game or so more may finish in the other worker.
    assert!(
        (14..=17).contains(&out.played),
        "{}\n{}",
        out.summary.text(),
        out.summary.game_lines()
    );
    let again = run(&l).unwrap();
    assert_eq!((again.resumed, again.played), (out.played, 0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_cannot_start_stops_the_league() {
    let dir = temp_dir("nostart");
    let resign = script(&dir, "resigner", "echo 'bestmove resign'");
    let missing = EngineConfig::new("missing", "/nonexistent/engine");
    let mut l = league(vec![resign, missing], &dir);
    l.games_per_pair = 10;
    let e = run(&l).unwrap_err();
    assert!(matches!(e, ArenaError::EngineFailure(_)), "{e}");
    // The forfeits before the stop are recorded as crashes.
    let f = hayate_arena::ResultsFile::open(&l.results_path()).unwrap();
    assert_eq!(f.entries.len(), 3);
    assert!(f.entries.iter().all(|g| g.reason == EndReason::Crash));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_results_file_of_another_league_is_refused() {
    let dir = temp_dir("foreign");
    let a = script(&dir, "a", "echo 'bestmove resign'");
    let b = script(&dir, "b", "echo 'bestmove resign'");
    let c = script(&dir, "c", "echo 'bestmove resign'");
    let l = league(vec![a.clone(), b], &dir);
    run(&l).unwrap();
    let l2 = league(vec![a, c], &dir);
    assert!(matches!(run(&l2), Err(ArenaError::ForeignResults { .. })));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A script that plays `moves[n % 4]` where `n` is the number of moves in the `position` line.
fn cycler(dir: &Path, name: &str, moves: [&str; 4]) -> EngineConfig {
    let path = dir.join(format!("{name}.sh"));
    let text = format!(
        "n=0\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n    usi) echo usiok;;\n    \
         isready) echo readyok;;\n    position) set -- $rest; if [ \"$1\" = sfen ]; then shift 4; fi; \
         if [ $# -le 1 ]; then n=0; else n=$(( $# - 2 )); fi;;\n    \
         go) case $(( n % 4 )) in 0) m={};; 1) m={};; 2) m={};; *) m={};; esac; echo \"bestmove $m\";;\n    \
         quit) exit 0;;\n  esac\ndone\n",
        moves[0], moves[1], moves[2], moves[3]
    );
    std::fs::write(&path, text).unwrap();
    let mut e = EngineConfig::new(name, "/bin/sh");
    e.args = vec![path.display().to_string()];
    e
}

#[test]
fn repetition_and_perpetual_check_are_adjudicated() {
    let dir = temp_dir("repetition");
    // Kings step forward and back: the start position occurs a fourth time after 12 plies.
    let shuffle = ["5i5h", "5a5b", "5h5i", "5b5a"];
    let l = league(
        vec![cycler(&dir, "s1", shuffle), cycler(&dir, "s2", shuffle)],
        &dir,
    );
    let out = run(&l).unwrap();
    for g in &out.summary.games {
        assert_eq!(
            (g.result, g.reason, g.plies),
            (GameResult::Draw, EndReason::Repetition, 12)
        );
    }

    // Black's rook checks on every move while White's king steps 1a-1b-1a: Black loses.
    let dir2 = temp_dir("perpetual");
    let checks = ["1a1b", "9a9b", "1b1a", "9b9a"];
    let mut l = league(
        vec![cycler(&dir2, "c1", checks), cycler(&dir2, "c2", checks)],
        &dir2,
    );
    l.openings = hayate_arena::parse_openings("sfen R7k/9/9/9/9/9/9/9/4K4 w - 1\n").unwrap();
    let out = run(&l).unwrap();
    assert_eq!(out.summary.games.len(), 2);
    for g in &out.summary.games {
        assert_eq!(
            (g.result, g.reason),
            (GameResult::White, EndReason::PerpetualCheck),
            "{g:?}"
        );
        assert_eq!(g.plies, 12);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}
