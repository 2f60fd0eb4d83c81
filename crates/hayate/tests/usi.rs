//! USI transcripts over a real child process: handshake, options, a full self-play game at a
//! short byoyomi with every `bestmove` legal and on time, ponder/ponderhit, stop, gameover,
//! garbage lines, quit.

use hayate_core::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The engine tests share two cores; timing assertions need them not to compete.
static SERIAL: Mutex<()> = Mutex::new(());

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hayate"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to engine");
        self.stdin.flush().expect("flush");
    }

    /// Reads lines until one satisfies `done`; returns all lines read. Panics after `timeout`.
    fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out; got {got:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; got {got:?}"),
            }
        }
    }

    fn handshake(&mut self, options: &[(&str, &str)]) -> Vec<String> {
        self.send("usi");
        let lines = self.until(Duration::from_secs(5), |l| l == "usiok");
        for (n, v) in options {
            self.send(&format!("setoption name {n} value {v}"));
        }
        self.send("isready");
        self.until(Duration::from_secs(30), |l| l == "readyok");
        lines
    }

    fn bestmove(&mut self, timeout: Duration) -> (String, Option<String>, Vec<String>) {
        let lines = self.until(timeout, |l| l.starts_with("bestmove"));
        let last = lines.last().expect("a line").clone();
        let mut w = last.split_whitespace().skip(1);
        let m = w.next().expect("a move").to_string();
        let p = match (w.next(), w.next()) {
            (Some("ponder"), Some(p)) => Some(p.to_string()),
            _ => None,
        };
        (m, p, lines)
    }

    fn quit(mut self) {
        self.send("quit");
        let t0 = Instant::now();
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(2),
                "quit must exit promptly"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

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
        "position",
    ] {
        e.send(bad);
        let l = e.until(Duration::from_secs(5), |l| l.starts_with("info string"));
        assert!(l.last().unwrap().starts_with("info string"), "{bad}");
    }
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
    let mut e = Engine::start();
    e.handshake(&[("EvalType", "material"), ("USI_Hash", "16")]);
    e.send("usinewgame");
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let mut slowest = Duration::ZERO;
    for _ in 0..40 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let t0 = Instant::now();
        e.send("go btime 0 wtime 0 byoyomi 100");
        let (m, _, _) = e.bestmove(Duration::from_secs(5));
        let took = t0.elapsed();
        slowest = slowest.max(took);
        assert!(
            took < Duration::from_millis(100),
            "move {} took {took:?}",
            moves.len() + 1
        );
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
    e.send("gameover draw");
    e.quit();
    eprintln!("slowest move {slowest:?}");
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
