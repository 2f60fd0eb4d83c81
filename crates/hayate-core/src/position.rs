//! The position: board, hands, side to move, incremental keys and the per-ply state stack.

use crate::attacks::{
    WITHIN_2, WITHIN_4, between, bishop_attacks, gold_attacks, king_attacks, knight_attacks,
    lance_attacks, pawn_attacks, pseudo_attacks, rook_attacks, silver_attacks,
};
use crate::{
    Bitboard, Color, Hand, Move, Piece, PieceType, Square, attacks, line_through, zobrist,
};

/// The slot 0..8 of `t`, a square next to `centre`, in file-major index order: its index
/// difference (±1, ±8, ±9, ±10 on the file-major board) mapped to 0..8.
#[inline(always)]
pub fn next_to_slot(centre: Square, t: Square) -> usize {
    const SLOT: [u8; 21] = [
        0, 1, 2, 8, 8, 8, 8, 8, 8, 3, 8, 4, 8, 8, 8, 8, 8, 8, 5, 6, 7,
    ];
    usize::from(SLOT[t.index() + 10 - centre.index()])
}

/// One colour's attacks on the squares next to a centre square (see
/// [`Position::attackers_next_to`]).
#[derive(Clone, Copy, Debug)]
pub struct NextTo {
    centre: Square,
    /// The squares next to the centre that are attacked with the centre square emptied.
    pub covered: Bitboard,
    reach: [Bitboard; 8],
}

impl NextTo {
    /// The pieces that attack `t`, a square next to the centre (as [`Position::attackers_to`]
    /// on the same occupancy); empty for any other square.
    #[inline(always)]
    pub fn attackers(&self, t: Square) -> Bitboard {
        if king_attacks(self.centre).contains(t) {
            self.reach[next_to_slot(self.centre, t)]
        } else {
            Bitboard::EMPTY
        }
    }
}

/// What `do_move` records so that `undo_move` and the rules can look back.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    /// Zobrist key of the pieces on the board and the side to move.
    pub board_key: u64,
    /// Additive key of both hands.
    pub hand_key: u64,
    /// The hand of the side to move (for superior/inferior repetition).
    pub hand_of_side_to_move: Hand,
    /// Enemy pieces giving check to the side to move.
    pub checkers: Bitboard,
    /// `blockers[c]`: pieces of either colour that alone stand between `c`'s king and an enemy slider.
    pub blockers: [Bitboard; 2],
    /// The piece captured by the move that led here (EMPTY if none).
    pub captured: Piece,
    /// `continuous_check[c]`: plies over which every move of `c` gave check (2 per move).
    pub continuous_check: [u16; 2],
    /// Plies since the root or the last null move (repetition look-back limit).
    pub plies_from_null: u16,
    /// The move that led here (NONE at the root).
    pub last_move: Move,
}

impl StateInfo {
    /// The full key: board and hands.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.board_key.wrapping_add(self.hand_key)
    }
}

/// A shogi position with its history since it was set up.
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Piece; 81],
    /// Both colours' pieces by type, indexed by `PieceType` code.
    pub(crate) by_type: [Bitboard; PieceType::NUM],
    /// Gold and the four promoted small pieces (both colours): they share the gold's steps.
    pub(crate) golds: Bitboard,
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    /// The SFEN move number of the root.
    pub(crate) start_ply: u32,
    /// 81 when the side has no king (mate problems leave out the attacker's king).
    pub(crate) king_sq: [u8; 2],
    pub(crate) states: Vec<StateInfo>,
}

/// No king on the board.
const NO_KING: u8 = 81;

impl Position {
    /// An empty board, Black to move, no history. Used by the SFEN parser.
    pub(crate) fn empty() -> Position {
        let mut states = Vec::with_capacity(256);
        states.push(StateInfo {
            board_key: 0,
            hand_key: 0,
            hand_of_side_to_move: Hand::EMPTY,
            checkers: Bitboard::EMPTY,
            blockers: [Bitboard::EMPTY; 2],
            captured: Piece::EMPTY,
            continuous_check: [0; 2],
            plies_from_null: 0,
            last_move: Move::NONE,
        });
        Position {
            board: [Piece::EMPTY; 81],
            by_type: [Bitboard::EMPTY; PieceType::NUM],
            golds: Bitboard::EMPTY,
            by_color: [Bitboard::EMPTY; 2],
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            start_ply: 1,
            king_sq: [NO_KING; 2],
            states,
        }
    }

    /// The initial position (平手).
    pub fn startpos() -> Position {
        Position::from_sfen(crate::sfen::STARTPOS).expect("the start position is valid")
    }

    /// The current position as a new root: the same board, hands, side to move and move number,
    /// with no history (what `from_sfen(&to_sfen())` gives, without going through text). Solvers
    /// and data writers use it when the moves that led here must not count (repetition).
    pub fn without_history(&self) -> Position {
        let st = *self.state();
        let mut states = Vec::with_capacity(256);
        states.push(StateInfo {
            captured: Piece::EMPTY,
            continuous_check: [0; 2],
            plies_from_null: 0,
            last_move: Move::NONE,
            ..st
        });
        Position {
            board: self.board,
            by_type: self.by_type,
            golds: self.golds,
            by_color: self.by_color,
            hands: self.hands,
            side: self.side,
            start_ply: self.game_ply(),
            king_sq: self.king_sq,
            states,
        }
    }

    // ----- queries -----

    /// The piece on `sq` (EMPTY if none).
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// The whole board, indexed by square.
    #[inline(always)]
    pub fn board(&self) -> &[Piece; 81] {
        &self.board
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// `c`'s pieces.
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Pieces of type `pt`, both colours.
    #[inline(always)]
    pub fn pieces_of_type(&self, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()]
    }

    /// `c`'s pieces of type `pt`.
    #[inline(always)]
    pub fn pieces_of(&self, c: Color, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()] & self.by_color[c.index()]
    }

    /// Gold-like pieces (gold, +P, +L, +N, +S) of both colours.
    #[inline(always)]
    pub fn golds(&self) -> Bitboard {
        self.golds
    }

    /// `c`'s hand.
    #[inline(always)]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// `c`'s king square, if `c` has a king.
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        Square::try_new(self.king_sq[c.index()])
    }

    /// The current state (keys, checkers, pins).
    #[inline(always)]
    pub fn state(&self) -> &StateInfo {
        // The stack always holds the root state.
        &self.states[self.states.len() - 1]
    }

    /// The states from the root to now (index 0 = root).
    #[inline(always)]
    pub fn states(&self) -> &[StateInfo] {
        &self.states
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.state().checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.state().checkers.is_nonempty()
    }

    /// `c`'s pieces pinned to `c`'s king.
    #[inline(always)]
    pub fn pinned(&self, c: Color) -> Bitboard {
        self.state().blockers[c.index()] & self.by_color[c.index()]
    }

    /// The full Zobrist key (board, side and hands).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.state().key()
    }

    /// The board-and-side key without hands.
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.state().board_key
    }

    /// The hand key.
    #[inline(always)]
    pub fn hand_key(&self) -> u64 {
        self.state().hand_key
    }

    /// The SFEN move number of the current position (1 at the start of a game).
    #[inline(always)]
    pub fn game_ply(&self) -> u32 {
        self.start_ply + (self.states.len() as u32 - 1)
    }

    /// Number of moves made since the position was set up.
    #[inline(always)]
    pub fn moves_since_setup(&self) -> usize {
        self.states.len() - 1
    }

    /// The move that led to the current position (NONE at the root).
    #[inline(always)]
    pub fn last_move(&self) -> Move {
        self.state().last_move
    }

    /// The pieces of colour `c` attacking `sq`, given occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let attackers = self.step_attackers(!c, sq) | self.king_steps_to(sq);
        (attackers & self.by_color[c.index()]) | self.slider_attackers_to(c, sq, occ)
    }

    /// The pawns, knights, silvers and gold-movers of either colour that would attack `sq` if
    /// they were not `them`'s (the steps of `them`'s pieces seen from `sq`).
    #[inline(always)]
    fn step_attackers(&self, them: Color, sq: Square) -> Bitboard {
        let bt = &self.by_type;
        (pawn_attacks(them, sq) & bt[PieceType::PAWN.index()])
            | (knight_attacks(them, sq) & bt[PieceType::KNIGHT.index()])
            | (silver_attacks(them, sq) & bt[PieceType::SILVER.index()])
            | (gold_attacks(them, sq) & self.golds)
    }

    /// Kings, horses and dragons of either colour one step from `sq`.
    #[inline(always)]
    fn king_steps_to(&self, sq: Square) -> Bitboard {
        let bt = &self.by_type;
        king_attacks(sq)
            & (bt[PieceType::KING.index()]
                | bt[PieceType::HORSE.index()]
                | bt[PieceType::DRAGON.index()])
    }

    /// Whether any piece of colour `c` attacks `sq` given occupancy `occ`.
    #[inline]
    pub fn is_attacked_by(&self, c: Color, sq: Square, occ: Bitboard) -> bool {
        // Cheap step attackers first, sliders only when those fail (king-move legality calls
        // this up to eight times per position).
        let mine = self.by_color[c.index()];
        let steps = self.step_attackers(!c, sq) | self.king_steps_to(sq);
        if (steps & mine).is_nonempty() {
            return true;
        }
        self.slider_attackers_to(c, sq, occ).is_nonempty()
    }

    /// `c`'s attacks on the squares next to `sq` (a king's steps), in one pass over the pieces
    /// that can reach them (stepping pieces within two squares, knights within four, every
    /// slider) instead of a query per square. A mate search asks this of the squares around
    /// the enemy king: [`NextTo::covered`] are the squares that king could not step to,
    /// [`NextTo::attackers`] the pieces that could move to each.
    #[inline]
    pub fn attackers_next_to(&self, c: Color, sq: Square, occ: Bitboard) -> NextTo {
        let bt = &self.by_type;
        let mine = self.by_color[c.index()];
        let sliders = (bt[PieceType::LANCE.index()]
            | bt[PieceType::BISHOP.index()]
            | bt[PieceType::ROOK.index()]
            | bt[PieceType::HORSE.index()]
            | bt[PieceType::DRAGON.index()])
            & mine;
        let near = (mine & Bitboard(WITHIN_2[sq.index()]))
            | (bt[PieceType::KNIGHT.index()] & mine & Bitboard(WITHIN_4[sq.index()]));
        let ring = king_attacks(sq);
        let mut next = NextTo {
            centre: sq,
            covered: Bitboard::EMPTY,
            reach: [Bitboard::EMPTY; 8],
        };
        for s in near | sliders {
            let pt = self.piece_on(s).piece_type();
            let a = attacks(c, pt, s, occ);
            let hit = a & ring;
            // A slider that reaches `sq` also covers the square behind it.
            next.covered |= if a.contains(sq) && sliders.contains(s) {
                attacks(c, pt, s, occ.and_not(Bitboard::from_square(sq))) & ring
            } else {
                hit
            };
            for t in hit {
                next.reach[next_to_slot(sq, t)] |= Bitboard::from_square(s);
            }
        }
        next
    }

    /// `c`'s sliders (lance, bishop, rook, horse, dragon) that attack `sq` given `occ`.
    /// Each slider kind is looked at only if one stands on a line through `sq` at all: most
    /// squares are seen by no slider, and the empty-board test is one table lookup.
    #[inline]
    pub fn slider_attackers_to(&self, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let bt = &self.by_type;
        let mine = self.by_color[c.index()];
        let mut r = Bitboard::EMPTY;
        let diag = (bt[PieceType::BISHOP.index()] | bt[PieceType::HORSE.index()]) & mine;
        if (pseudo_attacks(c, PieceType::BISHOP, sq) & diag).is_nonempty() {
            r |= bishop_attacks(sq, occ) & diag;
        }
        let orth = (bt[PieceType::ROOK.index()] | bt[PieceType::DRAGON.index()]) & mine;
        if (pseudo_attacks(c, PieceType::ROOK, sq) & orth).is_nonempty() {
            r |= rook_attacks(sq, occ) & orth;
        }
        let lances = bt[PieceType::LANCE.index()] & mine;
        if (pseudo_attacks(!c, PieceType::LANCE, sq) & lances).is_nonempty() {
            r |= lance_attacks(!c, sq, occ) & lances;
        }
        r
    }

    /// The pieces of both colours that attack `sq` given occupancy `occ` (Stockfish's
    /// `attackers_to`): [`Position::attackers_to`] for Black and White in one pass, the slider
    /// rays from `sq` computed once for both.
    #[inline]
    pub fn attackers_to_both(&self, sq: Square, occ: Bitboard) -> Bitboard {
        (self.step_attackers(Color::White, sq) & self.by_color[Color::Black.index()])
            | (self.step_attackers(Color::Black, sq) & self.by_color[Color::White.index()])
            | self.king_steps_to(sq)
            | self.sliders_to(sq, occ)
    }

    /// The sliders of both colours that attack `sq` given `occ`: [`Position::slider_attackers_to`]
    /// for Black and White in one pass (each colour's lances look their own way).
    #[inline]
    pub fn sliders_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let bt = &self.by_type;
        let mut r = Bitboard::EMPTY;
        let diag = bt[PieceType::BISHOP.index()] | bt[PieceType::HORSE.index()];
        if (pseudo_attacks(Color::Black, PieceType::BISHOP, sq) & diag).is_nonempty() {
            r |= bishop_attacks(sq, occ) & diag;
        }
        let orth = bt[PieceType::ROOK.index()] | bt[PieceType::DRAGON.index()];
        if (pseudo_attacks(Color::Black, PieceType::ROOK, sq) & orth).is_nonempty() {
            r |= rook_attacks(sq, occ) & orth;
        }
        for c in Color::ALL {
            let lances = bt[PieceType::LANCE.index()] & self.by_color[c.index()];
            if (pseudo_attacks(!c, PieceType::LANCE, sq) & lances).is_nonempty() {
                r |= lance_attacks(!c, sq, occ) & lances;
            }
        }
        r
    }

    /// Number of pieces of colour `c` (king included) attacking `sq`.
    #[inline]
    pub fn attack_count(&self, c: Color, sq: Square) -> u32 {
        self.attackers_to(c, sq, self.occupied()).count()
    }

    // ----- making moves -----

    #[inline(always)]
    fn put_piece(&mut self, pc: Piece, sq: Square) {
        self.board[sq.index()] = pc;
        let b = Bitboard::from_square(sq);
        self.by_type[pc.piece_type().index()] |= b;
        self.by_color[pc.color().index()] |= b;
        if pc.piece_type().is_gold_like() {
            self.golds |= b;
        }
    }

    #[inline(always)]
    fn remove_piece(&mut self, pc: Piece, sq: Square) {
        self.board[sq.index()] = Piece::EMPTY;
        let b = Bitboard::from_square(sq);
        self.by_type[pc.piece_type().index()] ^= b;
        self.by_color[pc.color().index()] ^= b;
        if pc.piece_type().is_gold_like() {
            self.golds ^= b;
        }
    }

    /// Places a piece during setup (keys are computed afterwards by `finish_setup`).
    pub(crate) fn setup_put(&mut self, pc: Piece, sq: Square) {
        self.put_piece(pc, sq);
        if pc.piece_type() == PieceType::KING {
            self.king_sq[pc.color().index()] = sq.raw();
        }
    }

    /// Computes keys, checkers and pins of the root from scratch.
    pub(crate) fn finish_setup(&mut self) {
        let (bk, hk) = self.compute_keys();
        let side = self.side;
        let mut st = self.states[0];
        st.board_key = bk;
        st.hand_key = hk;
        st.hand_of_side_to_move = self.hands[side.index()];
        self.states.clear();
        self.states.push(st);
        let (checkers, blockers) = self.compute_check_info();
        let st = &mut self.states[0];
        st.checkers = checkers;
        st.blockers = blockers;
    }

    /// Board and hand keys computed from scratch (for setup and for tests of the incremental keys).
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut bk = 0u64;
        for sq in Square::all() {
            let pc = self.board[sq.index()];
            if !pc.is_empty() {
                bk ^= zobrist::psq(pc, sq);
            }
        }
        if self.side == Color::White {
            bk ^= zobrist::side();
        }
        let mut hk = 0u64;
        for c in Color::ALL {
            for pt in PieceType::HAND_TYPES {
                hk = hk.wrapping_add(
                    zobrist::hand(c, pt).wrapping_mul(self.hands[c.index()].count(pt) as u64),
                );
            }
        }
        (bk, hk)
    }

    fn blockers_for_king(&self, kc: Color) -> Bitboard {
        let Some(ksq) = self.king_square(kc) else {
            return Bitboard::EMPTY;
        };
        let bt = &self.by_type;
        let snipers = ((pseudo_attacks(kc, PieceType::LANCE, ksq) & bt[PieceType::LANCE.index()])
            | (pseudo_attacks(kc, PieceType::BISHOP, ksq)
                & (bt[PieceType::BISHOP.index()] | bt[PieceType::HORSE.index()]))
            | (pseudo_attacks(kc, PieceType::ROOK, ksq)
                & (bt[PieceType::ROOK.index()] | bt[PieceType::DRAGON.index()])))
            & self.by_color[(!kc).index()];
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = between(ksq, s) & occ;
            if b.is_nonempty() && !b.has_more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    fn compute_check_info(&self) -> (Bitboard, [Bitboard; 2]) {
        let us = self.side;
        let checkers = match self.king_square(us) {
            Some(k) => self.attackers_to(!us, k, self.occupied()),
            None => Bitboard::EMPTY,
        };
        (
            checkers,
            [
                self.blockers_for_king(Color::Black),
                self.blockers_for_king(Color::White),
            ],
        )
    }

    /// The [`Position::key`] after the legal move `m`, without playing it: a search prefetches
    /// the transposition-table entry with it before the move's own work begins.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let st = self.state();
        let mut board_key = st.board_key ^ zobrist::side();
        let mut hand_key = st.hand_key;
        let to = m.to();
        if m.is_drop() {
            let pt = m.dropped_type();
            hand_key = hand_key.wrapping_sub(zobrist::hand(us, pt));
            board_key ^= zobrist::psq(Piece::new(us, pt), to);
        } else {
            let from = m.from();
            let pc = self.board[from.index()];
            let captured = self.board[to.index()];
            if !captured.is_empty() {
                board_key ^= zobrist::psq(captured, to);
                let raw = captured.piece_type().unpromoted();
                hand_key = hand_key.wrapping_add(zobrist::hand(us, raw));
            }
            let moved = if m.is_promotion() { pc.promoted() } else { pc };
            board_key ^= zobrist::psq(pc, from) ^ zobrist::psq(moved, to);
        }
        board_key.wrapping_add(hand_key)
    }

    /// Plays `m`, which must be legal in this position (generated here, or checked by
    /// [`Position::is_legal`]). The piece fields of `m` are not trusted: the board is read.
    pub fn do_move(&mut self, m: Move) {
        let us = self.side;
        let them = !us;
        let prev = *self.state();
        let mut board_key = prev.board_key ^ zobrist::side();
        let mut hand_key = prev.hand_key;
        let to = m.to();
        let mut captured = Piece::EMPTY;
        if m.is_drop() {
            let pt = m.dropped_type();
            let pc = Piece::new(us, pt);
            self.hands[us.index()].sub(pt);
            hand_key = hand_key.wrapping_sub(zobrist::hand(us, pt));
            self.put_piece(pc, to);
            board_key ^= zobrist::psq(pc, to);
        } else {
            let from = m.from();
            let pc = self.board[from.index()];
            captured = self.board[to.index()];
            if !captured.is_empty() {
                self.remove_piece(captured, to);
                board_key ^= zobrist::psq(captured, to);
                let raw = captured.piece_type().unpromoted();
                self.hands[us.index()].add(raw);
                hand_key = hand_key.wrapping_add(zobrist::hand(us, raw));
            }
            self.remove_piece(pc, from);
            board_key ^= zobrist::psq(pc, from);
            let moved = if m.is_promotion() { pc.promoted() } else { pc };
            self.put_piece(moved, to);
            board_key ^= zobrist::psq(moved, to);
            if pc.piece_type() == PieceType::KING {
                self.king_sq[us.index()] = to.raw();
            }
        }
        self.side = them;
        let checkers = match self.king_square(them) {
            Some(k) => self.attackers_to(us, k, self.occupied()),
            None => Bitboard::EMPTY,
        };
        let mut continuous_check = prev.continuous_check;
        continuous_check[us.index()] = if checkers.is_nonempty() {
            prev.continuous_check[us.index()] + 2
        } else {
            0
        };
        let blockers = [
            self.blockers_for_king(Color::Black),
            self.blockers_for_king(Color::White),
        ];
        self.states.push(StateInfo {
            board_key,
            hand_key,
            hand_of_side_to_move: self.hands[them.index()],
            checkers,
            blockers,
            captured,
            continuous_check,
            plies_from_null: prev.plies_from_null.saturating_add(1),
            last_move: m,
        });
    }

    /// Takes back `m`, which must be the last move played.
    pub fn undo_move(&mut self, m: Move) {
        let Some(st) = self.states.pop() else { return };
        debug_assert!(st.last_move.same(m));
        self.side = !self.side;
        let us = self.side;
        let to = m.to();
        if m.is_drop() {
            let pt = m.dropped_type();
            self.remove_piece(Piece::new(us, pt), to);
            self.hands[us.index()].add(pt);
        } else {
            let from = m.from();
            let moved = self.board[to.index()];
            self.remove_piece(moved, to);
            let pc = if m.is_promotion() {
                Piece::new(us, moved.piece_type().unpromoted())
            } else {
                moved
            };
            self.put_piece(pc, from);
            if pc.piece_type() == PieceType::KING {
                self.king_sq[us.index()] = from.raw();
            }
            if !st.captured.is_empty() {
                self.put_piece(st.captured, to);
                self.hands[us.index()].sub(st.captured.piece_type().unpromoted());
            }
        }
    }

    /// Passes the turn (for null-move pruning). Must not be called when in check.
    pub fn do_null_move(&mut self) {
        let prev = *self.state();
        self.side = !self.side;
        let side = self.side;
        let mut st = prev;
        st.board_key ^= zobrist::side();
        st.hand_of_side_to_move = self.hands[side.index()];
        st.checkers = Bitboard::EMPTY;
        st.captured = Piece::EMPTY;
        st.plies_from_null = 0;
        st.last_move = Move::NULL;
        self.states.push(st);
    }

    /// Takes back a null move.
    pub fn undo_null_move(&mut self) {
        self.states.pop();
        self.side = !self.side;
    }

    /// Whether `m` (assumed legal here) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let Some(ksq) = self.king_square(!us) else {
            return false;
        };
        let to = m.to();
        if m.is_drop() {
            return attacks(us, m.dropped_type(), to, self.occupied()).contains(ksq);
        }
        let from = m.from();
        let pc = self.board[from.index()];
        let pt = if m.is_promotion() {
            pc.piece_type().promoted()
        } else {
            pc.piece_type()
        };
        let occ = (self.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
        if attacks(us, pt, to, occ).contains(ksq) {
            return true;
        }
        // Discovered check: `from` shielded the enemy king from one of our sliders.
        self.state().blockers[(!us).index()].contains(from) && !line_through(ksq, from).contains(to)
    }

    /// The piece types of `c` on the board plus in hand, counted per unpromoted type (for checks).
    pub(crate) fn material_counts(&self) -> [u32; 9] {
        let mut n = [0u32; 9];
        for sq in Square::all() {
            let pc = self.board[sq.index()];
            if !pc.is_empty() {
                n[pc.piece_type().unpromoted().index()] += 1;
            }
        }
        for c in Color::ALL {
            for pt in PieceType::HAND_TYPES {
                n[pt.index()] += self.hands[c.index()].count(pt);
            }
        }
        n
    }
}

impl PartialEq for Position {
    /// Same board, hands and side to move (history is ignored).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}
