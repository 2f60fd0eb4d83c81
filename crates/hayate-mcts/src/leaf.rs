//! What happens when the search reaches a new node: the moves it will have, the game ends that
//! need no network (dlshogi's order: draw ply, repetition, odd-ply mate, declaration, no move),
//! and the priors from the network's logits.

use crate::node::Proven;
use crate::params::SearchParams;
use hayate_core::{Color, Move, MoveList, PieceType, Position, Repetition};
use hayate_mate::{OddPlyResult, OddPlySearch};
use hayate_nn::move_label;

/// Whether dlshogi's expansion keeps `m`: it drops the non-promotions of pawns, bishops and
/// rooks that could promote (the promotion is never worse) and lance non-promotions to the
/// second rank. The promoting twin is always legal too, so no position loses all its moves.
pub fn is_searched_move(m: Move) -> bool {
    if m.is_drop() || m.is_promotion() {
        return true;
    }
    let piece = m.moved_piece();
    let us = piece.color();
    let pt = piece.piece_type();
    if pt == PieceType::PAWN || pt == PieceType::BISHOP || pt == PieceType::ROOK {
        return !(m.from().in_promotion_zone(us) || m.to().in_promotion_zone(us));
    }
    if pt == PieceType::LANCE {
        return m.to().relative_rank(us) != 2;
    }
    true
}

/// The moves a node expands to: the legal moves less those [`is_searched_move`] drops.
pub fn searched_moves(pos: &Position, list: &mut MoveList) {
    list.clear();
    let mut all = MoveList::new();
    pos.generate_legal(&mut all);
    for &m in all.iter() {
        if is_searched_move(m) {
            list.push(m);
        }
    }
}

/// A game end found without the network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terminal {
    /// The result for the side to move at the node (1 win, 0 loss, draw value otherwise).
    pub value: f32,
    /// The same fact for the edge into the node (from the mover's side).
    pub proven: Proven,
    /// The mating move when the odd-ply search found one.
    pub mate: Option<Move>,
}

impl Terminal {
    fn win(mate: Option<Move>) -> Terminal {
        Terminal {
            value: 1.0,
            proven: Proven::Loss,
            mate,
        }
    }
    fn loss() -> Terminal {
        Terminal {
            value: 0.0,
            proven: Proven::Win,
            mate: None,
        }
    }
    fn draw(pos: &Position, params: &SearchParams) -> Terminal {
        // The draw is valued for the player who moved into it.
        let mover = !pos.side_to_move();
        Terminal {
            value: 1.0 - params.draw_value[mover.index()],
            proven: Proven::Draw,
            mate: None,
        }
    }
}

/// Checks a new node at `pos` (reached inside the tree) with its searched `moves`.
pub fn terminal(pos: &mut Position, moves: &MoveList, params: &SearchParams) -> Option<Terminal> {
    if params.draw_ply > 0 && pos.game_ply() > params.draw_ply {
        return Some(Terminal::draw(pos, params));
    }
    match pos.repetition(params.repetition_plies) {
        Repetition::None => {}
        Repetition::Draw => return Some(Terminal::draw(pos, params)),
        Repetition::Win | Repetition::Superior => return Some(Terminal::win(None)),
        Repetition::Lose | Repetition::Inferior => return Some(Terminal::loss()),
    }
    if moves.is_empty() {
        return Some(Terminal::loss());
    }
    if let Some(m) = leaf_mate(pos, params) {
        return Some(Terminal::win(Some(m)));
    }
    if !pos.in_check() && pos.can_declare_win(params.declaration) {
        return Some(Terminal::win(None));
    }
    None
}

/// The odd-ply mate search of a leaf, under its node budget.
pub fn leaf_mate(pos: &mut Position, params: &SearchParams) -> Option<Move> {
    if params.leaf_mate_depth == 0 || pos.in_check() {
        return None;
    }
    match OddPlySearch::new(params.leaf_mate_nodes).search(pos, params.leaf_mate_depth) {
        OddPlyResult::Mate(m) => Some(m),
        OddPlyResult::NoMate | OddPlyResult::Aborted => None,
    }
}

/// Softmax of the logits of `moves` at temperature `t` (dlshogi: `exp(logit / T)` normalised
/// over the legal moves only).
pub fn priors(side: Color, moves: &MoveList, policy: &[f32], t: f32) -> Box<[(Move, f32)]> {
    let beta = 1.0 / t.max(1e-3);
    let mut out: Box<[(Move, f32)]> = moves
        .iter()
        .map(|&m| {
            let logit = policy
                .get(move_label(m, side) as usize)
                .copied()
                .unwrap_or(0.0);
            (m, logit * beta)
        })
        .collect();
    let max = out.iter().map(|p| p.1).fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for p in out.iter_mut() {
        p.1 = (p.1 - max).exp();
        sum += p.1;
    }
    if sum > 0.0 && sum.is_finite() {
        for p in out.iter_mut() {
            p.1 /= sum;
        }
    } else {
        let u = 1.0 / out.len().max(1) as f32;
        for p in out.iter_mut() {
            p.1 = u;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_searches_all_thirty_moves() {
        let pos = Position::startpos();
        let mut l = MoveList::new();
        searched_moves(&pos, &mut l);
        assert_eq!(l.len(), 30);
    }

    #[test]
    fn useless_non_promotions_are_dropped() {
        // Black bishop on 2b can take... the 8-rank lance and the pawn at the zone edge.
        let pos = Position::from_sfen("4k4/9/9/4P4/9/9/9/9/L3K3B b - 1").expect("sfen");
        let mut all = MoveList::new();
        pos.generate_legal(&mut all);
        let mut kept = MoveList::new();
        searched_moves(&pos, &mut kept);
        // 5d5c: the pawn enters the zone, only 5d5c+ stays.
        assert!(all.iter().any(|m| m.to_usi() == "5d5c"));
        assert!(!kept.iter().any(|m| m.to_usi() == "5d5c"));
        assert!(kept.iter().any(|m| m.to_usi() == "5d5c+"));
        // Lance to rank 2 without promotion goes, rank 3 stays.
        assert!(!kept.iter().any(|m| m.to_usi() == "9i9b"));
        assert!(kept.iter().any(|m| m.to_usi() == "9i9b+"));
        assert!(kept.iter().any(|m| m.to_usi() == "9i9c"));
        // The bishop's move into the zone keeps only the promotion.
        assert!(!kept.iter().any(|m| m.to_usi() == "1i7c"));
        assert!(kept.iter().any(|m| m.to_usi() == "1i7c+"));
        assert!(kept.iter().any(|m| m.to_usi() == "1i2h"));
    }

    #[test]
    fn priors_are_a_softmax_over_the_legal_moves() {
        let pos = Position::startpos();
        let mut l = MoveList::new();
        searched_moves(&pos, &mut l);
        let mut policy = vec![0.0f32; 2187];
        let m = pos.parse_usi_move("7g7f").expect("move");
        policy[move_label(m, pos.side_to_move()) as usize] = 1.74 * 2.0;
        let p = priors(pos.side_to_move(), &l, &policy, 1.74);
        let sum: f32 = p.iter().map(|x| x.1).sum();
        assert!((sum - 1.0).abs() < 1e-5);
        let e2 = 2f32.exp();
        let want = e2 / (e2 + 29.0);
        let got = p.iter().find(|x| x.0 == m).map(|x| x.1).unwrap_or(0.0);
        assert!((got - want).abs() < 1e-5, "{got} vs {want}");
    }

    #[test]
    fn a_leaf_with_a_short_mate_is_a_win_for_the_side_to_move() {
        let mut pos =
            Position::from_sfen("9/9/5k3/9/4G4/4P4/9/9/9 b 3G2r2b4s4n4l17p 1").expect("sfen");
        let mut l = MoveList::new();
        searched_moves(&pos, &mut l);
        let t = terminal(&mut pos, &l, &SearchParams::default()).expect("mate in 5");
        assert_eq!(t.value, 1.0);
        assert_eq!(t.proven, Proven::Loss);
        assert!(t.mate.is_some());
        let p = SearchParams {
            leaf_mate_depth: 3,
            ..SearchParams::default()
        };
        assert_eq!(
            terminal(&mut pos, &l, &p),
            None,
            "mate in 5 is not a mate in 3"
        );
    }

    #[test]
    fn draw_value_belongs_to_the_player_who_moved_into_the_draw() {
        let mut pos =
            Position::from_usi_position("startpos moves 2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b")
                .expect("position");
        let mut l = MoveList::new();
        searched_moves(&pos, &mut l);
        let p = SearchParams {
            draw_value: [0.5, 0.3],
            ..SearchParams::default()
        };
        // White played last: the draw is worth 0.3 to White, so 0.7 to Black (to move).
        let t = terminal(&mut pos, &l, &p).expect("repetition");
        assert_eq!(t.proven, Proven::Draw);
        assert!((t.value - 0.7).abs() < 1e-6);
    }
}
