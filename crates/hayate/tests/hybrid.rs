//! `EvalType hybrid` over the real binary: KKPEE9 αβ and the MCTS player over the tiny ONNX
//! test net, consulted on every move. One `bestmove` per `go`, within the byoyomi; lines tagged
//! by side; a bad model leaves the αβ side to play and says so; mates are played by the mate
//! rule; ponder and stop.

use hayate_core::Position;
use std::time::{Duration, Instant};

mod support;

use support::{Engine, SERIAL, StallWatch, Timing};

const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../hayate-mcts/tests/data/tiny_resnet.onnx"
);

/// A mate in one for Black (G*5b).
const MATE_IN_ONE: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
/// A mate in three for Black (shared/data/mate/exact-short.tsv, with Black's king added far
/// away so that it is a game position).
const MATE_IN_THREE: &str = "3sks3/9/4S4/9/9/8B/9/9/4K4 b S 1";

fn hybrid(model: &str) -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    e.send("usi");
    e.until(Duration::from_secs(5), |l| l == "usiok");
    for (n, v) in [
        ("EvalType", "hybrid"),
        ("Hybrid_AlphaBeta", "kkpee9"),
        ("DNN_Model", model),
        ("USI_Hash", "16"),
        ("Threads", "1"),
        ("UCT_Threads", "1"),
        ("DNN_Threads", "1"),
    ] {
        e.send(&format!("setoption name {n} value {v}"));
    }
    e.send("isready");
    let lines = e.until(Duration::from_secs(30), |l| l == "readyok");
    (e, lines)
}

/// Nothing but `info` lines for `wait`: no second `bestmove`.
fn no_more_bestmove(e: &mut Engine, wait: Duration) {
    let deadline = Instant::now() + wait;
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match e.lines.recv_timeout(left) {
            Ok(l) => assert!(!l.starts_with("bestmove"), "a second answer: {l}"),
            Err(_) => return,
        }
    }
}

#[test]
fn go_byoyomi_300_gets_one_bestmove_in_time_with_lines_tagged_by_side() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (mut e, ready) = hybrid(MODEL);
    assert!(!ready.iter().any(|l| l.contains("error")), "{ready:?}");
    e.send("usinewgame");
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let mut said = Vec::new();
    let watch = StallWatch::start();
    let mut machine_paused = Vec::new();
    for _ in 0..8 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let t0 = watch.begin();
        e.send("go btime 0 wtime 0 byoyomi 300");
        let (m, _, lines) = e.bestmove(Duration::from_secs(5));
        match watch.judge(t0, Duration::from_millis(300)) {
            Timing::OnTime => {}
            // The test process itself was paused as long as the overrun: the machine's pause.
            paused @ Timing::MachinePaused { .. } => machine_paused.push(paused),
            late => panic!("{late:?}: {lines:?}"),
        }
        no_more_bestmove(&mut e, Duration::from_millis(100));
        let mv = pos
            .parse_usi_move(&m)
            .unwrap_or_else(|err| panic!("illegal bestmove {m}: {err}"));
        pos.do_move(mv);
        moves.push(m);
        said.extend(lines);
    }
    // One pause in eight moves may be the machine's; more leaves nothing measured.
    assert!(machine_paused.len() <= 1, "{machine_paused:?}");
    let has = |prefix: &str| said.iter().any(|l| l.starts_with(prefix));
    assert!(has("info string dl: "), "DL lines tagged");
    assert!(has("info depth "), "αβ lines plain");
    assert!(has("info string hybrid: "), "decisions said");
    e.quit();
}

#[test]
fn a_bad_model_file_leaves_the_ab_side_to_play_and_says_so() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("hayate-hybrid-badnet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let model = dir.join("model.onnx");
    std::fs::write(&model, b"not a model").expect("write");
    let model = model.to_str().expect("utf-8 path");
    let (mut e, ready) = hybrid(model);
    let says = |lines: &[String]| {
        lines.iter().any(|l| {
            l.starts_with("info string error") && l.contains(model) && l.contains("αβ side alone")
        })
    };
    assert!(says(&ready), "{ready:?}");
    e.send("position startpos");
    let t0 = Instant::now();
    e.send("go btime 0 wtime 0 byoyomi 300");
    let (m, _, lines) = e.bestmove(Duration::from_secs(5));
    assert!(t0.elapsed() < Duration::from_millis(300), "{lines:?}");
    assert!(says(&lines), "{lines:?}");
    assert!(Position::startpos().parse_usi_move(&m).is_ok(), "{m}");
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether `first` from `sfen` mates in three: every reply leaves a mate in one.
fn mates_in_three(sfen: &str, first: &str) -> bool {
    let mut pos = Position::from_sfen(sfen).expect("sfen");
    let Ok(m) = pos.parse_usi_move(first) else {
        return false;
    };
    pos.do_move(m);
    let replies = pos.legal_moves();
    !replies.is_empty()
        && replies.iter().all(|&r| {
            let mut p = pos.clone();
            p.do_move(r);
            hayate_mate::mate_in_1(&p).is_some()
        })
}

#[test]
fn mates_in_one_and_three_are_played_by_the_mate_rule() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (mut e, _) = hybrid(MODEL);
    for sfen in [MATE_IN_ONE, MATE_IN_THREE] {
        e.send(&format!("position sfen {sfen}"));
        e.send("go btime 0 wtime 0 byoyomi 300");
        let (m, _, lines) = e.bestmove(Duration::from_secs(5));
        let decided = lines
            .iter()
            .find(|l| l.starts_with("info string hybrid: "))
            .unwrap_or_else(|| panic!("no decision: {lines:?}"));
        assert!(decided.contains("mate rule"), "{decided}");
        if sfen == MATE_IN_ONE {
            assert_eq!(m, "G*5b", "{lines:?}");
        } else {
            assert!(mates_in_three(sfen, &m), "{m}: {lines:?}");
        }
    }
    e.quit();
}

#[test]
fn ponder_waits_for_ponderhit_and_stop_answers_at_once() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (mut e, _) = hybrid(MODEL);
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    assert!(
        e.lines
            .recv_timeout(Duration::from_millis(500))
            .map_or(true, |l| !l.starts_with("bestmove"))
    );
    let t0 = Instant::now();
    e.send("ponderhit");
    let (m, _, lines) = e.bestmove(Duration::from_secs(5));
    assert!(t0.elapsed() < Duration::from_millis(300), "{lines:?}");
    let pos = Position::from_usi_position("startpos moves 7g7f 3c3d").expect("position");
    assert!(pos.parse_usi_move(&m).is_ok(), "{m}");
    // A ponder miss: `stop` ends both sides and the (discarded) answer comes at once.
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    std::thread::sleep(Duration::from_millis(100));
    let t0 = Instant::now();
    e.send("stop");
    e.bestmove(Duration::from_secs(2));
    assert!(t0.elapsed() < Duration::from_millis(200));
    no_more_bestmove(&mut e, Duration::from_millis(100));
    e.quit();
}
