//! The floodgate extended comment sent after our move: `,'* <eval> <pv>`, eval from Black's
//! point of view, PV in CSA moves without the move itself. shogi-server stores it in the
//! record as `'** <eval> <pv>`.

use crate::csa_move::move_text;
use hayate_core::player::{Info, Score};
use hayate_core::{Color, Move, Position};

/// Longest PV sent, in moves (keeps the line short; the server limits line length).
const MAX_PV: usize = 16;

/// The comment text after `,'` (starting with `* `), or `None` when the info has no
/// centipawn score (mate scores are not sent as an eval, as ShogiHome does).
pub fn floodgate_comment(pos: &Position, best: Move, info: &Info) -> Option<String> {
    let Some(Score::Cp(cp)) = info.score else {
        return None;
    };
    let black_view = match pos.side_to_move() {
        Color::Black => cp,
        Color::White => -cp,
    };
    let mut text = format!("* {black_view}");
    let mut pv = info.pv.iter().copied();
    // The PV normally starts with the move itself; if it starts elsewhere it is stale.
    match pv.next() {
        Some(first) if first.same(best) => {}
        _ => return Some(text),
    }
    let mut p = pos.clone();
    if !p.is_legal(best) {
        return Some(text);
    }
    p.do_move(best);
    for m in pv.take(MAX_PV) {
        // Re-find the move in the position so its piece fields are right, and stop at the
        // first move that is not legal there (a PV from a hash line can be broken).
        let Some(real) = p.legal_moves().iter().copied().find(|l| l.same(m)) else {
            break;
        };
        text.push(' ');
        text.push_str(&move_text(real));
        p.do_move(real);
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usi(pos: &Position, s: &str) -> Move {
        pos.parse_usi_move(s).unwrap()
    }

    #[test]
    fn black_view_eval_and_pv_without_the_move() {
        let pos = Position::startpos();
        let best = usi(&pos, "7g7f");
        let mut p = pos.clone();
        p.do_move(best);
        let reply = usi(&p, "3c3d");
        p.do_move(reply);
        let next = usi(&p, "2g2f");
        let info = Info {
            score: Some(Score::Cp(30)),
            pv: vec![best, reply, next],
            ..Info::default()
        };
        assert_eq!(
            floodgate_comment(&pos, best, &info).as_deref(),
            Some("* 30 -3334FU +2726FU")
        );
    }

    #[test]
    fn white_scores_are_negated() {
        let mut pos = Position::startpos();
        pos.do_move(usi(&pos, "7g7f"));
        let best = usi(&pos, "3c3d");
        let info = Info {
            score: Some(Score::Cp(50)),
            pv: vec![best],
            ..Info::default()
        };
        assert_eq!(
            floodgate_comment(&pos, best, &info).as_deref(),
            Some("* -50")
        );
    }

    #[test]
    fn no_comment_for_mate_or_missing_score_and_stale_pv_dropped() {
        let pos = Position::startpos();
        let best = usi(&pos, "7g7f");
        let mate = Info {
            score: Some(Score::Mate(5)),
            pv: vec![best],
            ..Info::default()
        };
        assert_eq!(floodgate_comment(&pos, best, &mate), None);
        assert_eq!(floodgate_comment(&pos, best, &Info::default()), None);
        let other = usi(&pos, "2g2f");
        let stale = Info {
            score: Some(Score::Cp(-7)),
            pv: vec![other, best],
            ..Info::default()
        };
        assert_eq!(
            floodgate_comment(&pos, best, &stale).as_deref(),
            Some("* -7")
        );
    }
}
