//! A USI engine as a child process, driven from the GUI side with a deadline on every wait.
//!
//! A reader thread turns the engine's stdout into lines on a channel, so every wait is a
//! `recv_timeout` and a hung engine can never block the arena.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use hayate_core::Position;
use hayate_core::player::Info;
use hayate_usi::{EngineLine, parse_engine_line, parse_info};

use crate::config::EngineConfig;

/// What went wrong with an engine process.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("engine {name:?}: cannot start {path}: {source}")]
    Spawn {
        /// Engine name.
        name: String,
        /// Program path.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The engine did not answer in time.
    #[error("engine {name:?}: no {expected} within {timeout_ms} ms")]
    Timeout {
        /// Engine name.
        name: String,
        /// What was awaited (`usiok`, `readyok`, `bestmove`).
        expected: &'static str,
        /// How long the arena waited.
        timeout_ms: u64,
    },
    /// The engine's output ended (it exited or crashed).
    #[error("engine {name:?}: exited while the arena waited for {expected}{status}")]
    Exited {
        /// Engine name.
        name: String,
        /// What was awaited.
        expected: &'static str,
        /// `" (exit status ...)"` when known.
        status: String,
    },
    /// Writing to the engine failed (its stdin is closed: it has exited).
    #[error("engine {name:?}: cannot write to it: {source}")]
    Write {
        /// Engine name.
        name: String,
        /// The cause.
        source: std::io::Error,
    },
}

/// What a `go` produced.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReply {
    /// The bestmove word: a USI move, `resign` or `win`.
    pub best: String,
    /// Milliseconds from sending `go` to reading `bestmove`.
    pub elapsed_ms: u64,
}

/// Handshake and answer timeouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// For `usiok` after `usi`.
    pub usi_ms: u64,
    /// For `readyok` after `isready` (engines build tables here).
    pub ready_ms: u64,
    /// After the clock's deadline has passed and `stop` was sent, how long to wait for a
    /// `bestmove` before the engine is declared hung and killed.
    pub stop_grace_ms: u64,
    /// How long an engine may take to exit after `quit` before it is killed.
    pub quit_ms: u64,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            usi_ms: 10_000,
            ready_ms: 30_000,
            stop_grace_ms: 2_000,
            quit_ms: 2_000,
        }
    }
}

enum Line {
    Text(String),
    Eof,
}

/// A running engine.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    /// `id name` the engine announced.
    id_name: String,
    timeouts: Timeouts,
    dead: bool,
    log: Option<TrafficLog>,
    t0: Instant,
}

/// A USI traffic log shared by the arena (lines sent) and the reader thread (lines received).
type TrafficLog = std::sync::Arc<std::sync::Mutex<std::io::BufWriter<std::fs::File>>>;

fn log_line(log: &Option<TrafficLog>, t0: Instant, dir: char, line: &str) {
    if let Some(l) = log
        && let Ok(mut w) = l.lock()
    {
        let _ = writeln!(w, "{:>9.3} {dir} {line}", t0.elapsed().as_secs_f64());
        let _ = w.flush();
    }
}

impl EngineProcess {
    /// Starts an engine, does the `usi` handshake, sends its options, and waits for `readyok`.
    ///
    /// # Errors
    /// [`EngineError`] when it cannot start, times out, or exits.
    pub fn start(cfg: &EngineConfig, timeouts: Timeouts) -> Result<EngineProcess, EngineError> {
        EngineProcess::start_logged(cfg, timeouts, None)
    }

    /// As [`EngineProcess::start`], appending every line sent (`<`) and received (`>`), with
    /// seconds since the start, to `log` when given. A log that cannot be opened is skipped.
    ///
    /// # Errors
    /// As [`EngineProcess::start`].
    pub fn start_logged(
        cfg: &EngineConfig,
        timeouts: Timeouts,
        log: Option<&std::path::Path>,
    ) -> Result<EngineProcess, EngineError> {
        let t0 = Instant::now();
        let log: Option<TrafficLog> = log.and_then(|p| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .ok()
                .map(|f| std::sync::Arc::new(std::sync::Mutex::new(std::io::BufWriter::new(f))))
        });
        log_line(&log, t0, '#', &format!("start {}", cfg.path.display()));
        let mut cmd = Command::new(&cfg.path);
        cmd.args(&cfg.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // The engine's stderr would tear the progress bar: keep it quiet.
            .stderr(Stdio::null());
        if let Some(d) = &cfg.working_dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn().map_err(|source| EngineError::Spawn {
            name: cfg.name.clone(),
            path: cfg.path.display().to_string(),
            source,
        })?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(EngineError::Spawn {
                    name: cfg.name.clone(),
                    path: cfg.path.display().to_string(),
                    source: std::io::Error::other("no pipes"),
                });
            }
        };
        let (tx, rx) = channel();
        let reader_log = log.clone();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Line::Eof);
                        return;
                    }
                    Ok(_) => {
                        let s = String::from_utf8_lossy(&buf).trim_end().to_string();
                        log_line(&reader_log, t0, '>', &s);
                        if tx.send(Line::Text(s)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut e = EngineProcess {
            name: cfg.name.clone(),
            child,
            stdin,
            lines: rx,
            id_name: String::new(),
            timeouts,
            dead: false,
            log,
            t0,
        };
        e.send("usi")?;
        let deadline = Instant::now() + Duration::from_millis(timeouts.usi_ms);
        loop {
            match e.next_line(deadline, "usiok", timeouts.usi_ms)? {
                EngineLine::UsiOk => break,
                EngineLine::Id(k, v) if k == "name" => e.id_name = v,
                _ => {}
            }
        }
        // The arena never ponders; say so, as GUIs do, unless the engines file sets it.
        if !cfg.options.iter().any(|(n, _)| n == "USI_Ponder") {
            e.send("setoption name USI_Ponder value false")?;
        }
        for (n, v) in &cfg.options {
            e.send(&format!("setoption name {n} value {v}"))?;
        }
        e.ready()?;
        Ok(e)
    }

    /// The name from the engines file.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The `id name` the engine announced.
    pub fn id_name(&self) -> &str {
        &self.id_name
    }

    /// Whether the process is known to have exited or been killed.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Sends one line.
    ///
    /// # Errors
    /// [`EngineError::Write`] when the engine's stdin is closed.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log_line(&self.log, self.t0, '<', line);
        let r = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        r.map_err(|source| {
            self.dead = true;
            EngineError::Write {
                name: self.name.clone(),
                source,
            }
        })
    }

    fn next_line(
        &mut self,
        deadline: Instant,
        expected: &'static str,
        timeout_ms: u64,
    ) -> Result<EngineLine, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Line::Text(s)) => Ok(parse_engine_line(&s)),
            Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                let status = match self.child.try_wait() {
                    Ok(Some(st)) => format!(" ({st})"),
                    _ => String::new(),
                };
                Err(EngineError::Exited {
                    name: self.name.clone(),
                    expected,
                    status,
                })
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                name: self.name.clone(),
                expected,
                timeout_ms,
            }),
        }
    }

    /// `isready` and wait for `readyok`.
    ///
    /// # Errors
    /// [`EngineError`] on timeout or exit.
    pub fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let ms = self.timeouts.ready_ms;
        let deadline = Instant::now() + Duration::from_millis(ms);
        loop {
            if let EngineLine::ReadyOk = self.next_line(deadline, "readyok", ms)? {
                return Ok(());
            }
        }
    }

    /// `isready` then `usinewgame`.
    ///
    /// # Errors
    /// [`EngineError`] on timeout or exit.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.ready()?;
        self.send("usinewgame")
    }

    /// Sends `position` (with the history of `pos`) and `go`, passes every `info` line to
    /// `on_info` (parsed by `hayate-usi`), and waits for `bestmove`. When `allowed_ms` (plus the
    /// margin) passes, sends `stop` and waits `stop_grace_ms` more; the reply then still comes
    /// back (the caller sees the elapsed time and adjudicates the time loss). With no reply even
    /// then, the engine is killed and [`EngineError::Timeout`] returned.
    ///
    /// # Errors
    /// [`EngineError`] when the engine exits, or hangs past the grace period.
    pub fn search(
        &mut self,
        pos: &Position,
        go: &str,
        allowed_ms: u64,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<SearchReply, EngineError> {
        self.send(&format!("position {}", pos.to_usi_position()))?;
        self.send(&format!("go {go}"))?;
        let t0 = Instant::now();
        let stop_at = t0 + Duration::from_millis(allowed_ms);
        let mut stopped = false;
        loop {
            let deadline = if stopped {
                stop_at + Duration::from_millis(self.timeouts.stop_grace_ms)
            } else {
                stop_at
            };
            match self.next_line(deadline, "bestmove", allowed_ms) {
                Ok(EngineLine::BestMove(m, _)) => {
                    return Ok(SearchReply {
                        best: m,
                        elapsed_ms: t0.elapsed().as_millis() as u64,
                    });
                }
                Ok(EngineLine::Info(text)) => on_info(&parse_info(&text, pos)),
                Ok(_) => {}
                Err(EngineError::Timeout { .. }) if !stopped => {
                    stopped = true;
                    self.send("stop")?;
                }
                Err(EngineError::Timeout { name, expected, .. }) => {
                    self.kill();
                    return Err(EngineError::Timeout {
                        name,
                        expected,
                        timeout_ms: t0.elapsed().as_millis() as u64,
                    });
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Kills the process now.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.dead = true;
    }

    /// `quit`, then kill the process if it has not exited within `quit_ms`.
    pub fn quit(self) {
        EngineProcess::quit_all(vec![self]);
    }

    /// `quit` to every engine at once, then kills those that have not exited within their
    /// `quit_ms` (so several engines take one timeout, not one each).
    pub fn quit_all(mut engines: Vec<EngineProcess>) {
        let start = Instant::now();
        for e in engines.iter_mut() {
            if !e.dead {
                let _ = e.send("quit");
            }
        }
        for mut e in engines {
            let deadline = start + Duration::from_millis(e.timeouts.quit_ms);
            while !e.dead && Instant::now() < deadline {
                if let Ok(Some(_)) = e.child.try_wait() {
                    e.dead = true;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            e.kill();
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !self.dead {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_program_is_a_spawn_error() {
        let cfg = EngineConfig::new("x", "/nonexistent/engine");
        assert!(matches!(
            EngineProcess::start(&cfg, Timeouts::default()),
            Err(EngineError::Spawn { .. })
        ));
    }
}
