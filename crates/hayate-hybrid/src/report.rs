//! What the hybrid says about a decision, and the last guard on its answer. The decision goes
//! out as `info string hybrid: dl 7g7f (DL move verified: …)`; when the move played is not the
//! head of the plainly shown side's PV, the chosen side's last line (for a verified DL move,
//! the verification's line, on αβ's scale) is repeated as a plain `info` line, so the last PV a
//! GUI shows starts with the move played.

use crate::consult::Answers;
use crate::options::Options;
use crate::rule::{Decision, Reason, Side, score_value};
use crate::tag::text;
use crate::verify::Verification;
use hayate_core::Position;
use hayate_core::player::{BestMove, Info, Score};

/// Reports `decision` over `answers` (and the verification, if one ran).
pub fn report(
    decision: &Decision,
    answers: &Answers,
    verification: Option<&Verification>,
    options: Options,
    info: &mut dyn FnMut(&Info),
) {
    let mv = match decision.best {
        BestMove::Move { best, .. } => best.to_usi(),
        BestMove::Resign => "resign".into(),
        BestMove::Win => "win".into(),
    };
    let why = reason_text(decision.reason, answers, &options);
    info(&text(format!(
        "hybrid: {} {mv} ({why})",
        decision.side.tag()
    )));
    let BestMove::Move { best, .. } = decision.best else {
        return;
    };
    let line = match (decision.side, verification) {
        (side, _) if side == options.info_main => None,
        (Side::Dl, Some(v)) => v.line.as_ref(),
        (Side::Dl, None) => answers.dl_line.as_ref(),
        (Side::AlphaBeta, _) => answers.ab_line.as_ref(),
    };
    if let Some(l) = line.filter(|l| l.pv.first() == Some(&best)) {
        info(l);
    }
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

fn reason_text(reason: Reason, answers: &Answers, options: &Options) -> String {
    let r = &options.rule;
    let ab = answers.ab.as_ref().map(|a| a.score);
    let ab_text = ab.map_or("none".to_string(), score_text);
    match reason {
        Reason::OnlySide => "the only side that answered".into(),
        Reason::Declaration => "entering-king declaration".into(),
        Reason::Mate => "mate rule".into(),
        Reason::BothResign => "both sides resign".into(),
        Reason::OtherResigned => "the other side resigned".into(),
        Reason::Decisive => format!("ab score {ab_text}, |score| >= {}", r.ab_threshold),
        Reason::Agree => "both sides agree".into(),
        Reason::Dl => format!("DL move, ab score {ab_text}, not verified"),
        Reason::Verified { dl_move } => format!(
            "DL move verified: {} for it vs ab {ab_text}, margin {}",
            score_text(dl_move),
            r.verify_margin
        ),
        Reason::Overruled { dl_move } => format!(
            "DL move overruled: {} for it vs ab {ab_text}, loss {} > margin {}",
            score_text(dl_move),
            ab.map_or(0, score_value)
                .saturating_sub(score_value(dl_move)),
            r.verify_margin
        ),
    }
}

/// The answer to send: the decision's, unless it is a move that is not legal here, or a
/// resignation because no side answered at all (then the first legal move beats losing).
pub fn fallback_move(
    pos: &Position,
    decision: &Decision,
    answers: &Answers,
    info: &mut dyn FnMut(&Info),
) -> BestMove {
    let legal = pos.legal_moves();
    let first = legal.iter().next().map(|&m| BestMove::Move {
        best: m,
        ponder: None,
    });
    let problem = match decision.best {
        BestMove::Move { best, .. } if !legal.iter().any(|&m| m == best) => {
            Some(format!("{} is not legal here", best.to_usi()))
        }
        BestMove::Resign if answers.ab.is_none() && answers.dl.is_none() => {
            Some("no side answered".to_string())
        }
        _ => None,
    };
    match (problem, first) {
        (Some(p), Some(first)) => {
            info(&text(format!(
                "error: hybrid: {p}; playing the first legal move"
            )));
            first
        }
        _ => decision.best,
    }
}
