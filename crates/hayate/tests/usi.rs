//! USI transcripts over a real child process: handshake, options, a full self-play game at a
//! short byoyomi with every `bestmove` legal and on time, ponder/ponderhit, stop, gameover,
//! garbage lines, quit.

use hayate_core::Position;
use std::time::{Duration, Instant};

mod support;

use support::{Engine, SERIAL, StallWatch, Timing};

#[test]
fn handshake_declares_options_and_survives_garbage() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut e = Engine::start();
    let lines = e.handshake(&[
        ("EvalType", "material"),
        ("USI_Hash", "16"),
        ("USI_Ponder", "true"),
    ]);
    assert!(lines.iter().any(|l| l.starts_with("id name Hayate")));
    for opt in [
        "USI_Hash",
        "Threads",
        "MultiPV",
        "MaxMovesToDraw",
        "EvalType",
        "NetworkDelay",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {opt} type"))),
            "{opt} missing"
        );
    }
    // Garbage of every kind: each answered by an info string, the engine stays alive.
    for bad in [
        "frobnicate",
        "position sfen not/a/sfen b - 1",
        "position startpos moves 7g7f 7g7f",
        "go btime abc",
        "setoption name NoSuchOption value 3",
        "setoption name USI_Hash value many",
        "setoption name USI_Hash value 65537",
        "position",
        "position sfen 9/9/9/9/9/9/9/9/9 b - 1",
        "position sfen 4k4/9/9/9/9/9/9/9/3KK4 b - 1",
        "position sfen 4k4/4+p4/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1",
    ] {
        e.send(bad);
        let l = e.until(Duration::from_secs(5), |l| l.starts_with("info string"));
        assert!(l.last().unwrap().starts_with("info string"), "{bad}");
    }
    // A malformed `go` still searches and answers (its bad parameter named).
    e.send("go frobnicate depth 2");
    let (m, _, lines) = e.bestmove(Duration::from_secs(10));
    assert!(lines.iter().any(|l| l.contains("frobnicate")), "{lines:?}");
    assert!(Position::startpos().parse_usi_move(&m).is_ok(), "{m}");
    e.send("stop"); // harmless while idle
    e.send("isready");
    e.until(Duration::from_secs(5), |l| l == "readyok");
    // The bad position line kept the previous (start) position: a search still answers legally.
    e.send("go depth 3");
    let (m, _, _) = e.bestmove(Duration::from_secs(10));
    assert!(Position::startpos().parse_usi_move(&m).is_ok(), "{m}");
    e.quit();
}

#[test]
fn self_play_at_byoyomi_100_every_move_legal_and_on_time() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let byoyomi = Duration::from_millis(100);
    let mut e = Engine::start();
    e.handshake(&[("EvalType", "material"), ("USI_Hash", "16")]);
    e.send("usinewgame");
    let watch = StallWatch::start();
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let mut slowest = Duration::ZERO;
    // Moves over the byoyomi during which the test process itself was paused as long (a CI
    // virtual machine once stalled 650 ms at one move; the engine cannot answer on time then).
    let mut machine_paused = Vec::new();
    for _ in 0..40 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let t0 = watch.begin();
        e.send(&format!(
            "go btime 0 wtime 0 byoyomi {}",
            byoyomi.as_millis()
        ));
        let (m, _, lines) = e.bestmove(Duration::from_secs(5));
        slowest = slowest.max(t0.elapsed());
        match watch.judge(t0, byoyomi) {
            Timing::OnTime => {}
            paused @ Timing::MachinePaused { .. } => machine_paused.push(paused),
            late => {
                // The engine's own account: its last `info ... time` line.
                let last_info = lines.iter().rev().find(|l| l.contains(" time "));
                panic!("move {}: {late:?}; {last_info:?}", moves.len() + 1);
            }
        }
        if m == "resign" || m == "win" {
            break;
        }
        let mv = pos
            .parse_usi_move(&m)
            .unwrap_or_else(|err| panic!("illegal bestmove {m}: {err}"));
        pos.do_move(mv);
        moves.push(m);
    }
    assert!(moves.len() >= 20, "the game ended too early: {moves:?}");
    // A machine that pauses at every move leaves nothing measured.
    assert!(machine_paused.len() <= 2, "{machine_paused:?}");
    e.send("gameover draw");
    e.quit();
    eprintln!("slowest move {slowest:?}; over the byoyomi in a machine pause: {machine_paused:?}");
}

#[test]
fn ponder_ponderhit_stop_and_infinite() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut e = Engine::start();
    e.handshake(&[("EvalType", "kkpee9"), ("USI_Hash", "16")]);
    e.send("position startpos moves 7g7f");
    e.send("go btime 0 wtime 0 byoyomi 1000");
    let (m, ponder, lines) = e.bestmove(Duration::from_secs(5));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "info lines expected"
    );
    let ponder = ponder.expect("a ponder move");
    // Ponder on the expected reply: no bestmove until ponderhit, then within the byoyomi.
    e.send(&format!("position startpos moves 7g7f {m} {ponder}"));
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    assert!(
        e.lines
            .recv_timeout(Duration::from_millis(600))
            .map_or(true, |l| !l.starts_with("bestmove"))
    );
    let t0 = Instant::now();
    e.send("ponderhit");
    let (m2, _, _) = e.bestmove(Duration::from_secs(5));
    assert!(t0.elapsed() < Duration::from_millis(400));
    let mut pos =
        Position::from_usi_position(&format!("startpos moves 7g7f {m} {ponder}")).unwrap();
    let mv = pos.parse_usi_move(&m2).expect("legal");
    pos.do_move(mv);
    // Ponder miss: the GUI stops the ponder search and the engine answers at once.
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    e.bestmove(Duration::from_millis(500));
    // Infinite: only stop ends it.
    e.send("position startpos");
    e.send("go infinite");
    assert!(
        e.lines
            .recv_timeout(Duration::from_millis(300))
            .map_or(true, |l| !l.starts_with("bestmove"))
    );
    e.send("stop");
    let (m3, _, _) = e.bestmove(Duration::from_secs(2));
    assert!(Position::startpos().parse_usi_move(&m3).is_ok());
    // gameover during a ponder search stops it cleanly.
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    e.send("gameover lose");
    // An unknown result word is reported, and the engine goes on.
    e.send("gameover maybe");
    e.until(Duration::from_secs(5), |l| {
        l == "info string unknown gameover \"maybe\""
    });
    e.send("isready");
    e.until(Duration::from_secs(5), |l| l == "readyok");
    e.quit();
}

#[test]
fn multipv_and_declaration_and_resign() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut e = Engine::start();
    e.handshake(&[
        ("EvalType", "material"),
        ("USI_Hash", "16"),
        ("MultiPV", "3"),
    ]);
    e.send("position startpos");
    e.send("go depth 4");
    let (_, _, lines) = e.bestmove(Duration::from_secs(10));
    for k in 1..=3 {
        assert!(
            lines.iter().any(|l| l.contains(&format!("multipv {k} "))),
            "multipv {k}"
        );
    }
    e.send("setoption name MultiPV value 1");
    // Entering king with enough points: bestmove win.
    e.send("position sfen GGGGS4/SSS1K4/PP7/9/9/9/9/9/4k4 b 2R2B 1");
    e.send("go btime 0 wtime 0 byoyomi 200");
    assert_eq!(e.bestmove(Duration::from_secs(5)).0, "win");
    // Checkmated: bestmove resign.
    e.send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    e.send("go btime 0 wtime 0 byoyomi 200");
    assert_eq!(e.bestmove(Duration::from_secs(5)).0, "resign");
    e.quit();
}

#[test]
fn nnue_loads_at_isready_and_plays() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("hayate-usi-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = dir.join("nn.bin");
    std::fs::write(
        &net,
        hayate_eval::nnue::random_net_bytes(&hayate_eval::nnue::RandomNetParams::default()),
    )
    .unwrap();
    let mut e = Engine::start();
    e.send("usi");
    e.until(Duration::from_secs(5), |l| l == "usiok");
    // A missing file: a clear info string, and the engine stays up.
    e.send("setoption name EvalType value nnue");
    e.send("setoption name EvalFile value /no/such/dir/nn.bin");
    e.send("isready");
    let lines = e.until(Duration::from_secs(10), |l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("/no/such/dir/nn.bin")),
        "{lines:?}"
    );
    // The real file, through EvalDir + EvalFile.
    e.send(&format!("setoption name EvalDir value {}", dir.display()));
    e.send("setoption name EvalFile value nn.bin");
    let t0 = Instant::now();
    e.send("isready");
    let lines = e.until(Duration::from_secs(10), |l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    eprintln!("nnue isready took {:?}", t0.elapsed());
    e.send("position startpos moves 2g2f");
    e.send("go depth 4");
    let (m, _, _) = e.bestmove(Duration::from_secs(10));
    assert!(
        Position::from_usi_position("startpos moves 2g2f")
            .unwrap()
            .parse_usi_move(&m)
            .is_ok()
    );
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A net of another shape than 256x2-32-32 (HalfKP 512x2-16-32) loads through EvalFile and
/// plays: the engine builds the searcher of the file's shape.
#[test]
fn nnue_of_another_shape_loads_and_plays() {
    use hayate_eval::nnue::shape::{FeatureSet, Shape};
    use hayate_eval::nnue::{RandomNetParams, random_net_bytes_of};
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("hayate-usi-nnue512-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = dir.join("nn.bin");
    let shape = Shape {
        features: FeatureSet::HalfKp,
        half: 512,
        h1: 16,
        h2: 32,
    };
    std::fs::write(
        &net,
        random_net_bytes_of(&shape, &RandomNetParams::for_shape(&shape, 1)),
    )
    .unwrap();
    let mut e = Engine::start();
    e.send("usi");
    e.until(Duration::from_secs(5), |l| l == "usiok");
    e.send("setoption name EvalType value nnue");
    e.send(&format!("setoption name EvalFile value {}", net.display()));
    e.send("isready");
    let lines = e.until(Duration::from_secs(20), |l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    e.send("position startpos moves 7g7f");
    e.send("go depth 4");
    let (m, _, _) = e.bestmove(Duration::from_secs(20));
    assert!(
        Position::from_usi_position("startpos moves 7g7f")
            .unwrap()
            .parse_usi_move(&m)
            .is_ok()
    );
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dl_player_through_usi_with_a_tiny_onnx_model() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let model = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hayate-mcts/tests/data/tiny_resnet.onnx"
    );
    let mut e = Engine::start();
    e.handshake(&[
        ("EvalType", "dl"),
        ("DNN_Model", model),
        ("UCT_Threads", "2"),
    ]);
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..6 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go nodes 200");
        let (m, _, lines) = e.bestmove(Duration::from_secs(20));
        // The first search says which backend runs the network.
        let said = lines
            .iter()
            .any(|l| l.starts_with("info string backend tract "));
        assert_eq!(said, ply == 0, "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info") && l.contains(" pv ")),
            "{lines:?}"
        );
        let mv = pos
            .parse_usi_move(&m)
            .unwrap_or_else(|err| panic!("illegal bestmove {m}: {err}"));
        pos.do_move(mv);
        moves.push(m);
    }
    // Back to αβ in the same process: the options of each player stay with it.
    e.send("setoption name EvalType value material");
    e.send("isready");
    e.until(Duration::from_secs(10), |l| l == "readyok");
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 3");
    let (m, _, _) = e.bestmove(Duration::from_secs(10));
    assert!(pos.parse_usi_move(&m).is_ok(), "{m}");
    e.quit();
}

/// A mate in one for Black (G*5b): a search finds it, the first legal move does not.
const MATE_IN_ONE: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";

#[test]
fn non_utf8_lines_are_skipped_and_a_shift_jis_path_is_decoded() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // A directory with a Japanese name holding a valid nn.bin, named in Shift_JIS as a GUI on
    // Japanese Windows sends it.
    let dir = std::env::temp_dir().join(format!("hayate-usi-sjis-{}", std::process::id()));
    let eval_dir = dir.join("評価関数");
    std::fs::create_dir_all(&eval_dir).unwrap();
    std::fs::write(
        eval_dir.join("nn.bin"),
        hayate_eval::nnue::random_net_bytes(&hayate_eval::nnue::RandomNetParams::default()),
    )
    .unwrap();
    let mut e = Engine::start();
    e.send("usi");
    e.until(Duration::from_secs(5), |l| l == "usiok");
    e.send("isready");
    e.until(Duration::from_secs(10), |l| l == "readyok");
    e.send_bytes(b"\xff\xfe");
    let lines = e.until(Duration::from_secs(5), |l| l.starts_with("info string"));
    assert!(lines.last().unwrap().contains("UTF-8"), "{lines:?}");
    e.send("setoption name EvalType value nnue");
    e.send("setoption name USI_Hash value 16");
    let line = format!("setoption name EvalDir value {}", eval_dir.display());
    let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&line);
    assert!(!unmappable && std::str::from_utf8(&sjis).is_err());
    e.send_bytes(&sjis);
    e.send("isready");
    let lines = e.until(Duration::from_secs(10), |l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "the net under the Shift_JIS path should load: {lines:?}"
    );
    e.send(&format!("position sfen {MATE_IN_ONE}"));
    e.send("go depth 3");
    let (m, _, _) = e.bestmove(Duration::from_secs(10));
    assert_eq!(m, "G*5b");
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hash_larger_than_memory_is_refused_gracefully() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // 1.5 GB of address space: 60000 MB cannot be had, whatever the machine's memory (the
    // allocation fails here instead of over-committing and being killed later).
    let mut e = Engine::start_limited("ulimit -v 1500000");
    e.handshake(&[("EvalType", "material"), ("USI_Hash", "16")]);
    e.send("setoption name USI_Hash value 60000");
    e.send("isready");
    let lines = e.until(Duration::from_secs(30), |l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("USI_Hash 60000")),
        "{lines:?}"
    );
    e.send(&format!("position sfen {MATE_IN_ONE}"));
    e.send("go depth 3");
    assert_eq!(e.bestmove(Duration::from_secs(10)).0, "G*5b");
    e.quit();
}

#[test]
fn a_bad_evaluation_file_is_reported_and_the_default_evaluation_plays() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("hayate-usi-badnet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = dir.join("nn.bin");
    std::fs::write(&net, b"not a network").unwrap();
    let model = dir.join("model.onnx");
    std::fs::write(&model, b"not a model").unwrap();
    for options in [
        [("EvalType", "nnue"), ("EvalFile", net.to_str().unwrap())],
        [("EvalType", "dl"), ("DNN_Model", model.to_str().unwrap())],
    ] {
        let mut e = Engine::start();
        e.send("usi");
        e.until(Duration::from_secs(5), |l| l == "usiok");
        for (n, v) in options {
            e.send(&format!("setoption name {n} value {v}"));
        }
        e.send("setoption name USI_Hash value 16");
        e.send("isready");
        let lines = e.until(Duration::from_secs(20), |l| l == "readyok");
        let file = options[1].1;
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error") && l.contains(file)),
            "{lines:?}"
        );
        // Every go says it again, and searches: the mate in one is found.
        for _ in 0..2 {
            e.send(&format!("position sfen {MATE_IN_ONE}"));
            e.send("go btime 0 wtime 0 byoyomi 300");
            let (m, _, lines) = e.bestmove(Duration::from_secs(10));
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("info string error") && l.contains(file)),
                "{lines:?}"
            );
            assert_eq!(m, "G*5b", "{options:?}: {lines:?}");
        }
        e.quit();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_of_range_go_numbers_still_get_a_bestmove() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut e = Engine::start();
    e.handshake(&[("EvalType", "material"), ("USI_Hash", "16")]);
    e.send("position startpos");
    e.send("go nodes 99999999999999999999 depth 3");
    let (m, _, _) = e.bestmove(Duration::from_secs(10));
    assert!(Position::startpos().parse_usi_move(&m).is_ok(), "{m}");
    // Saturated to about 49 days each: a long think, which `stop` ends.
    e.send("go btime 18446744073709551615 wtime 18446744073709551615 binc 99999999999999999999 winc -99999999999999999999");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let (m, _, lines) = e.bestmove(Duration::from_secs(5));
    assert!(Position::startpos().parse_usi_move(&m).is_ok(), "{m}");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    e.send("go mate 18446744073709551616");
    e.send("stop");
    e.until(Duration::from_secs(5), |l| l.starts_with("checkmate"));
    e.quit();
}

#[test]
fn a_gui_burst_of_every_option_is_instant() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut e = Engine::start();
    e.send("usi");
    let lines = e.until(Duration::from_secs(5), |l| l == "usiok");
    // Every declared option with its declared default, as a GUI sends them.
    let options: Vec<(String, String)> = lines
        .iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.strip_prefix("option name ")?.split(' ').collect();
            let default = w.iter().position(|&x| x == "default").map(|i| w[i + 1]);
            Some((w[0].to_string(), default.unwrap_or("").to_string()))
        })
        .collect();
    assert!(options.len() >= 40, "{options:?}");
    // The first isready builds the player (the KKPEE9 tables and a 256 MB table).
    e.send("isready");
    e.until(Duration::from_secs(30), |l| l == "readyok");
    let t0 = Instant::now();
    for (n, v) in &options {
        e.send(&format!("setoption name {n} value {v}"));
    }
    e.send("isready");
    let lines = e.until(Duration::from_secs(30), |l| l == "readyok");
    let took = t0.elapsed();
    eprintln!("{} options + isready: {took:?}", options.len());
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "every default is a valid value: {lines:?}"
    );
    // Each setoption used to build a player with a 256 MB table: 6-23 s in all.
    assert!(took < Duration::from_secs(2), "{took:?}");
    e.quit();
}
