//! Test support: transcripts of real shogi-server sessions, a scripted server on 127.0.0.1 that
//! replays one side of them and checks what the client sends, and scripted players.
#![allow(dead_code)]

use hayate_core::Position;
use hayate_core::player::{BestMove, Info, Limits, Player, Score, Signals};
use hayate_core::usi_option::OptionError;
use hayate_csa::csa_move::parse_csa_move;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the scripted server waits for any client line before failing the test.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// One transcript line.
#[derive(Clone, Debug)]
pub struct Line {
    pub who: String,
    pub from_client: bool,
    pub text: String,
}

/// Reads `/work/shared/data/csa/<name>` (or `$HAYATE_SHARED/data/csa/<name>`).
pub fn transcript(name: &str) -> Vec<Line> {
    let root = std::env::var("HAYATE_SHARED").unwrap_or_else(|_| {
        let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let beside = here.join("../../../shared");
        if beside.exists() {
            beside.display().to_string()
        } else {
            "/work/shared".to_string()
        }
    });
    let path = PathBuf::from(root).join("data/csa").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for l in text.lines() {
        // `[  0.32] alice  C> 'LOGIN alice x'` (the logout transcript has no time and no name).
        let rest = match l.strip_prefix('[') {
            Some(r) => match r.split_once(']') {
                Some((_, r)) => r.trim_start(),
                None => continue,
            },
            None => l,
        };
        let (who, rest) = if rest.starts_with("C>") || rest.starts_with("S>") {
            ("", rest)
        } else {
            match rest.split_once(char::is_whitespace) {
                Some((w, r)) => (w, r.trim_start()),
                None => continue,
            }
        };
        let (from_client, quoted) = if let Some(q) = rest.strip_prefix("C> ") {
            (true, q)
        } else if let Some(q) = rest.strip_prefix("S> ") {
            (false, q)
        } else {
            continue;
        };
        let q = quoted.trim_end();
        let text = if q.len() >= 2
            && ((q.starts_with('\'') && q.ends_with('\''))
                || (q.starts_with('"') && q.ends_with('"')))
        {
            q[1..q.len() - 1].to_string()
        } else {
            q.to_string()
        };
        out.push(Line {
            who: who.to_string(),
            from_client,
            text,
        });
    }
    out
}

/// The lines of one participant.
pub fn side(lines: &[Line], who: &str) -> Vec<Line> {
    lines.iter().filter(|l| l.who == who).cloned().collect()
}

/// A check on a client line.
pub type Check = Box<dyn Fn(&str) -> Result<(), String> + Send>;

/// One step of the scripted server.
pub enum Step {
    /// Send this line.
    Send(String),
    /// The client must send exactly this (empty = optional keep-alive; `LOGOUT` may also be
    /// an end of stream).
    Expect(String),
    /// The client's next line must pass this check.
    ExpectWith(String, Check),
    /// Wait this long (client keep-alives are collected meanwhile).
    Pause(Duration),
    /// Close the connection.
    Close,
}

/// Steps replaying the server side of `lines` (one participant's).
pub fn steps(lines: &[Line]) -> Vec<Step> {
    lines
        .iter()
        .map(|l| {
            if l.from_client {
                Step::Expect(l.text.clone())
            } else if l.text == "<EOF>" {
                Step::Close
            } else {
                Step::Send(l.text.clone())
            }
        })
        .collect()
}

/// What the server saw on one connection.
#[derive(Debug, Default)]
pub struct Seen {
    /// Every line the client sent, in order, with the time since the connection opened.
    pub lines: Vec<(Duration, String)>,
}

impl Seen {
    pub fn texts(&self) -> Vec<&str> {
        self.lines.iter().map(|(_, l)| l.as_str()).collect()
    }
}

/// A server on 127.0.0.1 that serves one script per connection, in order.
pub struct ScriptServer {
    pub port: u16,
    handle: JoinHandle<Result<Vec<Seen>, String>>,
}

impl ScriptServer {
    pub fn start(scripts: Vec<Vec<Step>>) -> ScriptServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        listener.set_nonblocking(true).expect("nonblocking");
        let handle = std::thread::spawn(move || {
            let mut all = Vec::new();
            for (i, script) in scripts.into_iter().enumerate() {
                let stream = accept(&listener).map_err(|e| format!("connection {i}: {e}"))?;
                let seen = serve(stream, script).map_err(|e| format!("connection {i}: {e}"))?;
                all.push(seen);
            }
            Ok(all)
        });
        ScriptServer { port, handle }
    }

    /// Waits for the script to finish; the error names the first mismatch.
    pub fn finish(self) -> Result<Vec<Seen>, String> {
        self.handle
            .join()
            .map_err(|_| "server thread panicked".to_string())?
    }
}

fn accept(listener: &TcpListener) -> Result<TcpStream, String> {
    let end = Instant::now() + READ_TIMEOUT;
    loop {
        match listener.accept() {
            Ok((s, _)) => {
                s.set_nonblocking(false).map_err(|e| e.to_string())?;
                // Like shogi-server's many small writes, without Nagle's 40 ms stalls.
                s.set_nodelay(true).map_err(|e| e.to_string())?;
                return Ok(s);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() > end {
                    return Err("no client connected".into());
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}

struct Peer {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    start: Instant,
    seen: Seen,
}

impl Peer {
    /// The next non-empty client line; `Ok(None)` at end of stream.
    fn next(&mut self, timeout: Duration) -> Result<Option<String>, String> {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err("timed out waiting for the client".into());
            }
            self.reader
                .get_ref()
                .set_read_timeout(Some(left))
                .map_err(|e| e.to_string())?;
            let mut l = String::new();
            match self.reader.read_line(&mut l) {
                Ok(0) => return Ok(None),
                Ok(_) => {
                    let l = l.trim_end_matches(['\r', '\n']).to_string();
                    self.seen.lines.push((self.start.elapsed(), l.clone()));
                    if !l.is_empty() {
                        return Ok(Some(l));
                    }
                }
                Err(e)
                    if e.kind() == std::io::ErrorKind::WouldBlock
                        || e.kind() == std::io::ErrorKind::TimedOut =>
                {
                    return Err("timed out waiting for the client".into());
                }
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return Ok(None),
                Err(e) => return Err(e.to_string()),
            }
        }
    }
}

fn serve(stream: TcpStream, script: Vec<Step>) -> Result<Seen, String> {
    let writer = stream.try_clone().map_err(|e| e.to_string())?;
    let mut peer = Peer {
        reader: BufReader::new(stream),
        writer,
        start: Instant::now(),
        seen: Seen::default(),
    };
    let mut closed = false;
    for step in script {
        match step {
            Step::Send(l) => {
                // A write after the client left is not a failure of the script.
                let _ = peer.writer.write_all(format!("{l}\n").as_bytes());
            }
            Step::Expect(e) if e.is_empty() => {}
            Step::Expect(e) => match peer.next(READ_TIMEOUT)? {
                Some(got) if got == e => {}
                None if e == "LOGOUT" => {}
                Some(got) => return Err(format!("expected `{e}`, client sent `{got}`")),
                None => return Err(format!("expected `{e}`, client closed")),
            },
            Step::ExpectWith(what, check) => match peer.next(READ_TIMEOUT)? {
                Some(got) => check(&got).map_err(|e| format!("{what}: `{got}`: {e}"))?,
                None => return Err(format!("expected {what}, client closed")),
            },
            Step::Pause(d) => {
                // `next` skips keep-alives until the pause runs out (an error here).
                match peer.next(d) {
                    Ok(Some(l)) => return Err(format!("unexpected `{l}` during a pause")),
                    Ok(None) => {
                        // The client left (e.g. it gave up waiting): the script ends here.
                        closed = true;
                        break;
                    }
                    Err(_) => {}
                }
            }
            Step::Close => {
                let _ = peer.writer.shutdown(std::net::Shutdown::Both);
                closed = true;
                break;
            }
        }
    }
    if !closed {
        // The client must close on its own after the result; only LOGOUT may come first.
        loop {
            match peer.next(READ_TIMEOUT)? {
                None => break,
                Some(l) if l == "LOGOUT" => {}
                Some(l) => return Err(format!("unexpected `{l}` after the script")),
            }
        }
    }
    Ok(peer.seen)
}

/// A player that plays the client lines of a transcript (moves, `%TORYO` → resign, `%KACHI`
/// → win), reporting the eval and PV of a floodgate comment when the line has one.
pub struct ScriptPlayer {
    plan: Vec<String>,
    next: usize,
    /// Wait for `stop` before answering (to test the client's deadline).
    pub slow: bool,
    pub calls: Arc<Mutex<Vec<String>>>,
}

impl ScriptPlayer {
    pub fn from_side(lines: &[Line]) -> ScriptPlayer {
        let plan = lines
            .iter()
            .filter(|l| l.from_client)
            .map(|l| l.text.clone())
            .filter(|t| t.starts_with('+') || t.starts_with('-') || t.starts_with('%'))
            .collect();
        ScriptPlayer {
            plan,
            next: 0,
            slow: false,
            calls: Arc::new(Mutex::new(Vec::new())),
        }
    }
}

/// A move that is not legal anywhere (to see the client refuse to send it).
fn bogus_move(pos: &Position) -> hayate_core::Move {
    // Any move from an empty square: pick the first empty square as the origin.
    let from = hayate_core::Square::all()
        .find(|&s| pos.piece_on(s).is_empty())
        .unwrap_or(hayate_core::Square::new(40));
    let to = hayate_core::Square::all()
        .find(|&s| s != from && pos.piece_on(s).is_empty())
        .unwrap_or(hayate_core::Square::new(41));
    hayate_core::Move::new_board(
        from,
        to,
        false,
        hayate_core::Piece::new(pos.side_to_move(), hayate_core::PieceType::PAWN),
        hayate_core::Piece::EMPTY,
    )
}

impl Player for ScriptPlayer {
    fn name(&self) -> String {
        "script".into()
    }
    fn new_game(&mut self) {
        // A reconnected session replays the same game from the start.
        self.next = 0;
    }
    fn set_option(&mut self, _: &str, _: &str) -> Result<(), OptionError> {
        Ok(())
    }
    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        assert!(!limits.ponder, "the script player does not ponder");
        if self.slow {
            let end = Instant::now() + Duration::from_secs(20);
            while !signals.is_stopped() && Instant::now() < end {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        let Some(line) = self.plan.get(self.next).cloned() else {
            return BestMove::Resign;
        };
        self.next += 1;
        self.calls.lock().unwrap().push(line.clone());
        match line.as_str() {
            "%TORYO" => return BestMove::Resign,
            "%KACHI" => return BestMove::Win,
            _ => {}
        }
        let (text, comment) = match line.split_once(",'") {
            Some((t, c)) => (t.to_string(), Some(c.to_string())),
            None => (line.clone(), None),
        };
        let Ok(best) = parse_csa_move(pos, &text) else {
            return BestMove::Move {
                best: bogus_move(pos),
                ponder: None,
            };
        };
        let mut pv = vec![best];
        if let Some(c) = comment {
            // `* <eval from Black> <pv>`: report it as a search would, from the mover's view.
            let mut words = c.trim_start_matches('*').split_whitespace();
            let black: i32 = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
            let cp = match pos.side_to_move() {
                hayate_core::Color::Black => black,
                hayate_core::Color::White => -black,
            };
            let mut p = pos.clone();
            p.do_move(best);
            for w in words {
                match parse_csa_move(&p, w) {
                    Ok(m) => {
                        pv.push(m);
                        p.do_move(m);
                    }
                    Err(_) => break,
                }
            }
            info(&Info {
                depth: Some(5),
                score: Some(Score::Cp(cp)),
                pv: pv.clone(),
                ..Info::default()
            });
        }
        BestMove::Move {
            best,
            ponder: pv.get(1).copied(),
        }
    }
}

/// A fresh empty folder under the system temp folder.
pub fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "hayate-csa-test-{tag}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}
