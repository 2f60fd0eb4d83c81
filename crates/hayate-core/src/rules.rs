//! Game rules beyond move legality: repetition (sennichite), perpetual check, superior and
//! inferior repetition for search, and the entering-king declaration (入玉宣言).

use crate::{Color, PieceType, Position};

/// What an earlier occurrence of the current position means, for search (first recurrence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// No earlier occurrence within the look-back window.
    None,
    /// The same position, no perpetual check: a draw.
    Draw,
    /// The same position and the opponent checked on every move of the cycle: the side to move wins.
    Win,
    /// The same position and the side to move checked on every move of the cycle: it loses.
    Lose,
    /// The same board with more in the side to move's hand than before: good for it.
    Superior,
    /// The same board with less in the side to move's hand: bad for it.
    Inferior,
}

/// The outcome of a game-level repetition check (fourfold, the official rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameRepetition {
    /// The position has occurred fewer than four times.
    None,
    /// Fourth occurrence without perpetual check: the game is drawn.
    Draw,
    /// Fourth occurrence and this side checked on every one of its moves since the first: it loses.
    PerpetualCheckBy(Color),
}

/// Which entering-king rule applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DeclarationRule {
    /// CSA / WCSC 27-point rule: Black needs 28 points, White 27.
    #[default]
    Csa27,
    /// The 24-point rule (JSA amateur): 31 points for either side.
    Points24,
}

impl Position {
    /// Looks back at most `max_back` plies (and never past the root or a null move) for the first
    /// recurrence of the current board, as searchers do: an exact repeat is a draw unless one side
    /// checked throughout; the same board with a different hand is superior or inferior.
    pub fn repetition(&self, max_back: usize) -> Repetition {
        let st = self.state();
        let len = self.states.len();
        let n = (st.plies_from_null as usize).min(max_back).min(len - 1);
        let us = self.side_to_move();
        let mut i = 4;
        while i <= n {
            let prev = &self.states[len - 1 - i];
            if prev.board_key == st.board_key {
                if prev.hand_key == st.hand_key {
                    if st.continuous_check[(!us).index()] as usize >= i {
                        return Repetition::Win;
                    }
                    if st.continuous_check[us.index()] as usize >= i {
                        return Repetition::Lose;
                    }
                    return Repetition::Draw;
                }
                if st
                    .hand_of_side_to_move
                    .is_superior_or_equal(prev.hand_of_side_to_move)
                {
                    return Repetition::Superior;
                }
                if prev
                    .hand_of_side_to_move
                    .is_superior_or_equal(st.hand_of_side_to_move)
                {
                    return Repetition::Inferior;
                }
            }
            i += 2;
        }
        Repetition::None
    }

    /// The official rule (千日手): the same position (board, hands, side) for the fourth time is a
    /// draw, except that a side that gave check with every one of its moves since the first of the
    /// four occurrences loses.
    pub fn game_repetition(&self) -> GameRepetition {
        let st = self.state();
        let key = st.key();
        let len = self.states.len();
        let mut seen = 1;
        let mut i = 4;
        while i < len {
            if self.states[len - 1 - i].key() == key {
                seen += 1;
                if seen == 4 {
                    let us = self.side_to_move();
                    if st.continuous_check[(!us).index()] as usize >= i {
                        return GameRepetition::PerpetualCheckBy(!us);
                    }
                    if st.continuous_check[us.index()] as usize >= i {
                        return GameRepetition::PerpetualCheckBy(us);
                    }
                    return GameRepetition::Draw;
                }
            }
            i += 2;
        }
        GameRepetition::None
    }

    /// Declaration points of `c`: 5 per bishop/rook (promoted or not), 1 per other piece, counting
    /// `c`'s pieces in the enemy camp (king excluded) and in hand. Also returns how many pieces
    /// (king excluded) stand in the camp.
    pub fn declaration_points(&self, c: Color) -> (u32, u32) {
        let camp = match c {
            Color::Black => crate::Bitboard::ranks(1, 3),
            Color::White => crate::Bitboard::ranks(7, 9),
        };
        let in_camp = self.pieces(c).and_not(self.pieces_of_type(PieceType::KING)) & camp;
        let big = self.pieces_of_type(PieceType::BISHOP)
            | self.pieces_of_type(PieceType::ROOK)
            | self.pieces_of_type(PieceType::HORSE)
            | self.pieces_of_type(PieceType::DRAGON);
        let n_big = (in_camp & big).count();
        let n = in_camp.count();
        let h = self.hand(c);
        let hand_big = h.count(PieceType::BISHOP) + h.count(PieceType::ROOK);
        let hand_small = h.total() - hand_big;
        (5 * (n_big + hand_big) + (n - n_big) + hand_small, n)
    }

    /// Whether the side to move may declare a win by entering king under `rule`: its king in the
    /// enemy camp, not in check, at least 10 other pieces in the camp, and enough points.
    pub fn can_declare_win(&self, rule: DeclarationRule) -> bool {
        let us = self.side_to_move();
        let Some(k) = self.king_square(us) else {
            return false;
        };
        if self.in_check() || !k.in_promotion_zone(us) {
            return false;
        }
        let (points, in_camp) = self.declaration_points(us);
        let needed = match (rule, us) {
            (DeclarationRule::Csa27, Color::Black) => 28,
            (DeclarationRule::Csa27, Color::White) => 27,
            (DeclarationRule::Points24, _) => 31,
        };
        in_camp >= 10 && points >= needed
    }
}
