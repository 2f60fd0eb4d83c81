//! Both sides searching one position at once: each on its own thread with its own signals, the
//! calling thread relaying `stop`/`ponderhit` to both, forwarding their lines, and stopping
//! both early once the decision is certain (a mate found, or a decisive αβ answer that makes
//! the DL move irrelevant). A side that panics is a side that did not answer.

use crate::clock::Watch;
use crate::rule::{AbView, DlView, Rule, Side, score_value};
use crate::side::{AlphaBetaSide, search_dl};
use hayate_core::Position;
use hayate_core::player::{Bound, Info, Limits, Score, Signals};
use hayate_mcts::MctsPlayer;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::thread::Scope;
use std::time::Duration;

/// The sides that play this move (`None`: failed or absent).
pub struct Sides<'a> {
    /// The αβ side.
    pub ab: Option<&'a mut dyn AlphaBetaSide>,
    /// The DL side.
    pub dl: Option<&'a mut MctsPlayer>,
    /// The DL side stops when the αβ side has answered: a `go depth N` sets no limit the
    /// MCTS player reads.
    pub dl_follows_ab: bool,
}

/// What the sides answered, and the last line with a PV from each.
#[derive(Debug, Default)]
pub struct Answers {
    /// The αβ side's answer.
    pub ab: Option<AbView>,
    /// The DL side's answer.
    pub dl: Option<DlView>,
    /// The αβ side's last line with a PV.
    pub ab_line: Option<Info>,
    /// The DL side's last line with a PV.
    pub dl_line: Option<Info>,
}

enum Msg {
    Line(Side, Info),
    Ab(AbView),
    Dl(DlView),
    Failed(Side),
}

/// Searches `pos` with both sides under `limits`; `outer` are the signals of the `go`, `watch`
/// stops both at their hard limit, `emit` receives every line with its side.
pub fn search_both(
    sides: Sides<'_>,
    (pos, limits): (&Position, &Limits),
    (outer, mut watch): (&Signals, Watch),
    rule: &Rule,
    emit: &mut dyn FnMut(Side, &Info),
) -> Answers {
    let signals = [Signals::new(), Signals::new()];
    let (tx, rx) = channel();
    let mut answers = Answers::default();
    std::thread::scope(|s| {
        if let Some(ab) = sides.ab {
            spawn_ab(s, ab, (pos, limits), signals[0].clone(), tx.clone());
        }
        if let Some(dl) = sides.dl {
            spawn_dl(s, dl, (pos, limits), signals[1].clone(), tx.clone());
        }
        drop(tx);
        let mut ponderhit_sent = false;
        loop {
            match rx.recv_timeout(Duration::from_millis(1)) {
                Ok(msg) => {
                    let ab_done = matches!(msg, Msg::Ab(_) | Msg::Failed(Side::AlphaBeta));
                    take(msg, &mut answers, rule, &signals, emit);
                    if ab_done && sides.dl_follows_ab {
                        signals[1].stop();
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if outer.is_ponderhit() && !ponderhit_sent {
                ponderhit_sent = true;
                watch.start = std::time::Instant::now();
                signals.iter().for_each(|s| s.ponderhit());
            }
            if outer.is_stopped() || watch.is_up(limits, ponderhit_sent) {
                signals.iter().for_each(|s| s.stop());
            }
        }
    });
    answers
}

fn spawn_ab<'s>(
    s: &'s Scope<'s, '_>,
    ab: &'s mut dyn AlphaBetaSide,
    (pos, limits): (&'s Position, &'s Limits),
    signals: Arc<Signals>,
    tx: Sender<Msg>,
) {
    let _ = std::thread::Builder::new()
        .name("hybrid-ab".into())
        .spawn_scoped(s, move || {
            let lines = tx.clone();
            let run = AssertUnwindSafe(|| {
                ab.search_scored(pos, limits, &signals, &mut |i: &Info| {
                    let _ = lines.send(Msg::Line(Side::AlphaBeta, i.clone()));
                })
            });
            let _ = tx.send(catch_unwind(run).map_or(Msg::Failed(Side::AlphaBeta), Msg::Ab));
        });
}

fn spawn_dl<'s>(
    s: &'s Scope<'s, '_>,
    dl: &'s mut MctsPlayer,
    (pos, limits): (&'s Position, &'s Limits),
    signals: Arc<Signals>,
    tx: Sender<Msg>,
) {
    let _ = std::thread::Builder::new()
        .name("hybrid-dl".into())
        .spawn_scoped(s, move || {
            let lines = tx.clone();
            let run = AssertUnwindSafe(|| {
                search_dl(dl, pos, limits, &signals, &mut |i: &Info| {
                    let _ = lines.send(Msg::Line(Side::Dl, i.clone()));
                })
            });
            let _ = tx.send(catch_unwind(run).map_or(Msg::Failed(Side::Dl), Msg::Dl));
        });
}

/// Records one message, stopping a side whose answer can no longer matter.
fn take(
    msg: Msg,
    answers: &mut Answers,
    rule: &Rule,
    [ab_signals, dl_signals]: &[Arc<Signals>; 2],
    emit: &mut dyn FnMut(Side, &Info),
) {
    match msg {
        Msg::Line(side, info) => {
            if side == Side::AlphaBeta && rule.mate && is_exact_mate(&info) {
                dl_signals.stop();
            }
            emit(side, &info);
            if !info.pv.is_empty() && info.multipv.unwrap_or(1) == 1 {
                match side {
                    Side::AlphaBeta => answers.ab_line = Some(info),
                    Side::Dl => answers.dl_line = Some(info),
                }
            }
        }
        Msg::Ab(v) => {
            let mate = rule.mate && matches!(v.score, Score::Mate(n) if n > 0);
            if mate || score_value(v.score).abs() >= rule.ab_threshold {
                dl_signals.stop();
            }
            answers.ab = Some(v);
        }
        Msg::Dl(v) => {
            if rule.mate && v.proven_win {
                ab_signals.stop();
            }
            answers.dl = Some(v);
        }
        Msg::Failed(side) => {
            let text = "error: the search failed; deciding without it".to_string();
            emit(side, &crate::tag::text(text));
        }
    }
}

/// An αβ line that proves a mate for the side to move (exact, the first PV).
fn is_exact_mate(info: &Info) -> bool {
    matches!(info.score, Some(Score::Mate(n)) if n > 0)
        && info.bound == Bound::Exact
        && info.multipv.unwrap_or(1) == 1
        && !info.pv.is_empty()
}
