//! The rules a game is played under beyond the laws of shogi: the ply limit, the time margin,
//! which declaration rule applies, and adjudication from the players' own scores.

use crate::DeclarationRule;
use crate::player::Score;

/// Score-based adjudication: after both sides have reported scores for `moves` consecutive moves
/// each that agree, the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreAdjudication {
    /// Centipawn threshold.
    pub cp: i32,
    /// Consecutive moves of each side.
    pub moves: usize,
}

/// Rules of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRules {
    /// The game is drawn when this many plies have been played (opening moves count).
    pub max_plies: usize,
    /// Milliseconds a move may overrun its clock before it is a time loss.
    pub margin_ms: u64,
    /// Resign when the side to move has scored ≤ −cp and its opponent ≥ cp for `moves` moves.
    pub resign: Option<ScoreAdjudication>,
    /// Draw when both sides scored within ±cp for `moves` moves, from ply `draw_min_ply` on.
    pub draw: Option<ScoreAdjudication>,
    /// First ply at which draw adjudication may apply.
    pub draw_min_ply: usize,
    /// The rule a declaration (`bestmove win`) is checked against.
    pub declaration: DeclarationRule,
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules {
            max_plies: 320,
            margin_ms: 200,
            resign: None,
            draw: None,
            draw_min_ply: 160,
            declaration: DeclarationRule::Csa27,
        }
    }
}

/// A mate score as centipawns for comparisons only: beyond any evaluation, nearer mates larger.
const MATE_CP: i32 = 100_000;

/// A score as a number that orders like it (mates beyond every centipawn score).
pub(crate) fn comparable_cp(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => MATE_CP - n.min(MATE_CP / 2),
        Score::Mate(n) => -MATE_CP + n.saturating_neg().min(MATE_CP / 2),
    }
}

/// What score adjudication decides before the side to move plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Adjudication {
    /// The side to move is lost (it resigns).
    Resign,
    /// The game is drawn.
    Draw,
}

/// Score adjudication before the side to move plays (so a resignation is always its own).
/// `ours` and `theirs` are the scores each side reported for its own moves, from its own view.
pub(crate) fn adjudicate_scores(
    ours: &[Option<Score>],
    theirs: &[Option<Score>],
    rules: &GameRules,
    ply: usize,
) -> Option<Adjudication> {
    let last = |v: &[Option<Score>], n: usize| -> Option<Vec<i32>> {
        if v.len() < n || n == 0 {
            return None;
        }
        v[v.len() - n..]
            .iter()
            .map(|s| s.map(comparable_cp))
            .collect()
    };
    if let Some(r) = rules.resign
        && let (Some(a), Some(b)) = (last(ours, r.moves), last(theirs, r.moves))
        && a.iter().all(|&s| s <= -r.cp)
        && b.iter().all(|&s| s >= r.cp)
    {
        return Some(Adjudication::Resign);
    }
    if let Some(d) = rules.draw
        && ply >= rules.draw_min_ply
        && let (Some(a), Some(b)) = (last(ours, d.moves), last(theirs, d.moves))
        && a.iter().chain(b.iter()).all(|s| s.abs() <= d.cp)
    {
        return Some(Adjudication::Draw);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(v: &[Option<i32>]) -> Vec<Option<Score>> {
        v.iter().map(|s| s.map(Score::Cp)).collect()
    }

    #[test]
    fn resign_adjudication_needs_both_sides() {
        let rules = GameRules {
            resign: Some(ScoreAdjudication { cp: 1000, moves: 2 }),
            ..GameRules::default()
        };
        let (ours, theirs) = (
            cp(&[Some(-1200), Some(-1500)]),
            cp(&[Some(1100), Some(1300)]),
        );
        assert_eq!(
            adjudicate_scores(&ours, &theirs, &rules, 10),
            Some(Adjudication::Resign)
        );
        let theirs_doubt = cp(&[Some(1100), Some(300)]);
        assert_eq!(adjudicate_scores(&ours, &theirs_doubt, &rules, 10), None);
        let ours_silent = cp(&[Some(-1200), None]);
        assert_eq!(adjudicate_scores(&ours_silent, &theirs, &rules, 10), None);
    }

    #[test]
    fn mate_scores_count_as_beyond_any_threshold() {
        let rules = GameRules {
            resign: Some(ScoreAdjudication { cp: 3000, moves: 1 }),
            ..GameRules::default()
        };
        let ours = [Some(Score::Mate(-4))];
        let theirs = [Some(Score::Mate(5))];
        assert_eq!(
            adjudicate_scores(&ours, &theirs, &rules, 10),
            Some(Adjudication::Resign)
        );
        assert!(comparable_cp(Score::Mate(1)) > comparable_cp(Score::Mate(3)));
        assert!(comparable_cp(Score::Mate(i32::MAX)) > 30_000);
        assert!(comparable_cp(Score::Mate(0)) < comparable_cp(Score::Mate(-2)));
        assert!(comparable_cp(Score::Mate(-i32::MAX)) < -30_000);
    }

    #[test]
    fn draw_adjudication_waits_for_min_ply() {
        let rules = GameRules {
            draw: Some(ScoreAdjudication { cp: 10, moves: 2 }),
            draw_min_ply: 20,
            ..GameRules::default()
        };
        let (ours, theirs) = (cp(&[Some(0), Some(8)]), cp(&[Some(3), Some(-5)]));
        assert_eq!(adjudicate_scores(&ours, &theirs, &rules, 19), None);
        assert_eq!(
            adjudicate_scores(&ours, &theirs, &rules, 20),
            Some(Adjudication::Draw)
        );
    }
}
