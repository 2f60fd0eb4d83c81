//! The decision rule as data: which side's move is played, given what each side answered.
//! Pure functions over plain values, so every rule can be tested with synthetic results and
//! measured by changing options rather than code.
//!
//! In order (Ryfamate's 変則合議, with each step switchable):
//! 1. a mate found by either side is played (`Hybrid_MateRule`): αβ's mate score first (its
//!    distance is known), then the DL side's proven win (root df-pn, proven tree);
//! 2. when αβ's score is decisive, `|score| ≥ Hybrid_AbThreshold`, αβ's move is played (its
//!    tactics, and its longest defence when lost);
//! 3. otherwise the DL move, unless a short αβ search of it (`Hybrid_VerifyDepth`) scores it
//!    more than `Hybrid_VerifyMargin` below αβ's own choice.
//!
//! Resignation needs both sides (a side that resigns is outvoted by one that plays on), and a
//! declaration is made when either side makes it (both test the same CSA rule on the same
//! position).

use hayate_core::Move;
use hayate_core::player::{BestMove, Score};

/// The rule's parameters (the `Hybrid_*` options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Step 1: play a mate either side found.
    pub mate: bool,
    /// Step 2: αβ's move is played when `|αβ score| ≥` this (centipawns, pawn = 90).
    pub ab_threshold: i32,
    /// Step 3: the DL move is overruled when its verified score is below αβ's by more than this.
    pub verify_margin: i32,
    /// Step 3: depth of the verification search (0 = no verification: the DL move is played).
    pub verify_depth: u32,
    /// Step 3: time kept back from the sides for the verification search (ms).
    pub verify_ms: u64,
}

impl Default for Rule {
    fn default() -> Rule {
        Rule {
            mate: true,
            ab_threshold: 1000,
            verify_margin: 300,
            verify_depth: 6,
            verify_ms: 100,
        }
    }
}

/// Which side a line, a move or a decision comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The αβ player.
    AlphaBeta,
    /// The MCTS player over the network.
    Dl,
}

impl Side {
    /// The tag that marks this side's lines: `ab` or `dl`.
    pub fn tag(self) -> &'static str {
        match self {
            Side::AlphaBeta => "ab",
            Side::Dl => "dl",
        }
    }
}

/// What the αβ side answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbView {
    /// Its move.
    pub best: BestMove,
    /// The score of its move.
    pub score: Score,
}

/// What the DL side answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DlView {
    /// Its move.
    pub best: BestMove,
    /// Whether it proved the root won (root df-pn, a proven tree, a root mate).
    pub proven_win: bool,
}

/// Why a move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Only this side could answer.
    OnlySide,
    /// A side declared a win.
    Declaration,
    /// Step 1: a mate.
    Mate,
    /// Both sides resigned.
    BothResign,
    /// The other side resigned; this one plays on.
    OtherResigned,
    /// Step 2: αβ's score is decisive.
    Decisive,
    /// Both sides chose the same move.
    Agree,
    /// Step 3 with verification off.
    Dl,
    /// Step 3: the DL move verified within the margin (`dl_move` is its αβ score).
    Verified {
        /// αβ's score of the DL move.
        dl_move: Score,
    },
    /// Step 3: the DL move lost too much in verification; αβ's move is played.
    Overruled {
        /// αβ's score of the DL move.
        dl_move: Score,
    },
}

/// A decision: the answer, the side it comes from and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// What to answer.
    pub best: BestMove,
    /// Whose answer it is.
    pub side: Side,
    /// Why.
    pub reason: Reason,
}

/// What the rule needs next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Decided.
    Final(Decision),
    /// Step 3: search this DL move with αβ, then call [`after_verify`].
    Verify(Move),
}

/// A score as one ordered number: centipawns, with mates beyond any evaluation (nearer mates
/// larger, as the αβ search orders them).
pub fn score_value(s: Score) -> i32 {
    const MATE: i32 = 32_000;
    match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => MATE - n,
        Score::Mate(n) => -MATE - n,
    }
}

fn decision(best: BestMove, side: Side, reason: Reason) -> Step {
    Step::Final(Decision { best, side, reason })
}

/// The first step of the rule over what the sides answered (`None`: the side is not playing).
pub fn first_step(rule: &Rule, ab: Option<&AbView>, dl: Option<&DlView>) -> Step {
    let (ab, dl) = match (ab, dl) {
        (Some(ab), Some(dl)) => (ab, dl),
        (Some(ab), None) => return decision(ab.best, Side::AlphaBeta, Reason::OnlySide),
        (None, Some(dl)) => return decision(dl.best, Side::Dl, Reason::OnlySide),
        (None, None) => return decision(BestMove::Resign, Side::AlphaBeta, Reason::OnlySide),
    };
    let is_move = |b: &BestMove| matches!(b, BestMove::Move { .. });
    for (best, side) in [(ab.best, Side::AlphaBeta), (dl.best, Side::Dl)] {
        if best == BestMove::Win {
            return decision(best, side, Reason::Declaration);
        }
    }
    if rule.mate && is_move(&ab.best) && matches!(ab.score, Score::Mate(n) if n > 0) {
        return decision(ab.best, Side::AlphaBeta, Reason::Mate);
    }
    if rule.mate && is_move(&dl.best) && dl.proven_win {
        return decision(dl.best, Side::Dl, Reason::Mate);
    }
    match (is_move(&ab.best), is_move(&dl.best)) {
        (false, false) => return decision(BestMove::Resign, Side::AlphaBeta, Reason::BothResign),
        (true, false) => return decision(ab.best, Side::AlphaBeta, Reason::OtherResigned),
        (false, true) => return decision(dl.best, Side::Dl, Reason::OtherResigned),
        (true, true) => {}
    }
    if score_value(ab.score).abs() >= rule.ab_threshold {
        return decision(ab.best, Side::AlphaBeta, Reason::Decisive);
    }
    match (ab.best, dl.best) {
        (BestMove::Move { best: a, .. }, BestMove::Move { best: d, .. }) if a == d => {
            decision(dl.best, Side::Dl, Reason::Agree)
        }
        (_, BestMove::Move { best: d, .. }) if rule.verify_depth > 0 => Step::Verify(d),
        _ => decision(dl.best, Side::Dl, Reason::Dl),
    }
}

/// Step 3 after the verification search scored the DL move `dl_move` (from the side to
/// move's view, as αβ's own score).
pub fn after_verify(rule: &Rule, ab: &AbView, dl: &DlView, dl_move: Score) -> Decision {
    let loss = score_value(ab.score).saturating_sub(score_value(dl_move));
    if loss > rule.verify_margin {
        Decision {
            best: ab.best,
            side: Side::AlphaBeta,
            reason: Reason::Overruled { dl_move },
        }
    } else {
        Decision {
            best: dl.best,
            side: Side::Dl,
            reason: Reason::Verified { dl_move },
        }
    }
}

#[cfg(test)]
mod tests;
