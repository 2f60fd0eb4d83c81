//! [`HybridPlayer`]: the αβ side and the DL side behind one [`Player`]. It routes options to
//! the side that declares them, survives a side that cannot be built or loaded (it plays with
//! the other and says so at `isready` and every `go`), and answers each `go` once: both sides
//! search ([`crate::consult`]), the rule decides ([`crate::rule`]), αβ verifies the DL move
//! when the rule asks ([`crate::verify`]), and [`crate::report`] says what was decided.

use crate::clock::{Budget, Watch, split};
use crate::consult::{Answers, Sides, search_both};
use crate::options::Options;
use crate::report::{fallback_move, report};
use crate::rule::{Decision, Reason, Side, Step, after_verify, first_step};
use crate::side::AlphaBetaSide;
use crate::tag::{tagged, text};
use crate::verify::{Verification, verify};
use hayate_core::player::{BestMove, GameOver, Info, Limits, Player, Signals};
use hayate_core::usi_option::{OptionError, find};
use hayate_core::{DeclarationRule, Position, UsiOption};
use hayate_mcts::MctsPlayer;
use std::time::Duration;

/// Whether the DL side's network is loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
enum DlState {
    /// Not loaded since its options last changed.
    Unprepared,
    /// Loaded.
    Ready,
    /// Loading failed: the hybrid plays with the αβ side alone.
    Failed(String),
}

/// The hybrid player (Ryfamate's 変則合議): an αβ player and an MCTS player consulted on
/// every move.
pub struct HybridPlayer {
    ab: Result<Box<dyn AlphaBetaSide>, String>,
    dl: MctsPlayer,
    dl_state: DlState,
    options: Options,
    /// `NetworkDelay` as the sides keep it, for the hybrid's own watch.
    network_delay_ms: u64,
}

impl HybridPlayer {
    /// A hybrid of `ab` (or why it could not be built: the DL side then plays alone) and `dl`
    /// (its network is loaded by [`Player::prepare`]).
    pub fn new(ab: Result<Box<dyn AlphaBetaSide>, String>, dl: MctsPlayer) -> HybridPlayer {
        HybridPlayer {
            ab,
            dl,
            dl_state: DlState::Unprepared,
            options: Options::default(),
            network_delay_ms: hayate_core::timeman::TimeOptions::default().network_delay_ms,
        }
    }

    /// The hybrid's own options.
    pub fn hybrid_options(&self) -> &Options {
        &self.options
    }

    /// Whether at least one side can play (after [`Player::prepare`]).
    pub fn has_side(&self) -> bool {
        self.ab.is_ok() || !matches!(self.dl_state, DlState::Failed(_))
    }

    fn dl_usable(&self) -> bool {
        self.dl_state == DlState::Ready
    }

    fn prepare_dl(&mut self) {
        self.dl_state = match self.dl.prepare() {
            Ok(()) => DlState::Ready,
            Err(e) => DlState::Failed(e),
        };
    }

    /// What is wrong with the sides, one sentence each.
    fn failures(&self) -> Vec<String> {
        let mut said = Vec::new();
        if let Err(e) = &self.ab {
            said.push(format!(
                "hybrid: the αβ side cannot be used ({e}); playing with the DL side alone"
            ));
        }
        if let DlState::Failed(e) = &self.dl_state {
            let alone = if self.ab.is_ok() {
                "playing with the αβ side alone"
            } else {
                "no side can play"
            };
            said.push(format!("hybrid: the DL side cannot be used ({e}); {alone}"));
        }
        said
    }

    /// The limits of the sides and the verification's time.
    fn budget(&self, pos: &Position, limits: &Limits) -> Budget {
        let r = &self.options.rule;
        let verifies = r.verify_depth > 0 && self.ab.is_ok() && self.dl_usable();
        let reserve = if verifies { r.verify_ms } else { 0 };
        split(limits, pos.side_to_move(), Duration::from_millis(reserve))
    }

    /// Both sides search; their lines go to `info` tagged.
    fn consult(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> Answers {
        let main = self.options.info_main;
        let rule = self.options.rule;
        let dl_usable = self.dl_usable();
        let sides = Sides {
            ab: self
                .ab
                .as_mut()
                .ok()
                .map(|b| -> &mut dyn AlphaBetaSide { b.as_mut() }),
            dl: dl_usable.then_some(&mut self.dl),
            dl_follows_ab: dl_follows_ab(limits),
        };
        let us = pos.side_to_move();
        let watch = Watch::new(limits, us, pos.game_ply(), self.network_delay_ms);
        let mut emit = |side: Side, i: &Info| info(&tagged(side, main, i));
        search_both(sides, (pos, limits), (signals, watch), &rule, &mut emit)
    }

    /// The rule over the answers, verifying the DL move when it asks (not when the answer will
    /// be discarded: a ponder stopped before `ponderhit`).
    fn decide(
        &mut self,
        pos: &Position,
        answers: &Answers,
        verify_time: Option<Duration>,
        discarded: bool,
    ) -> (Decision, Option<Verification>) {
        let rule = self.options.rule;
        let dl_move = match first_step(&rule, answers.ab.as_ref(), answers.dl.as_ref()) {
            Step::Final(d) => return (d, None),
            Step::Verify(m) => m,
        };
        let unverified = |best| Decision {
            best,
            side: Side::Dl,
            reason: Reason::Dl,
        };
        let (Some(abv), Some(dlv), Ok(ab)) = (&answers.ab, &answers.dl, self.ab.as_mut()) else {
            let best = answers.dl.as_ref().map_or(BestMove::Resign, |d| d.best);
            return (unverified(best), None);
        };
        if discarded {
            return (unverified(dlv.best), None);
        }
        let v = verify(ab.as_mut(), pos, dl_move, (rule.verify_depth, verify_time));
        (after_verify(&rule, abv, dlv, v.score), Some(v))
    }
}

/// Answers that need no search: no legal move, or an entering-king declaration (CSA rule, as
/// both sides apply it).
fn root_answer(pos: &Position) -> Option<BestMove> {
    if pos.legal_moves().is_empty() {
        Some(BestMove::Resign)
    } else if pos.can_declare_win(DeclarationRule::Csa27) {
        Some(BestMove::Win)
    } else {
        None
    }
}

/// Whether `limits` give the DL side nothing to stop on (a `go depth N`): it then stops when
/// the αβ side answers.
fn dl_follows_ab(limits: &Limits) -> bool {
    let clock = limits.movetime.is_some()
        || limits.byoyomi.is_some()
        || limits.time.iter().any(Option::is_some)
        || limits.increment.iter().any(Option::is_some);
    !limits.infinite && !limits.ponder && limits.nodes.is_none() && !clock
}

/// `go ponder` and `go infinite` answer only after `ponderhit` or `stop`, however early the
/// sides finish.
fn wait_while_pondering(limits: &Limits, signals: &Signals) {
    while (limits.infinite || (limits.ponder && !signals.is_ponderhit())) && !signals.is_stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

impl Player for HybridPlayer {
    fn name(&self) -> String {
        let ab = self.ab.as_ref().map_or("none".to_string(), |p| p.name());
        format!("Hayate hybrid {} ({ab} + DL)", env!("CARGO_PKG_VERSION"))
    }

    /// The hybrid's options, then the αβ side's, then the DL side's (each name once).
    fn options(&self) -> Vec<UsiOption> {
        let mut table = self.options.usi_options();
        let ab = match &self.ab {
            Ok(p) => p.options(),
            Err(_) => hayate_search::Options::default().usi_options(),
        };
        for o in ab.into_iter().chain(self.dl.options()) {
            if find(&table, &o.name).is_none() {
                table.push(o);
            }
        }
        table
    }

    /// `Hybrid_*` to the rule, an αβ option to the αβ side (`NetworkDelay` to both: each side
    /// keeps it back from its own deadline), anything else to the DL side.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        if Options::declares(name) {
            return self.options.set(name, value);
        }
        if find(&hayate_search::Options::default().usi_options(), name).is_some() {
            if name.eq_ignore_ascii_case("NetworkDelay") {
                self.dl.set_option("NetworkDelay", value)?;
                self.network_delay_ms =
                    value.trim().parse().map_err(|_| OptionError::NotANumber {
                        name: name.into(),
                        value: value.into(),
                    })?;
            }
            return match &mut self.ab {
                Ok(ab) => ab.set_option(name, value),
                Err(_) => Ok(()),
            };
        }
        self.dl.set_option(name, value)?;
        self.dl_state = DlState::Unprepared;
        Ok(())
    }

    /// Prepares both sides. A side that fails is reported (the error names it) and left out;
    /// the hybrid still plays while the other side can.
    fn prepare(&mut self) -> Result<(), String> {
        let mut said = Vec::new();
        if let Ok(ab) = &mut self.ab
            && let Err(e) = ab.prepare()
        {
            said.push(format!("hybrid: αβ side: {e}"));
        }
        self.prepare_dl();
        said.extend(self.failures());
        if said.is_empty() {
            Ok(())
        } else {
            Err(said.join("; "))
        }
    }

    fn new_game(&mut self) {
        if let Ok(ab) = &mut self.ab {
            ab.new_game();
        }
        self.dl.new_game();
    }

    fn game_over(&mut self, result: GameOver) {
        if let Ok(ab) = &mut self.ab {
            ab.game_over(result);
        }
        self.dl.game_over(result);
    }

    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        if self.dl_state == DlState::Unprepared {
            self.prepare_dl();
        }
        for f in self.failures() {
            info(&text(format!("error: {f}")));
        }
        if let Some(best) = root_answer(pos) {
            wait_while_pondering(limits, signals);
            return best;
        }
        let budget = self.budget(pos, limits);
        let answers = self.consult(pos, &budget.sides, signals, info);
        wait_while_pondering(limits, signals);
        let discarded = limits.ponder && !signals.is_ponderhit();
        let (decision, v) = self.decide(pos, &answers, budget.verify, discarded);
        report(&decision, &answers, v.as_ref(), self.options, info);
        fallback_move(pos, &decision, &answers, info)
    }
}
