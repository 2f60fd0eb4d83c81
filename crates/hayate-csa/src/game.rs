//! One game after `START`: our clock, the player's searches (and ponder searches), moves out
//! with the floodgate comment, moves in with `,T`, keep-alives, the result, the record.

use crate::clock::Clock;
use crate::comment::floodgate_comment;
use crate::config::Settings;
use crate::connection::{Connection, Event, Thought};
use crate::csa_move::{move_text, parse_csa_move, sign};
use crate::engine::Engine;
use crate::error::CsaError;
use crate::log::{Log, csa_time_now};
use crate::outcome::{EndReason, Outcome};
use crate::position_block::split_move_time;
use crate::record::GameRecord;
use crate::summary::GameSummary;
use hayate_core::player::{BestMove, Signals};
use hayate_core::{Color, DeclarationRule, Move, Position};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How one game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// The server's game id.
    pub game_id: String,
    /// Our colour.
    pub us: Color,
    /// The reason line, if one came.
    pub reason: Option<EndReason>,
    /// The outcome, if one came (`None` also for a rejected game).
    pub outcome: Option<Outcome>,
    /// Whether the game was rejected before it started (`REJECT:<id> by <name>`).
    pub rejected: bool,
    /// Plies in the record (moves played, special moves included).
    pub plies: usize,
    /// Where the record was written.
    pub record: Option<PathBuf>,
}

/// What the running search is for.
enum Purpose {
    /// Our move, on our clock.
    Move,
    /// On the opponent's time, expecting `expected`; `early` holds a result that came back
    /// before the opponent moved.
    Ponder {
        expected: Move,
        early: Option<Thought>,
    },
}

struct Search {
    id: u64,
    signals: Arc<Signals>,
    purpose: Purpose,
    /// When to stop the player (our move only).
    deadline: Option<Deadline>,
    stop_sent: bool,
}

/// Longest time between telling the player to stop and playing a move without it.
const MAX_GRACE: Duration = Duration::from_millis(300);

/// The two instants of our move: ask the player to stop, then (if it still has not answered)
/// play a move without it, still inside the time the clock allows.
#[derive(Clone, Copy)]
struct Deadline {
    stop: Instant,
    fallback: Instant,
}

impl Deadline {
    fn from_now(hard_limit: Duration) -> Deadline {
        let now = Instant::now();
        let grace = (hard_limit / 4).min(MAX_GRACE);
        Deadline {
            stop: now + (hard_limit - grace),
            fallback: now + hard_limit,
        }
    }
}

struct Game<'a> {
    conn: &'a mut Connection,
    engine: &'a Engine,
    settings: &'a Settings,
    log: &'a Log,
    us: Color,
    pos: Position,
    clock: Clock,
    record: GameRecord,
    search: Option<Search>,
    next_id: u64,
    /// Our last move sent, with its comment, until the server echoes it.
    sent: Option<(String, Option<String>)>,
    /// The reply the player expects to our last move.
    ponder_move: Option<Move>,
    reason: Option<EndReason>,
    outcome: Option<Outcome>,
    /// Set from outside to end the game now (Ctrl-C).
    stop: &'a AtomicBool,
}

/// Plays the game that just got `START`, until its result or until `stop` is set. The record
/// is written in every case, with why the client stopped when it did not see the result.
///
/// # Errors
/// [`CsaError::ConnectionLost`] when the server closes before the result, I/O errors,
/// protocol errors for moves that cannot be applied, [`CsaError::Interrupted`] when stopped.
pub fn play(
    conn: &mut Connection,
    engine: &Engine,
    settings: &Settings,
    log: &Log,
    summary: &GameSummary,
    stop: &AtomicBool,
) -> Result<GameReport, CsaError> {
    let mut clock = Clock::new(summary.time, settings.margin);
    let mut replay = summary.position.initial.clone();
    for pm in &summary.position.moves {
        clock.charge(replay.side_to_move(), pm.seconds.unwrap_or(0));
        replay.do_move(pm.mv);
    }
    let mut game = Game {
        conn,
        engine,
        settings,
        log,
        us: summary.our_color,
        pos: summary.position.current(),
        clock,
        record: GameRecord::new(summary, &csa_time_now()),
        search: None,
        next_id: 1,
        sent: None,
        ponder_move: None,
        reason: None,
        outcome: None,
        stop,
    };
    let result = game.run();
    game.stop_search();
    if let Err(e) = &result {
        game.record.note(&format!("client stopped: {e}"));
    }
    game.record
        .finish(game.reason.as_ref(), game.outcome, game.us, &csa_time_now());
    let record = match &settings.record_dir {
        Some(dir) => match game.record.write(dir, &summary.game_id) {
            Ok(p) => {
                log.line(format!("record written to {}", p.display()));
                Some(p)
            }
            Err((p, e)) => {
                log.line(format!("cannot write record {}: {e}", p.display()));
                None
            }
        },
        None => None,
    };
    result?;
    Ok(GameReport {
        game_id: summary.game_id.clone(),
        us: game.us,
        reason: game.reason.clone(),
        outcome: game.outcome,
        rejected: false,
        plies: game.record.plies(),
        record,
    })
}

impl Game<'_> {
    fn run(&mut self) -> Result<(), CsaError> {
        if self.pos.side_to_move() == self.us {
            self.start_turn()?;
        }
        while !self.is_over() {
            if self.stop.load(Ordering::Relaxed) {
                self.log.line("interrupted: ending the game here");
                return Err(CsaError::Interrupted);
            }
            let wait = self.wait_time();
            match self.conn.recv(wait) {
                None => self.on_timer()?,
                Some(Event::Line(l)) => self.on_line(&l)?,
                Some(Event::Thought(t)) => self.on_thought(t)?,
                Some(Event::Closed(why)) => {
                    let why = why.unwrap_or_else(|| "closed by the server".into());
                    self.log
                        .line(format!("connection lost during the game: {why}"));
                    return Err(CsaError::ConnectionLost(why));
                }
            }
        }
        Ok(())
    }

    fn is_over(&self) -> bool {
        self.outcome.is_some() || self.reason == Some(EndReason::Chudan)
    }

    fn wait_time(&self) -> Duration {
        let mut wait = self
            .settings
            .keepalive
            .saturating_sub(self.conn.since_last_send());
        if let Some(s) = &self.search
            && let Some(d) = s.deadline
        {
            let at = if s.stop_sent { d.fallback } else { d.stop };
            wait = wait.min(at.saturating_duration_since(Instant::now()));
        }
        wait.clamp(Duration::from_millis(1), crate::client::STOP_POLL)
    }

    fn on_timer(&mut self) -> Result<(), CsaError> {
        if self.conn.since_last_send() >= self.settings.keepalive {
            self.conn.send("")?;
        }
        let now = Instant::now();
        let Some(s) = &mut self.search else {
            return Ok(());
        };
        let Some(deadline) = s.deadline else {
            return Ok(());
        };
        if !s.stop_sent && now >= deadline.stop {
            self.log.line("time is short: stopping the player");
            s.signals.stop();
            s.stop_sent = true;
        } else if s.stop_sent && now >= deadline.fallback {
            // The player does not answer: never lose on time to a stuck search.
            self.log
                .line("the player did not stop in time: playing a move without it");
            s.signals.stop();
            self.search = None;
            self.ponder_move = None;
            self.play_fallback()?;
        }
        Ok(())
    }

    fn on_line(&mut self, line: &str) -> Result<(), CsaError> {
        if line.is_empty() {
            return Ok(());
        }
        if line.starts_with('+') || line.starts_with('-') {
            return self.on_move(line);
        }
        if line.starts_with('%') {
            // A malformed `,T` on a special move costs nothing: keep the move, drop the time.
            let (text, secs) = split_move_time(line)
                .unwrap_or_else(|_| (line.split(',').next().unwrap_or(line), None));
            // shogi-server echoes a special move twice (`%TORYO` or `%KACHI,T0`, then `%KACHI`):
            // the record keeps the first.
            self.log.line(format!("S> {line}"));
            if !self.record.push_special(text, secs) {
                self.log
                    .line(format!("unknown special move not recorded: {text}"));
            }
            return Ok(());
        }
        if let Some(o) = Outcome::parse(line) {
            self.log.line(format!(
                "game over: {} {:?} after {} plies",
                self.reason
                    .as_ref()
                    .map_or("(no reason)", |r| r.summary_word()),
                o,
                self.pos.game_ply() - 1
            ));
            self.outcome = Some(o);
            return Ok(());
        }
        if let Some(r) = EndReason::parse(line) {
            self.log.line(format!("S> {line}"));
            if r == EndReason::Chudan {
                self.log.line("game interrupted by the server (#CHUDAN)");
                self.outcome = Some(Outcome::Interrupted);
            }
            self.reason = Some(r);
            return Ok(());
        }
        self.log.line(format!("ignored S> {line}"));
        Ok(())
    }

    fn on_move(&mut self, line: &str) -> Result<(), CsaError> {
        let (text, secs) = split_move_time(line)?;
        let m = match parse_csa_move(&self.pos, text) {
            Ok(m) => m,
            Err(e) => {
                self.log
                    .line(format!("cannot apply the server's move `{line}`: {e}"));
                return Err(e.into());
            }
        };
        let mover = self.pos.side_to_move();
        self.clock.charge(mover, secs.unwrap_or(0));
        let comment = if mover == self.us {
            match self.sent.take() {
                Some((t, c)) if t == text => c,
                _ => None,
            }
        } else {
            None
        };
        self.record.push_move(m, secs, comment);
        self.pos.do_move(m);
        self.log.line(format!(
            "move {} {}{} T{} | {} {}s {} {}s",
            self.pos.game_ply() - 1,
            text,
            if mover == self.us { " (ours)" } else { "" },
            secs.unwrap_or(0),
            sign(Color::Black),
            self.clock.remaining(Color::Black).as_secs(),
            sign(Color::White),
            self.clock.remaining(Color::White).as_secs(),
        ));
        if mover == self.us {
            self.maybe_ponder();
            return Ok(());
        }
        // The opponent moved: our turn.
        let hit = match self.search.as_mut() {
            Some(Search {
                purpose: Purpose::Ponder { expected, early },
                ..
            }) if expected.same(m) => Some(early.take()),
            _ => None,
        };
        match hit {
            Some(Some(done)) => {
                self.log.line("ponder hit (search already finished)");
                self.search = None;
                self.play_best(done)
            }
            Some(None) => {
                self.log.line("ponder hit");
                let limit = self.clock.hard_limit(self.us);
                if let Some(s) = self.search.as_mut() {
                    s.purpose = Purpose::Move;
                    s.deadline = Some(Deadline::from_now(limit));
                    s.signals.ponderhit();
                }
                Ok(())
            }
            None => {
                if let Some(s) = self.search.take() {
                    self.log.line("ponder miss");
                    s.signals.stop();
                }
                self.start_turn()
            }
        }
    }

    /// Starts pondering on the reply the player expects, if enabled and possible.
    fn maybe_ponder(&mut self) {
        let Some(expected) = self.ponder_move.take() else {
            return;
        };
        if !self.settings.ponder || self.search.is_some() || !self.pos.is_legal(expected) {
            return;
        }
        let mut p = self.pos.clone();
        let Some(real) = p.legal_moves().iter().copied().find(|l| l.same(expected)) else {
            return;
        };
        p.do_move(real);
        if p.legal_moves().is_empty() {
            return;
        }
        let id = self.new_id();
        let signals = Signals::new();
        let limits = self.clock.limits(self.us, true);
        self.engine
            .think(id, &p, limits, signals.clone(), self.conn.sender());
        self.log.line(format!("pondering on {}", move_text(real)));
        self.search = Some(Search {
            id,
            signals,
            purpose: Purpose::Ponder {
                expected: real,
                early: None,
            },
            deadline: None,
            stop_sent: false,
        });
    }

    fn new_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Our turn and no ponder result to use: resign when mated, declare when the declaration
    /// is valid, otherwise ask the player.
    fn start_turn(&mut self) -> Result<(), CsaError> {
        if self.pos.legal_moves().is_empty() {
            self.log.line("no legal move: resigning");
            return self.send_special("%TORYO");
        }
        if self.pos.can_declare_win(DeclarationRule::Csa27) {
            self.log
                .line("entering-king declaration is valid: declaring");
            return self.send_special("%KACHI");
        }
        let id = self.new_id();
        let signals = Signals::new();
        let limits = self.clock.limits(self.us, false);
        let deadline = Deadline::from_now(self.clock.hard_limit(self.us));
        self.engine
            .think(id, &self.pos, limits, signals.clone(), self.conn.sender());
        self.search = Some(Search {
            id,
            signals,
            purpose: Purpose::Move,
            deadline: Some(deadline),
            stop_sent: false,
        });
        Ok(())
    }

    fn on_thought(&mut self, t: Thought) -> Result<(), CsaError> {
        let Some(s) = self.search.as_mut() else {
            return Ok(()); // a stale result (ponder miss, fallback already played)
        };
        if s.id != t.id {
            return Ok(());
        }
        if let Purpose::Ponder { early, .. } = &mut s.purpose {
            *early = Some(t);
            return Ok(());
        }
        self.search = None;
        self.play_best(t)
    }

    fn play_best(&mut self, t: Thought) -> Result<(), CsaError> {
        match t.best {
            Some(BestMove::Move { best, ponder }) => {
                let Some(real) = self
                    .pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|l| l.same(best))
                else {
                    self.log.line(format!(
                        "the player returned an illegal move {} in {}",
                        best.to_usi(),
                        self.pos.to_sfen()
                    ));
                    return self.play_fallback();
                };
                let comment = if self.settings.floodgate_comment {
                    t.info
                        .as_ref()
                        .and_then(|i| floodgate_comment(&self.pos, real, i))
                } else {
                    None
                };
                self.ponder_move = ponder;
                self.send_move(real, comment)
            }
            Some(BestMove::Resign) => {
                self.log.line("the player resigns");
                self.send_special("%TORYO")
            }
            Some(BestMove::Win) => {
                if self.pos.can_declare_win(DeclarationRule::Csa27) {
                    self.send_special("%KACHI")
                } else {
                    // %KACHI without the points loses at once (#ILLEGAL_MOVE): play on.
                    self.log
                        .line("the player declared a win that the 27-point rule does not allow");
                    self.play_fallback()
                }
            }
            None => {
                self.log.line("the player panicked");
                self.play_fallback()
            }
        }
    }

    /// A legal move chosen without the player (first legal), or resignation when none.
    fn play_fallback(&mut self) -> Result<(), CsaError> {
        match self.pos.legal_moves().iter().next().copied() {
            Some(m) => self.send_move(m, None),
            None => self.send_special("%TORYO"),
        }
    }

    fn send_move(&mut self, m: Move, comment: Option<String>) -> Result<(), CsaError> {
        let text = move_text(m);
        let line = match &comment {
            Some(c) => format!("{text},'{c}"),
            None => text.clone(),
        };
        self.conn.send(&line)?;
        self.sent = Some((text, comment));
        Ok(())
    }

    fn send_special(&mut self, s: &str) -> Result<(), CsaError> {
        self.conn.send(s)?;
        Ok(())
    }

    /// Stops a running search and waits (bounded) for it so the player is idle.
    fn stop_search(&mut self) {
        let Some(s) = self.search.take() else {
            return;
        };
        s.signals.stop();
        let end = Instant::now() + Duration::from_secs(5);
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.conn.recv(left) {
                Some(Event::Thought(t)) if t.id == s.id => return,
                None => break,
                Some(_) => {}
            }
        }
        self.log
            .line("the player did not stop within 5 s after the game");
    }
}
