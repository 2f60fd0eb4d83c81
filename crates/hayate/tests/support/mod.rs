//! A USI engine under test: the real binary as a child process, lines read on a thread.

#![allow(dead_code)] // each test file uses its own part

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs the binary with `args` to success; returns its standard output.
pub fn hayate(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
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

/// A tiny network of family `model` (`resnet1x8`, `novice1x8`, `gmlp1x16`, …) in `dir`: trained
/// a few steps on material αβ games, exported to `dir/<model>.onnx`, which is returned.
pub fn tiny_net(dir: &std::path::Path, model: &str) -> String {
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
        "200",
        "--shard-size",
        "200",
        "--quiet",
    ]);
    hayate(&[
        "train",
        "fit",
        "--model",
        model,
        "--out",
        &p(model),
        "--steps",
        "3",
        "--batch",
        "32",
        &p("ab/shard-000000.hcpe"),
    ]);
    let onnx = p(&format!("{model}.onnx"));
    hayate(&[
        "train",
        "export-onnx",
        &p(&format!("{model}/checkpoint")),
        &onnx,
    ]);
    onnx
}

/// The engine tests share two cores; timing assertions need them not to compete.
pub static SERIAL: Mutex<()> = Mutex::new(());

/// How late the test process itself runs: a thread that sleeps 2 ms at a time and keeps the
/// largest oversleep. A busy machine wakes a sleeper a few ms late; a virtual machine that is
/// descheduled wakes it as late as the pause. So a move that overruns its time while this
/// watcher was paused as long was the machine's pause, not the engine's; an overrun with the
/// watcher on time is the engine's.
pub struct StallWatch {
    late_us: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl StallWatch {
    pub fn start() -> StallWatch {
        let late_us = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (l, s) = (late_us.clone(), stop.clone());
        std::thread::spawn(move || {
            let nap = Duration::from_millis(2);
            while !s.load(Ordering::Relaxed) {
                let t = Instant::now();
                std::thread::sleep(nap);
                let late = t.elapsed().saturating_sub(nap).as_micros() as u64;
                l.fetch_max(late, Ordering::Relaxed);
            }
        });
        StallWatch { late_us, stop }
    }

    /// The longest pause seen since the last call (or the start). Private: a call between
    /// `begin` and `judge` would forget the pause that `judge` must see.
    fn take(&self) -> Duration {
        Duration::from_micros(self.late_us.swap(0, Ordering::Relaxed))
    }

    /// Starts timing a move: the pauses seen before it are forgotten.
    pub fn begin(&self) -> Instant {
        self.take();
        Instant::now()
    }

    /// The verdict on a move begun (by [`StallWatch::begin`]) at `t0` that had `limit`.
    pub fn judge(&self, t0: Instant, limit: Duration) -> Timing {
        let took = t0.elapsed();
        let Some(over) = took.checked_sub(limit) else {
            self.take();
            return Timing::OnTime;
        };
        // A pause that ended just now is recorded when the watcher wakes: give it a moment.
        std::thread::sleep(Duration::from_millis(10));
        let paused = self.take();
        if paused >= over {
            Timing::MachinePaused { took, paused }
        } else {
            Timing::Late { took, paused }
        }
    }
}

impl Drop for StallWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// A move's time against its limit, with the machine's pauses meanwhile considered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    OnTime,
    /// Over the limit by no more than the test process itself was paused.
    MachinePaused {
        took: Duration,
        paused: Duration,
    },
    /// Over the limit while the test process ran on time: the engine's fault.
    Late {
        took: Duration,
        paused: Duration,
    },
}

pub struct Engine {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<String>,
}

impl Engine {
    /// The engine binary, speaking USI.
    pub fn start() -> Engine {
        Engine::start_with(Command::new(env!("CARGO_BIN_EXE_hayate")))
    }

    /// The engine under a shell: `limits` run first (e.g. `ulimit -v 1000000`).
    pub fn start_limited(limits: &str) -> Engine {
        let mut sh = Command::new("sh");
        sh.arg("-c")
            .arg(format!("{limits}; exec \"$0\""))
            .arg(env!("CARGO_BIN_EXE_hayate"));
        Engine::start_with(sh)
    }

    pub fn start_with(mut command: Command) -> Engine {
        let mut child = command
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

    pub fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    /// Sends one line as raw bytes (a `\n` is added).
    pub fn send_bytes(&mut self, line: &[u8]) {
        self.stdin.write_all(line).expect("write to engine");
        self.stdin.write_all(b"\n").expect("write to engine");
        self.stdin.flush().expect("flush");
    }

    /// Whether the engine process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Reads lines until one satisfies `done`; returns all lines read. Panics after `timeout`.
    pub fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
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

    pub fn handshake(&mut self, options: &[(&str, &str)]) -> Vec<String> {
        self.send("usi");
        let lines = self.until(Duration::from_secs(5), |l| l == "usiok");
        for (n, v) in options {
            self.send(&format!("setoption name {n} value {v}"));
        }
        self.send("isready");
        self.until(Duration::from_secs(30), |l| l == "readyok");
        lines
    }

    pub fn bestmove(&mut self, timeout: Duration) -> (String, Option<String>, Vec<String>) {
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

    pub fn quit(mut self) {
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
