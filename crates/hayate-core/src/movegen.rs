//! Legal move generation: all legal moves (non-promotions included), and the stages a search
//! wants (captures and promotions, quiets, evasions, checks).
//!
//! Generation is fully legal: pinned pieces stay on their pin line, the king never steps into
//! an attacked square, drops respect nifu and dead-piece ranks, and a pawn drop that mates is
//! left out (打ち歩詰め).

use crate::attacks::{between, king_attacks, line_through, pawn_attacks};
use crate::{Bitboard, Color, Move, MoveList, Piece, PieceType, Position, Square, attacks};

/// Ranks where a piece of type `pt` and colour `c` could never move again (dead-piece ranks):
/// no drop or non-promotion may end there.
#[inline(always)]
pub fn dead_ranks(c: Color, pt: PieceType) -> Bitboard {
    const B1: Bitboard = Bitboard::rank(1);
    const B12: Bitboard = Bitboard::ranks(1, 2);
    const W1: Bitboard = Bitboard::rank(9);
    const W12: Bitboard = Bitboard::ranks(8, 9);
    match (c, pt.raw()) {
        (Color::Black, 1 | 2) => B1,
        (Color::Black, 3) => B12,
        (Color::White, 1 | 2) => W1,
        (Color::White, 3) => W12,
        _ => Bitboard::EMPTY,
    }
}

/// The promotion zone of `c` (the far three ranks).
#[inline(always)]
pub fn promotion_zone(c: Color) -> Bitboard {
    const ZONE: [Bitboard; 2] = [Bitboard::ranks(1, 3), Bitboard::ranks(7, 9)];
    ZONE[c.index()]
}

const ALL: u8 = 0;
const NOISY: u8 = 1;
const QUIET: u8 = 2;

/// Which moves a generator call produces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
    /// Every legal move.
    Legal,
    /// Captures (all promotion variants) and non-capturing promotions. Not for positions in check.
    CapturesAndPromotions,
    /// Everything `CapturesAndPromotions` leaves out: quiet board moves and drops. Not in check.
    Quiets,
    /// Legal moves when in check.
    Evasions,
    /// Legal moves that give check.
    Checks,
}

impl Position {
    /// Appends all legal moves to `list`.
    pub fn generate_legal(&self, list: &mut MoveList) {
        if self.in_check() {
            self.generate_evasions(list);
        } else {
            let us = self.side;
            let target = !self.by_color[us.index()];
            self.generate_piece_moves_mode::<ALL>(list, target);
            self.generate_king_moves(list);
            self.generate_drops(list, !self.occupied());
        }
    }

    /// The number of legal moves, counted without building them (perft's bulk counting):
    /// equal to `legal_moves().len()`.
    pub fn count_legal(&self) -> usize {
        let us = self.side;
        let occ = self.occupied();
        let checkers = self.checkers();
        let mut n = 0usize;
        // King moves.
        if let Some(ksq) = self.king_square(us) {
            let occ_k = occ ^ Bitboard::from_square(ksq);
            for to in king_attacks(ksq) & !self.by_color[us.index()] {
                if !self.is_attacked_by(!us, to, occ_k) {
                    n += 1;
                }
            }
        }
        if checkers.has_more_than_one() {
            return n;
        }
        let (target, drop_target) = match (checkers.lsb(), self.king_square(us)) {
            (Some(c), Some(k)) => {
                let block = between(k, c);
                (block | Bitboard::from_square(c), block)
            }
            _ => (!self.by_color[us.index()], !occ),
        };
        // Piece moves: one per target, plus a second where both promoting and not are legal.
        // Unpinned pieces are counted kind by kind (no per-piece dispatch); pinned ones below.
        let zone = promotion_zone(us);
        let bt = &self.by_type;
        let mine = self.by_color[us.index()];
        let pinned = self.pinned(us);
        let free = mine.and_not(pinned);
        let cnt = |b: Bitboard| b.count() as usize;
        // Pawns move one square forward: a shift (no pawn stands on its last rank to wrap).
        let pawns = bt[PieceType::PAWN.index()] & free;
        let pawn_tos = match us {
            Color::Black => Bitboard(pawns.0 >> 1),
            Color::White => Bitboard(pawns.0 << 1),
        } & target;
        n += cnt(pawn_tos & zone) + cnt(pawn_tos.and_not(dead_ranks(us, PieceType::PAWN)));
        for from in bt[PieceType::LANCE.index()] & free {
            let tos = crate::attacks::lance_attacks(us, from, occ) & target;
            n += cnt(tos & zone) + cnt(tos.and_not(dead_ranks(us, PieceType::LANCE)));
        }
        for from in bt[PieceType::KNIGHT.index()] & free {
            let tos = crate::attacks::knight_attacks(us, from) & target;
            n += cnt(tos & zone) + cnt(tos.and_not(dead_ranks(us, PieceType::KNIGHT)));
        }
        for from in bt[PieceType::SILVER.index()] & free {
            let tos = crate::attacks::silver_attacks(us, from) & target;
            n += cnt(tos)
                + if zone.contains(from) {
                    cnt(tos)
                } else {
                    cnt(tos & zone)
                };
        }
        for from in self.golds & free {
            n += cnt(crate::attacks::gold_attacks(us, from) & target);
        }
        for from in bt[PieceType::BISHOP.index()] & free {
            let tos = crate::attacks::bishop_attacks(from, occ) & target;
            n += cnt(tos)
                + if zone.contains(from) {
                    cnt(tos)
                } else {
                    cnt(tos & zone)
                };
        }
        for from in bt[PieceType::ROOK.index()] & free {
            let tos = crate::attacks::rook_attacks(from, occ) & target;
            n += cnt(tos)
                + if zone.contains(from) {
                    cnt(tos)
                } else {
                    cnt(tos & zone)
                };
        }
        for from in bt[PieceType::HORSE.index()] & free {
            n += cnt((crate::attacks::bishop_attacks(from, occ) | king_attacks(from)) & target);
        }
        for from in bt[PieceType::DRAGON.index()] & free {
            n += cnt((crate::attacks::rook_attacks(from, occ) | king_attacks(from)) & target);
        }
        if let Some(k) = self.king_square(us) {
            let mut pinned_pieces = pinned.and_not(bt[PieceType::KING.index()]);
            while let Some(from) = pinned_pieces.pop() {
                let pt = self.board[from.index()].piece_type();
                let tos = attacks(us, pt, from, occ) & target & line_through(k, from);
                if pt.can_promote() {
                    let promotable = if zone.contains(from) { tos } else { tos & zone };
                    n += cnt(promotable) + cnt(tos.and_not(dead_ranks(us, pt)));
                } else {
                    n += cnt(tos);
                }
            }
        }
        // Drops.
        let hand = self.hands[us.index()];
        if hand.is_empty() || drop_target.is_empty() {
            return n;
        }
        for pt in PieceType::HAND_TYPES {
            if !hand.has(pt) {
                continue;
            }
            let mut tos = drop_target.and_not(dead_ranks(us, pt));
            if pt == PieceType::PAWN {
                tos = tos.and_not(self.pawn_files(us));
                if let Some(k) = self.king_square(!us)
                    && let Some(sq) = (pawn_attacks(!us, k) & tos).lsb()
                    && self.is_pawn_drop_mate(sq)
                {
                    tos.clear(sq);
                }
            }
            n += tos.count() as usize;
        }
        n
    }

    /// Appends the moves of one stage to `list` (see [`Stage`]).
    pub fn generate(&self, stage: Stage, list: &mut MoveList) {
        match stage {
            Stage::Legal => self.generate_legal(list),
            Stage::Evasions => {
                if self.in_check() {
                    self.generate_evasions(list)
                }
            }
            Stage::CapturesAndPromotions => {
                if !self.in_check() {
                    let them = self.by_color[(!self.side).index()];
                    self.generate_piece_moves_mode::<NOISY>(list, them | !self.occupied());
                    self.generate_king_moves_to(list, them);
                }
            }
            Stage::Quiets => {
                if !self.in_check() {
                    self.generate_piece_moves_mode::<QUIET>(list, !self.occupied());
                    self.generate_king_moves_to(list, !self.occupied());
                    self.generate_drops(list, !self.occupied());
                }
            }
            Stage::Checks => crate::checks::generate_checks(self, list),
        }
    }

    /// The legal moves as a new list.
    pub fn legal_moves(&self) -> MoveList {
        let mut l = MoveList::new();
        self.generate_legal(&mut l);
        l
    }

    /// Whether `m` is legal here. Safe for moves from untrusted sources (GUIs, files, TT).
    pub fn is_legal(&self, m: Move) -> bool {
        if !m.is_some() {
            return false;
        }
        self.legal_moves().contains(m)
    }

    /// The legal move whose 16-bit form equals `m`'s, with its piece fields filled in.
    pub fn to_move(&self, m16: crate::Move16) -> Option<Move> {
        let m = Move::from_raw(m16.0 as u32);
        self.legal_moves().iter().copied().find(|x| x.same(m))
    }

    /// The legal move with 16-bit form `m16`, found without generating moves: for TT and killer
    /// moves in search. Agrees with [`Position::to_move`] on every input.
    pub fn to_move_fast(&self, m16: crate::Move16) -> Option<Move> {
        let us = self.side;
        let raw = Move::from_raw(m16.0 as u32);
        if !raw.is_some() {
            return None;
        }
        let to = Square::try_new((m16.0 & 0x7f) as u8)?;
        let occ = self.occupied();
        let checkers = self.checkers();
        let ksq = self.king_square(us);
        let target = self.board[to.index()];
        if !target.is_empty() && target.color() == us {
            return None;
        }
        if raw.is_drop() {
            if m16.0 & (1 << 15) != 0 || !target.is_empty() {
                return None;
            }
            let pt = PieceType::from_u8(((m16.0 >> 7) & 0x7f) as u8)?;
            if !pt.is_hand_type()
                || !self.hands[us.index()].has(pt)
                || dead_ranks(us, pt).contains(to)
            {
                return None;
            }
            if let (Some(c), Some(k)) = (checkers.lsb(), ksq)
                && (checkers.has_more_than_one() || !between(k, c).contains(to))
            {
                return None;
            }
            if pt == PieceType::PAWN {
                if self.pawn_files(us).contains(to) {
                    return None;
                }
                if let Some(k) = self.king_square(!us)
                    && pawn_attacks(!us, k).contains(to)
                    && self.is_pawn_drop_mate(to)
                {
                    return None;
                }
            }
            return Some(Move::new_drop(Piece::new(us, pt), to));
        }
        let from = Square::try_new(((m16.0 >> 7) & 0x7f) as u8)?;
        let pc = self.board[from.index()];
        if pc.is_empty() || pc.color() != us {
            return None;
        }
        let pt = pc.piece_type();
        if !attacks(us, pt, from, occ).contains(to) {
            return None;
        }
        let promote = m16.0 & (1 << 15) != 0;
        let zone = promotion_zone(us);
        if promote {
            if !pt.can_promote() || !(zone.contains(from) || zone.contains(to)) {
                return None;
            }
        } else if dead_ranks(us, pt).contains(to) {
            return None;
        }
        if pt == PieceType::KING {
            if self.is_attacked_by(!us, to, occ ^ Bitboard::from_square(from)) {
                return None;
            }
        } else if let Some(k) = ksq {
            if let Some(c) = checkers.lsb()
                && (checkers.has_more_than_one()
                    || !(between(k, c) | Bitboard::from_square(c)).contains(to))
            {
                return None;
            }
            if self.pinned(us).contains(from) && !line_through(k, from).contains(to) {
                return None;
            }
        }
        Some(Move::new_board(from, to, promote, pc, target))
    }

    /// Whether the side to move has no legal move (checkmate when in check).
    pub fn has_no_legal_move(&self) -> bool {
        self.legal_moves().is_empty()
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && self.has_no_legal_move()
    }

    /// Pushes the moves of `pc` from `from` to each of `tos`. MODE selects which variants:
    /// ALL every legal variant; NOISY captures (every variant) and the promoting variant of
    /// non-captures; QUIET the non-promoting variant of non-captures.
    #[inline(always)]
    fn push_board_moves_mode<const MODE: u8>(
        &self,
        list: &mut MoveList,
        from: Square,
        pc: Piece,
        mut tos: Bitboard,
    ) {
        let us = self.side;
        let pt = pc.piece_type();
        let enemies = self.by_color[(!us).index()];
        if !pt.can_promote() {
            if MODE == NOISY {
                tos &= enemies;
            }
            for to in tos {
                list.push(Move::new_board(from, to, false, pc, self.board[to.index()]));
            }
            return;
        }
        let zone = promotion_zone(us);
        let promotable = if zone.contains(from) { tos } else { tos & zone };
        let dead = dead_ranks(us, pt);
        if MODE == NOISY {
            tos &= enemies | promotable;
        }
        while let Some(to) = tos.pop() {
            let cap = self.board[to.index()];
            let capture = !cap.is_empty();
            if promotable.contains(to) && MODE != QUIET {
                list.push(Move::new_board(from, to, true, pc, cap));
            }
            if !dead.contains(to) && (MODE == ALL || (MODE == NOISY) == capture) {
                list.push(Move::new_board(from, to, false, pc, cap));
            }
        }
    }

    fn generate_king_moves(&self, list: &mut MoveList) {
        self.generate_king_moves_to(list, !self.by_color[self.side.index()]);
    }

    fn generate_king_moves_to(&self, list: &mut MoveList, target: Bitboard) {
        let us = self.side;
        let Some(ksq) = self.king_square(us) else {
            return;
        };
        let occ = self.occupied() ^ Bitboard::from_square(ksq);
        let pc = Piece::new(us, PieceType::KING);
        for to in king_attacks(ksq) & target {
            if !self.is_attacked_by(!us, to, occ) {
                list.push(Move::new_board(ksq, to, false, pc, self.board[to.index()]));
            }
        }
    }

    /// Piece moves (king excluded) to `target` with the variants of MODE (see `push_board_moves_mode`).
    fn generate_piece_moves_mode<const MODE: u8>(&self, list: &mut MoveList, target: Bitboard) {
        let us = self.side;
        let occ = self.occupied();
        let pinned = self.pinned(us);
        let ksq = self.king_square(us);
        let mut pieces = self.by_color[us.index()] & !self.by_type[PieceType::KING.index()];
        if MODE != ALL {
            // A pawn moves only to the square in front of it (one index lower for Black,
            // higher for White; never off the file, as no pawn stands on its last rank). It
            // has a capture or a promotion only if that square is a target holding an enemy or
            // lying in the zone, a quiet move only if it is a target off its dead rank: the
            // others are passed over without a look.
            let pawns = self.by_type[PieceType::PAWN.index()] & self.by_color[us.index()];
            let fronts = if MODE == NOISY {
                target & (self.by_color[(!us).index()] | promotion_zone(us))
            } else {
                target.and_not(dead_ranks(us, PieceType::PAWN))
            };
            let busy = match us {
                Color::Black => fronts.0 << 1,
                Color::White => fronts.0 >> 1,
            };
            pieces = pieces.and_not(pawns.and_not(Bitboard(busy)));
        }
        while let Some(from) = pieces.pop() {
            let pc = self.board[from.index()];
            let mut tos = attacks(us, pc.piece_type(), from, occ) & target;
            if let (true, Some(k)) = (pinned.contains(from), ksq) {
                tos &= line_through(k, from);
            }
            self.push_board_moves_mode::<MODE>(list, from, pc, tos);
        }
    }

    fn generate_evasions(&self, list: &mut MoveList) {
        self.generate_king_moves(list);
        let checkers = self.checkers();
        if checkers.has_more_than_one() {
            return;
        }
        let us = self.side;
        let (Some(ksq), Some(csq)) = (self.king_square(us), checkers.lsb()) else {
            return;
        };
        let block = between(ksq, csq);
        self.generate_piece_moves_mode::<ALL>(list, block | Bitboard::from_square(csq));
        self.generate_drops(list, block);
    }

    /// Drops of every held type on the squares of `target` (all empty).
    fn generate_drops(&self, list: &mut MoveList, target: Bitboard) {
        let us = self.side;
        let hand = self.hands[us.index()];
        if hand.is_empty() || target.is_empty() {
            return;
        }
        for pt in PieceType::HAND_TYPES {
            if !hand.has(pt) {
                continue;
            }
            let pc = Piece::new(us, pt);
            let mut tos = target.and_not(dead_ranks(us, pt));
            if pt == PieceType::PAWN {
                tos = tos.and_not(self.pawn_files(us));
                // A pawn dropped right in front of the enemy king gives check: it must not mate.
                if let Some(k) = self.king_square(!us) {
                    let check_sq = pawn_attacks(!us, k) & tos;
                    if let Some(sq) = check_sq.lsb()
                        && self.is_pawn_drop_mate(sq)
                    {
                        tos.clear(sq);
                    }
                }
            }
            for to in tos {
                list.push(Move::new_drop(pc, to));
            }
        }
    }

    /// The files holding an unpromoted pawn of `c` (where `c` may not drop another: nifu).
    pub fn pawn_files(&self, c: Color) -> Bitboard {
        let pawns = self.pieces_of(c, PieceType::PAWN).0;
        // Fold each file's 9 bits onto one bit per file, then spread back out.
        let mut files = Bitboard::EMPTY;
        for f in 0..9u32 {
            if (pawns >> (9 * f)) & 0x1ff != 0 {
                files.0 |= 0x1ffu128 << (9 * f);
            }
        }
        files
    }

    /// Whether the side to move dropping a pawn on `to` (in front of the enemy king) mates.
    pub fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side;
        let them = !us;
        let Some(ksq) = self.king_square(them) else {
            return false;
        };
        let occ = self.occupied() | Bitboard::from_square(to);
        // Can a defender other than the king take the pawn without exposing its king?
        let takers = self.attackers_to(them, to, occ) & !self.by_type[PieceType::KING.index()];
        for from in takers {
            let after = occ ^ Bitboard::from_square(from);
            if self.slider_attackers_to(us, ksq, after).is_empty() {
                return false;
            }
        }
        // Can the king step anywhere safe (the pawn's square included, if it is undefended)?
        let occ_without_king = occ ^ Bitboard::from_square(ksq);
        for sq in king_attacks(ksq) & !self.by_color[them.index()] {
            if !self.is_attacked_by(us, sq, occ_without_king) {
                return false;
            }
        }
        true
    }
}
