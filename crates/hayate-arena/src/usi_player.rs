//! A USI engine process as a [`Player`], so the one game runner (`hayate_core::game`) drives
//! it like any in-process player. Its failures (exit, hang, a bestmove that is not a legal move)
//! become [`Fault`]s that the runner adjudicates.

use hayate_core::Position;
use hayate_core::player::{BestMove, Fault, GameOver, Info, Limits, Player, Signals};
use hayate_core::usi_option::OptionError;
use hayate_usi::format_go;

use crate::process::{EngineError, EngineProcess};

/// Waiting without a clock (fixed depth or nodes): a day, after which the engine is hung.
const NO_CLOCK_MS: u64 = 86_400_000;

/// An engine process seen as a [`Player`] for one game.
pub struct UsiPlayer<'a> {
    engine: &'a mut EngineProcess,
    go_extra: &'a str,
    margin_ms: u64,
    fault: Option<Fault>,
}

impl<'a> UsiPlayer<'a> {
    /// Drives `engine`, appending `go_extra` (e.g. `depth 3`) to every `go`; a move may overrun
    /// its clock by `margin_ms` before the engine is told to stop.
    pub fn new(engine: &'a mut EngineProcess, go_extra: &'a str, margin_ms: u64) -> UsiPlayer<'a> {
        UsiPlayer {
            engine,
            go_extra,
            margin_ms,
            fault: None,
        }
    }
}

fn fault(e: &EngineError) -> Fault {
    match e {
        EngineError::Timeout { .. } => Fault::Hang(e.to_string()),
        _ => Fault::Crash(e.to_string()),
    }
}

/// What the side to move may spend: its main time, increment and byoyomi (the clock's
/// `allowed_ms`, read back from the limits the runner sends).
fn allowed_ms(pos: &Position, limits: &Limits) -> u64 {
    let us = pos.side_to_move().index();
    let ms = |d: Option<std::time::Duration>| d.map(|d| d.as_millis() as u64);
    let parts = [
        ms(limits.time[us]),
        ms(limits.increment[us]),
        ms(limits.byoyomi),
    ];
    if parts.iter().all(Option::is_none) {
        return NO_CLOCK_MS;
    }
    parts.into_iter().flatten().sum()
}

impl Player for UsiPlayer<'_> {
    fn name(&self) -> String {
        self.engine.name().to_string()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        self.engine
            .send(&format!("setoption name {name} value {value}"))
            .map_err(|e| OptionError::rejected(name, e.to_string()))
    }

    fn new_game(&mut self) {
        if let Err(e) = self.engine.new_game() {
            self.fault = Some(fault(&e));
        }
    }

    fn game_over(&mut self, result: GameOver) {
        if self.engine.is_dead() {
            return;
        }
        let _ = self.engine.send(&format!("gameover {}", result.usi_word()));
    }

    fn take_fault(&mut self) -> Option<Fault> {
        self.fault.take()
    }

    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        _signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        let mut go = format_go(limits);
        if !self.go_extra.is_empty() {
            go.push(' ');
            go.push_str(self.go_extra);
        }
        let allowed = allowed_ms(pos, limits).saturating_add(self.margin_ms);
        let reply = match self.engine.search(pos, &go, allowed, info) {
            Ok(r) => r,
            Err(e) => {
                self.fault = Some(fault(&e));
                return BestMove::Resign;
            }
        };
        match reply.best.as_str() {
            "resign" => BestMove::Resign,
            "win" => BestMove::Win,
            text => match pos.parse_usi_move(text) {
                Ok(best) => BestMove::Move { best, ponder: None },
                Err(err) => {
                    let name = self.engine.name();
                    self.fault = Some(Fault::IllegalMove(format!("{name} played {text:?}: {err}")));
                    BestMove::Resign
                }
            },
        }
    }
}
