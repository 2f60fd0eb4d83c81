//! The floodgate extended comment sent after our move: `,'* <eval> <pv>`, eval from Black's
//! point of view, PV in CSA moves without the move itself. shogi-server stores it in the
//! record as `'** <eval> <pv>`. The comment's eval is a plain integer, so a mate score is
//! written as YaneuraOu writes one in centipawns (its `VALUE_MATE` convention, what floodgate
//! records of its engines show): ±([`MATE_VALUE`] − plies), positive when the mover mates.

use crate::csa_move::move_text;
use hayate_core::player::{Info, Score};
use hayate_core::{Color, Move, Position};

/// Longest PV sent, in moves (keeps the line short; the server limits line length).
const MAX_PV: usize = 16;

/// The eval a mate score is written as: mate in `n` plies is `MATE_VALUE - n`.
pub const MATE_VALUE: i32 = 32000;

/// A score as the comment's integer, from the side to move's view.
fn comment_eval(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_VALUE - n.min(MATE_VALUE),
        Score::Mate(n) => -(MATE_VALUE - n.saturating_neg().min(MATE_VALUE)),
    }
}

/// The comment text after `,'` (starting with `* `), or `None` when the info has no score.
pub fn floodgate_comment(pos: &Position, best: Move, info: &Info) -> Option<String> {
    let cp = comment_eval(info.score?);
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
    fn mate_scores_are_sent_as_mate_values_from_blacks_view() {
        // Black to move mates in 1 (7g7f's PV is irrelevant here): +31999.
        let pos = Position::startpos();
        let best = usi(&pos, "7g7f");
        let info = |score| Info {
            score: Some(score),
            pv: vec![best],
            ..Info::default()
        };
        let comment = |p: &Position, b, s| floodgate_comment(p, b, &info(s));
        assert_eq!(
            comment(&pos, best, Score::Mate(1)).as_deref(),
            Some("* 31999")
        );
        assert_eq!(
            comment(&pos, best, Score::Mate(-4)).as_deref(),
            Some("* -31996")
        );
        // White to move: the view flips.
        let mut white = pos.clone();
        white.do_move(best);
        let reply = usi(&white, "3c3d");
        let info_w = Info {
            score: Some(Score::Mate(3)),
            pv: vec![reply],
            ..Info::default()
        };
        assert_eq!(
            floodgate_comment(&white, reply, &info_w).as_deref(),
            Some("* -31997")
        );
        assert_eq!(
            comment(&pos, best, Score::Mate(i32::MIN)).as_deref(),
            Some("* 0")
        );
    }

    #[test]
    fn no_comment_without_score_and_stale_pv_dropped() {
        let pos = Position::startpos();
        let best = usi(&pos, "7g7f");
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
