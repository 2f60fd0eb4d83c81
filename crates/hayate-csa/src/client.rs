//! The session: connect, `LOGIN`, wait for a `Game_Summary`, `AGREE` (or `REJECT` a summary we
//! cannot play), wait for `START`, play, close; then the next game, reconnecting with back-off
//! after failures, until the configured number of games is played.

use crate::config::Settings;
use crate::connection::{Connection, Event};
use crate::engine::Engine;
use crate::error::CsaError;
use crate::game::{self, GameReport};
use crate::log::Log;
use crate::summary::GameSummary;
use hayate_core::player::Player;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Time allowed to connect.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);
/// shogi-server rejects a game nobody agreed to within 120 s; wait a little longer for it.
const START_TIMEOUT: Duration = Duration::from_secs(150);
/// Longest wait between two looks at the stop flag.
pub(crate) const STOP_POLL: Duration = Duration::from_millis(100);

/// The games a session played.
#[derive(Clone, Debug, Default)]
pub struct SessionReport {
    /// Every game that got a summary and an answer (rejected ones included).
    pub games: Vec<GameReport>,
    /// Failed attempts (network, dropped or garbled games).
    pub failures: u32,
}

/// A CSA client driving one player.
pub struct Client {
    settings: Settings,
    log: Log,
    engine: Engine,
    stop: Arc<AtomicBool>,
    report: SessionReport,
}

impl Client {
    /// Checks the record folder, sets the player's options, prepares it and starts its thread.
    ///
    /// # Errors
    /// [`CsaError::RecordDir`] when the record folder cannot be written to;
    /// [`CsaError::Player`] when an option is refused or preparation fails.
    pub fn new(
        settings: Settings,
        mut player: Box<dyn Player>,
        log: Log,
    ) -> Result<Client, CsaError> {
        if let Some(dir) = &settings.record_dir {
            crate::record::check_record_dir(dir).map_err(|source| CsaError::RecordDir {
                path: dir.clone(),
                source,
            })?;
        }
        for (name, value) in &settings.engine_options {
            player
                .set_option(name, value)
                .map_err(|e| CsaError::Player(format!("option {name}={value}: {e}")))?;
        }
        player.prepare().map_err(CsaError::Player)?;
        let engine = Engine::start(player).map_err(|e| CsaError::Player(e.to_string()))?;
        log.line(format!(
            "player {} ready; server {}:{} as {}",
            engine.name(),
            settings.host,
            settings.port,
            settings.id
        ));
        Ok(Client {
            settings,
            log,
            engine,
            stop: Arc::new(AtomicBool::new(false)),
            report: SessionReport::default(),
        })
    }

    /// The flag that stops the session when set (from a Ctrl-C handler, say): a game in
    /// progress ends at once with its record written, and [`Client::run`] returns
    /// [`CsaError::Interrupted`].
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// The games played and failures so far: the summary of a session, also when
    /// [`Client::run`] failed.
    pub fn report(&self) -> &SessionReport {
        &self.report
    }

    fn stopped(&self) -> Result<(), CsaError> {
        if self.stop.load(Ordering::Relaxed) {
            self.log.line("stopped (interrupted)");
            return Err(CsaError::Interrupted);
        }
        Ok(())
    }

    /// Sleeps `d`, or less when the session is stopped.
    fn pause(&self, d: Duration) -> Result<(), CsaError> {
        let end = Instant::now() + d;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            self.stopped()?;
            std::thread::sleep(left.min(STOP_POLL));
        }
        self.stopped()
    }

    /// Plays until the configured number of games is done (forever with `games = 0`).
    /// Failures are retried with back-off when reconnecting is enabled.
    ///
    /// # Errors
    /// The failure that ended the session: a refused login, or any failure when reconnecting
    /// is off or the attempts are used up.
    pub fn run(&mut self) -> Result<SessionReport, CsaError> {
        self.report = SessionReport::default();
        let mut played = 0u32;
        let mut failures_in_row = 0u32;
        while self.settings.games.is_none_or(|n| played < n) {
            self.stopped()?;
            match self.play_one() {
                Ok(g) => {
                    failures_in_row = 0;
                    let rejected = g.rejected;
                    if !rejected {
                        played += 1;
                    }
                    self.report.games.push(g);
                    if rejected && self.settings.games.is_none_or(|n| played < n) {
                        self.pause(self.settings.reconnect.initial)?;
                    }
                }
                Err(CsaError::Interrupted) => return Err(CsaError::Interrupted),
                Err(e) => {
                    self.report.failures += 1;
                    failures_in_row += 1;
                    self.after_failure(e, failures_in_row)?;
                }
            }
        }
        self.log.line(format!(
            "session done: {played} games, {} failures",
            self.report.failures
        ));
        Ok(self.report.clone())
    }

    /// After the `n`th failure in a row: `Err` to give up (not retryable, reconnecting off, or
    /// `max_attempts` failures reached), else waits the back-off delay.
    fn after_failure(&self, e: CsaError, n: u32) -> Result<(), CsaError> {
        self.log.line(format!("session failed: {e}"));
        let policy = &self.settings.reconnect;
        if !e.is_retryable() || !policy.enabled {
            self.log
                .line("not reconnecting (as configured or not retryable)");
            return Err(e);
        }
        if policy.max_attempts > 0 && n >= policy.max_attempts {
            self.log
                .line(format!("giving up after {n} failures in a row"));
            return Err(e);
        }
        let delay = policy.delay(n);
        self.log.line(format!(
            "reconnecting in {:.1} s (failure {n})",
            delay.as_secs_f64()
        ));
        self.pause(delay)
    }

    /// One connection: log in, play one game (or see it rejected), close.
    ///
    /// # Errors
    /// Any [`CsaError`]; the connection is closed in every case.
    pub fn play_one(&mut self) -> Result<GameReport, CsaError> {
        let s = &self.settings;
        self.log
            .line(format!("connecting to {}:{}", s.host, s.port));
        let mut conn = Connection::connect(&s.host, s.port, CONNECT_TIMEOUT, &self.log)?;
        let result = self.session(&mut conn);
        if result.is_ok() && self.settings.logout {
            let _ = conn.send("LOGOUT");
            // shogi-server answers `LOGOUT:completed` in x1 mode, or has closed already.
            let _ = conn.next_line(Duration::from_secs(2));
        }
        conn.close();
        self.log.line("connection closed");
        result
    }

    fn session(&mut self, conn: &mut Connection) -> Result<GameReport, CsaError> {
        let s = &self.settings;
        conn.send_login(&s.id, &s.password)?;
        loop {
            match conn.next_line(s.answer_timeout) {
                Ok(l) if l == format!("LOGIN:{} OK", s.id) => {
                    self.log.line(format!("S> {l}"));
                    break;
                }
                Ok(l) if l.starts_with("LOGIN:incorrect") => {
                    self.log.line(format!("S> {l}"));
                    return Err(CsaError::LoginRefused);
                }
                Ok(l) => self.log.line(format!("ignored before login: S> {l}")),
                Err(None) => return Err(CsaError::Timeout("the LOGIN answer")),
                Err(Some(why)) => return Err(CsaError::ConnectionLost(why)),
            }
        }
        self.log.line("logged in; waiting for a game");
        let lines = self.read_summary(conn)?;
        let summary = match GameSummary::parse(&lines) {
            Ok(sum) => sum,
            Err(e) => {
                self.log.line(format!("unusable Game_Summary: {e}"));
                if let Some(id) = GameSummary::find_game_id(&lines) {
                    conn.send(&format!("REJECT {id}"))?;
                } else {
                    self.log
                        .line("no Game_ID in the summary: closing without an answer");
                }
                return Err(CsaError::BadSummary(e));
            }
        };
        for u in &summary.unknown {
            self.log
                .line(format!("summary line not understood (ignored): {u}"));
        }
        self.log.line(format!(
            "game {}: we are {} against {}, {}{}",
            summary.game_id,
            crate::csa_move::sign(summary.our_color),
            summary.opponent_name(),
            describe_time(&summary),
            summary
                .max_moves
                .map_or(String::new(), |n| format!(", max {n} moves")),
        ));
        self.engine.new_game();
        conn.send(&format!("AGREE {}", summary.game_id))?;
        let start = format!("START:{}", summary.game_id);
        let reject = format!("REJECT:{}", summary.game_id);
        let until = Instant::now() + START_TIMEOUT;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match conn.next_line(left) {
                Ok(l) if l == start => {
                    self.log.line(format!("S> {l}"));
                    break;
                }
                Ok(l) if l.starts_with(&reject) => {
                    self.log.line(format!("S> {l}"));
                    self.log.line("game rejected; not played");
                    return Ok(GameReport {
                        game_id: summary.game_id.clone(),
                        us: summary.our_color,
                        reason: None,
                        outcome: None,
                        rejected: true,
                        plies: 0,
                        record: None,
                    });
                }
                Ok(l) => self.log.line(format!("ignored before START: S> {l}")),
                Err(None) => return Err(CsaError::Timeout("START")),
                Err(Some(why)) => return Err(CsaError::ConnectionLost(why)),
            }
        }
        let report = game::play(
            conn,
            &self.engine,
            &self.settings,
            &self.log,
            &summary,
            &self.stop,
        )?;
        // The player's tables are cleared now, between games, rather than on the next game's
        // clock.
        if let Some(o) = report.outcome {
            self.engine.game_over(o.game_over());
        }
        Ok(report)
    }

    /// Waits (with keep-alives) for `BEGIN Game_Summary`, then reads to `END Game_Summary`;
    /// each body line must come within the answer timeout.
    fn read_summary(&self, conn: &mut Connection) -> Result<Vec<String>, CsaError> {
        let s = &self.settings;
        loop {
            self.stopped()?;
            let wait = s
                .keepalive
                .saturating_sub(conn.since_last_send())
                .clamp(Duration::from_millis(1), STOP_POLL);
            match conn.recv(wait) {
                None => {
                    if conn.since_last_send() >= s.keepalive {
                        conn.send("")?;
                    }
                }
                Some(Event::Line(l)) if l == "BEGIN Game_Summary" => break,
                Some(Event::Line(l)) if l.is_empty() => {}
                Some(Event::Line(l)) => self.log.line(format!("ignored while waiting: S> {l}")),
                Some(Event::Thought(_)) => {}
                Some(Event::Closed(why)) => {
                    return Err(CsaError::ConnectionLost(
                        why.unwrap_or_else(|| "closed while waiting for a game".into()),
                    ));
                }
            }
        }
        let mut lines = Vec::new();
        loop {
            match conn.next_line(s.answer_timeout) {
                Ok(l) if l == "END Game_Summary" => return Ok(lines),
                Ok(l) => {
                    if lines.len() > 10_000 {
                        self.log.line("Game_Summary too long: giving up on it");
                        return Err(CsaError::BadSummary(
                            crate::error::ParseError::SummaryStructure("over 10000 lines".into()),
                        ));
                    }
                    lines.push(l);
                }
                Err(None) => {
                    self.log.line(format!(
                        "Game_Summary not finished after {} lines (no END Game_Summary)",
                        lines.len()
                    ));
                    return Err(CsaError::Timeout("END Game_Summary"));
                }
                Err(Some(why)) => {
                    self.log.line(format!(
                        "connection lost inside the Game_Summary after {} lines",
                        lines.len()
                    ));
                    return Err(CsaError::ConnectionLost(why));
                }
            }
        }
    }

    /// Stops the player thread and returns the player.
    pub fn into_player(self) -> Option<Box<dyn Player>> {
        self.engine.stop()
    }
}

fn describe_time(s: &GameSummary) -> String {
    let t = s.time[s.our_color.index()];
    format!(
        "time {}s byoyomi {}s increment {}s least {}s",
        t.total.as_secs(),
        t.byoyomi.as_secs(),
        t.increment.as_secs(),
        t.least_per_move.as_secs()
    )
}
