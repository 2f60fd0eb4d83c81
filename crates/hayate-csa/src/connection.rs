//! One TCP connection to the server: a reader thread turns incoming bytes into line events on
//! a channel (which the engine's results share), writes go out directly with a timeout, and
//! the time of the last write is kept for the keep-alive rule.

use crate::config::Secret;
use crate::log::Log;
use hayate_core::player::{BestMove, Info};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Longest line accepted from the server; longer means a broken or hostile peer.
const MAX_LINE: u64 = 64 * 1024;

/// A finished search.
#[derive(Clone, Debug)]
pub struct Thought {
    /// The search's id (stale results are recognised by it).
    pub id: u64,
    /// The player's answer; `None` when the player panicked.
    pub best: Option<BestMove>,
    /// The last main-line progress report with a score, for the floodgate comment.
    pub info: Option<Info>,
}

/// Something that happened: a line from the server, the end of the stream, or a search result.
#[derive(Clone, Debug)]
pub enum Event {
    /// A line without its line end.
    Line(String),
    /// The server closed the connection (`None`) or reading failed (`Some(why)`).
    Closed(Option<String>),
    /// The player finished a search.
    Thought(Thought),
}

/// A live connection.
pub struct Connection {
    stream: TcpStream,
    events: Receiver<Event>,
    tx: Sender<Event>,
    last_sent: Instant,
    reader: Option<JoinHandle<()>>,
    log: Log,
}

impl Connection {
    /// Connects to `host:port` (each resolved address in turn, `timeout` each).
    ///
    /// # Errors
    /// The last connection error, or a resolution error.
    pub fn connect(
        host: &str,
        port: u16,
        timeout: Duration,
        log: &Log,
    ) -> std::io::Result<Connection> {
        let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address");
        for addr in (host, port).to_socket_addrs()? {
            match TcpStream::connect_timeout(&addr, timeout) {
                Ok(stream) => return Connection::from_stream(stream, log),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    fn from_stream(stream: TcpStream, log: &Log) -> std::io::Result<Connection> {
        stream.set_nodelay(true)?;
        // A write that cannot complete in this time means the peer is gone.
        stream.set_write_timeout(Some(Duration::from_secs(30)))?;
        let (tx, events) = channel();
        let read_half = stream.try_clone()?;
        let reader_tx = tx.clone();
        let reader = std::thread::Builder::new()
            .name("csa-reader".into())
            .spawn(move || read_lines(read_half, reader_tx))?;
        Ok(Connection {
            stream,
            events,
            tx,
            last_sent: Instant::now(),
            reader: Some(reader),
            log: log.clone(),
        })
    }

    /// Sends one line (LF added) and logs it (keep-alive empty lines are not logged).
    ///
    /// # Errors
    /// The write error.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        // Keep-alives would fill the log of a client waiting for floodgate's next round.
        if !line.is_empty() {
            self.log.line(format!("C> {line}"));
        }
        self.write_raw(line)
    }

    /// Sends `LOGIN <id> <password>`, logging the password as `****`.
    ///
    /// # Errors
    /// The write error.
    pub fn send_login(&mut self, id: &str, password: &Secret) -> std::io::Result<()> {
        self.log.line(format!("C> LOGIN {id} {password}"));
        self.write_raw(&format!("LOGIN {id} {}", password.expose()))
    }

    fn write_raw(&mut self, line: &str) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        self.stream.write_all(&buf)?;
        self.stream.flush()?;
        self.last_sent = Instant::now();
        Ok(())
    }

    /// A sender into this connection's event channel (for search results).
    pub fn sender(&self) -> Sender<Event> {
        self.tx.clone()
    }

    /// The next event, waiting at most `timeout`; `None` on timeout.
    pub fn recv(&self, timeout: Duration) -> Option<Event> {
        match self.events.recv_timeout(timeout) {
            Ok(e) => Some(e),
            Err(RecvTimeoutError::Timeout) => None,
            // Cannot happen while `self.tx` lives; report it as a closed stream anyway.
            Err(RecvTimeoutError::Disconnected) => {
                Some(Event::Closed(Some("channel closed".into())))
            }
        }
    }

    /// The next server line within `timeout`, skipping empty keep-alive echoes and stale
    /// search results.
    ///
    /// # Errors
    /// `Err(None)` on timeout, `Err(Some(why))` when the connection closed.
    pub fn next_line(&self, timeout: Duration) -> Result<String, Option<String>> {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.recv(left) {
                None => return Err(None),
                Some(Event::Line(l)) if l.is_empty() => {}
                Some(Event::Line(l)) => return Ok(l),
                Some(Event::Closed(why)) => {
                    return Err(Some(why.unwrap_or_else(|| "closed by the server".into())));
                }
                Some(Event::Thought(_)) => {}
            }
        }
    }

    /// Time since we last sent anything.
    pub fn since_last_send(&self) -> Duration {
        self.last_sent.elapsed()
    }

    /// Closes both directions and waits for the reader thread.
    pub fn close(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
        if let Some(h) = self.reader.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn read_lines(stream: TcpStream, tx: Sender<Event>) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::with_capacity(256);
    loop {
        buf.clear();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) => {
                let _ = tx.send(Event::Closed(None));
                return;
            }
            Ok(_) => {
                if buf.last() != Some(&b'\n') && buf.len() as u64 >= MAX_LINE {
                    let _ = tx.send(Event::Closed(Some("line too long".into())));
                    return;
                }
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                let line = String::from_utf8_lossy(&buf).into_owned();
                if tx.send(Event::Line(line)).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = tx.send(Event::Closed(Some(e.to_string())));
                return;
            }
        }
    }
}
