//! The game loop: ask the side to move for a move, charge its clock, check the answer with the
//! rules core, play it, and look for the end.

use std::time::{Duration, Instant, SystemTime};

use super::rules::{Adjudication, adjudicate_scores};
use super::{Clock, EndReason, FinishedGame, GameResult, GameRules, PlayedMove, TimeControl};
use crate::player::{BestMove, Fault, GameOver, Info, Limits, Player, Score, Signals};
use crate::{Color, GameRepetition, Move, Position};

/// One player of a game with its clock and limits.
pub struct Side<'a> {
    /// The player.
    pub player: &'a mut dyn Player,
    /// Its time control; `None` plays without a clock (fixed depth or nodes in `limits`).
    pub time_control: Option<TimeControl>,
    /// Limits given with every move besides the clock's times (e.g. `depth`, `nodes`).
    pub limits: Limits,
}

struct Ending {
    result: GameResult,
    reason: EndReason,
    detail: String,
    time_ms: Option<u64>,
}

fn lose(c: Color, reason: EndReason, detail: String) -> Ending {
    Ending {
        result: GameResult::win(!c),
        reason,
        detail,
        time_ms: None,
    }
}

fn draw(reason: EndReason, detail: String) -> Ending {
    Ending {
        result: GameResult::Draw,
        reason,
        detail,
        time_ms: None,
    }
}

fn with_time(mut e: Ending, ms: u64) -> Ending {
    e.time_ms = Some(ms);
    e
}

fn fault_ending(c: Color, fault: Fault) -> Ending {
    match fault {
        Fault::Crash(d) => lose(c, EndReason::Crash, d),
        Fault::Hang(d) => lose(c, EndReason::Hang, d),
        Fault::IllegalMove(d) => lose(c, EndReason::IllegalMove, d),
    }
}

/// Plays one game from `start` after the `opening` moves (which stop at the first one that is
/// not legal); `sides` are Black and White. Both players get `new_game` first and `game_over`
/// at the end.
pub fn play_game(
    start: &Position,
    opening: &[Move],
    sides: [Side<'_>; 2],
    rules: &GameRules,
) -> FinishedGame {
    let started = SystemTime::now();
    let names = [sides[0].player.name(), sides[1].player.name()];
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for &mv in opening {
        if !pos.is_legal(mv) {
            break;
        }
        pos.do_move(mv);
        moves.push(PlayedMove {
            mv,
            time_ms: None,
            info: Info::default(),
        });
    }
    let opening_plies = moves.len();
    let mut game = Game {
        clocks: sides.each_ref().map(|s| s.time_control.map(Clock::new)),
        sides,
        names,
        pos,
        moves,
        scores: [Vec::new(), Vec::new()],
        rules,
    };
    let ending = game.start_players().unwrap_or_else(|| game.play());
    for (c, side) in Color::ALL.into_iter().zip(game.sides.iter_mut()) {
        side.player.game_over(match ending.result.winner() {
            None => GameOver::Draw,
            Some(w) if w == c => GameOver::Win,
            Some(_) => GameOver::Lose,
        });
    }
    FinishedGame {
        start: start.clone(),
        names: game.names,
        opening_plies,
        moves: game.moves,
        result: ending.result,
        reason: ending.reason,
        detail: ending.detail,
        end_time_ms: ending.time_ms,
        started,
        ended: SystemTime::now(),
    }
}

struct Game<'s, 'r> {
    sides: [Side<'s>; 2],
    names: [String; 2],
    clocks: [Option<Clock>; 2],
    pos: Position,
    moves: Vec<PlayedMove>,
    /// Scores each side reported for its own moves, from its own view.
    scores: [Vec<Option<Score>>; 2],
    rules: &'r GameRules,
}

impl Game<'_, '_> {
    /// `new_game` to both players; the first that fails loses.
    fn start_players(&mut self) -> Option<Ending> {
        for (c, side) in Color::ALL.into_iter().zip(self.sides.iter_mut()) {
            side.player.new_game();
            if let Some(f) = side.player.take_fault() {
                return Some(fault_ending(c, f));
            }
        }
        None
    }

    fn play(&mut self) -> Ending {
        loop {
            if let Some(e) = self.step() {
                return e;
            }
        }
    }

    /// One move of the side to move, or the end of the game.
    fn step(&mut self) -> Option<Ending> {
        let us = self.pos.side_to_move();
        if self.moves.len() >= self.rules.max_plies {
            return Some(draw(EndReason::MaxPlies, String::new()));
        }
        if self.pos.legal_moves().is_empty() {
            return Some(lose(us, EndReason::Checkmate, String::new()));
        }
        if let Some(e) = self.adjudicate(us) {
            return Some(e);
        }
        let limits = self.limits(us);
        let mut info = Info::default();
        let t0 = Instant::now();
        let side = &mut self.sides[us.index()];
        let best = side
            .player
            .think(&self.pos, &limits, &Signals::default(), &mut |i: &Info| {
                merge_info(&mut info, i)
            });
        let elapsed = t0.elapsed().as_millis() as u64;
        if let Some(f) = side.player.take_fault() {
            let e = fault_ending(us, f);
            return Some(match e.reason {
                EndReason::IllegalMove => with_time(e, elapsed),
                _ => e,
            });
        }
        if let Some(clock) = &mut self.clocks[us.index()]
            && let Err(t) = clock.charge(elapsed, self.rules.margin_ms)
        {
            let detail = format!(
                "{} took {} ms, {} ms allowed (+{} ms margin)",
                self.names[us.index()],
                t.elapsed_ms,
                t.allowed_ms,
                self.rules.margin_ms
            );
            return Some(with_time(lose(us, EndReason::TimeLoss, detail), elapsed));
        }
        match best {
            BestMove::Resign => Some(with_time(
                lose(us, EndReason::Resign, String::new()),
                elapsed,
            )),
            BestMove::Win => Some(with_time(self.declaration(us), elapsed)),
            BestMove::Move { best, .. } => self.play_move(us, best, elapsed, info),
        }
    }

    fn declaration(&self, us: Color) -> Ending {
        if self.pos.can_declare_win(self.rules.declaration) {
            Ending {
                result: GameResult::win(us),
                reason: EndReason::Declaration,
                detail: String::new(),
                time_ms: None,
            }
        } else {
            let detail = format!(
                "{} declared a win that the rules refuse",
                self.names[us.index()]
            );
            lose(us, EndReason::IllegalDeclaration, detail)
        }
    }

    fn play_move(&mut self, us: Color, mv: Move, elapsed: u64, info: Info) -> Option<Ending> {
        if !self.pos.is_legal(mv) {
            let detail = format!(
                "{} played {}: not a legal move here",
                self.names[us.index()],
                mv.to_usi()
            );
            return Some(with_time(lose(us, EndReason::IllegalMove, detail), elapsed));
        }
        self.pos.do_move(mv);
        self.scores[us.index()].push(info.score);
        self.moves.push(PlayedMove {
            mv,
            time_ms: Some(elapsed),
            info,
        });
        match self.pos.game_repetition() {
            GameRepetition::None => None,
            GameRepetition::Draw => Some(draw(EndReason::Repetition, String::new())),
            GameRepetition::PerpetualCheckBy(c) => Some(lose(
                c,
                EndReason::PerpetualCheck,
                format!("{} checked perpetually", self.names[c.index()]),
            )),
        }
    }

    fn adjudicate(&self, us: Color) -> Option<Ending> {
        let ours = &self.scores[us.index()];
        let theirs = &self.scores[(!us).index()];
        match adjudicate_scores(ours, theirs, self.rules, self.moves.len())? {
            Adjudication::Resign => {
                let cp = self.rules.resign.map_or(0, |r| r.cp);
                let detail = format!("adjudicated: both scores beyond {cp} cp");
                Some(lose(us, EndReason::AdjudicatedResign, detail))
            }
            Adjudication::Draw => {
                let cp = self.rules.draw.map_or(0, |d| d.cp);
                let detail = format!("adjudicated: both scores within {cp} cp");
                Some(draw(EndReason::AdjudicatedDraw, detail))
            }
        }
    }

    /// The side's own limits plus the clocks' times as a GUI sends them: both sides' remaining
    /// main time (without the coming increment), both increments when either control has one,
    /// otherwise the side to move's byoyomi.
    fn limits(&self, us: Color) -> Limits {
        let mut l = self.sides[us.index()].limits.clone();
        if self.clocks.iter().all(Option::is_none) {
            return l;
        }
        let ms = Duration::from_millis;
        let tc = |c: Color| self.clocks[c.index()].map(|k| k.time_control());
        let fischer = Color::ALL
            .into_iter()
            .any(|c| tc(c).is_some_and(|t| t.increment_ms > 0));
        for c in Color::ALL {
            let remaining = self.clocks[c.index()].map_or(0, |k| k.remaining_ms());
            l.time[c.index()] = Some(ms(remaining));
            if fischer {
                l.increment[c.index()] = Some(ms(tc(c).map_or(0, |t| t.increment_ms)));
            }
        }
        if !fischer {
            l.byoyomi = Some(ms(tc(us).map_or(0, |t| t.byoyomi_ms)));
        }
        l
    }
}

/// Folds one `info` report into the move's summary: the main line only (MultiPV lines other
/// than the first are skipped), each field kept from the last report that had it.
fn merge_info(into: &mut Info, i: &Info) {
    if i.multipv.is_some_and(|m| m > 1) {
        return;
    }
    if i.score.is_some() {
        into.score = i.score;
        into.bound = i.bound;
    }
    if !i.pv.is_empty() {
        into.pv = i.pv.clone();
    }
    let keep = |a: &mut Option<u64>, b: Option<u64>| {
        if b.is_some() {
            *a = b;
        }
    };
    keep(&mut into.nodes, i.nodes);
    keep(&mut into.time_ms, i.time_ms);
    keep(&mut into.nps, i.nps);
    if i.depth.is_some() {
        into.depth = i.depth;
        into.seldepth = i.seldepth;
    }
}
