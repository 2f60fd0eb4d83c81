//! The two sides as the hybrid drives them: the αβ player behind [`AlphaBetaSide`] (any
//! evaluation, so this crate need not know which), the DL side as the MCTS player itself.

use crate::rule::{AbView, DlView};
use hayate_core::Position;
use hayate_core::player::{Info, Limits, Player, Signals};
use hayate_eval::Evaluator;
use hayate_mcts::MctsPlayer;
use hayate_search::AlphaBeta;
use hayate_search::value::to_score;

/// An αβ player that also says what its move scores: the hybrid's decisive-score rule and
/// verification need the score, which [`Player::think`] does not return.
pub trait AlphaBetaSide: Player {
    /// Searches `pos` and returns the move with its score.
    fn search_scored(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> AbView;
}

impl<E: Evaluator> AlphaBetaSide for AlphaBeta<E> {
    fn search_scored(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> AbView {
        let r = self.search(pos, limits, signals, info);
        AbView {
            best: r.best,
            score: to_score(r.score),
        }
    }
}

/// The DL side's search: its move, and whether its report proved the root won.
pub fn search_dl(
    dl: &mut MctsPlayer,
    pos: &Position,
    limits: &Limits,
    signals: &Signals,
    info: &mut dyn FnMut(&Info),
) -> DlView {
    let best = dl.think(pos, limits, signals, info);
    DlView {
        best,
        proven_win: dl.last_report().proven == Some(true),
    }
}
