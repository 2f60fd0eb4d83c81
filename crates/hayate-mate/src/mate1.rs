//! Mate in one ply: each candidate check is tested against the defender's evasions on the board
//! as it would be after the move, without making the move (no state push, no heap).

use crate::futile::{Defence, is_mated};
use crate::ring;
use hayate_core::attacks::{king_attacks, knight_attacks, pseudo_attacks};
use hayate_core::{
    Bitboard, Move, MoveList, Piece, PieceType, Position, Square, attacks, between, dead_ranks,
    drop_check_squares, generate_board_checks, generate_checks, promotion_zone,
};

/// A move of the side to move that checkmates at once, if there is one.
///
/// Pawn-drop mate is never returned (it is illegal). Works without the attacker's king; returns
/// `None` when the side to move has no enemy king to mate.
pub fn mate_in_1(pos: &Position) -> Option<Move> {
    let ksq = pos.king_square(!pos.side_to_move())?;
    let covered = pos
        .attackers_next_to(pos.side_to_move(), ksq, pos.occupied())
        .covered;
    let free = free_of(pos, ksq, covered);
    let mut list = MoveList::new();
    if pos.in_check() {
        generate_checks(pos, &mut list);
        return list.iter().copied().find(|&m| {
            !is_pawn_drop(m) && !keeps_a_free_square(pos, m, ksq, free) && mates(pos, m, ksq)
        });
    }
    // The drops come first, as `generate_checks` lists them: the same first mate.
    if let Some(m) = mating_drop(pos, ksq, free, covered) {
        return Some(m);
    }
    generate_board_checks(pos, &mut list, |m| !keeps_a_free_square(pos, m, ksq, free));
    list.iter().copied().find(|&m| mates(pos, m, ksq))
}

/// A mate in one among the checks that can mate against a defender with anything to interpose:
/// drops, direct checks that land next to the king, and knight checks (distant slider checks
/// and discovered checks are not tried). A search's cheap probe, the set YaneuraOu's
/// `mate_1ply` tries: the board moves are generated from their destinations, and a piece that
/// lands next to the king unguarded (the king takes it) is not considered. Every check when the
/// side to move is in check.
pub fn mate_in_1_near(pos: &Position) -> Option<Move> {
    let ksq = pos.king_square(!pos.side_to_move())?;
    if pos.in_check() {
        return mate_in_1(pos);
    }
    let next = pos.attackers_next_to(pos.side_to_move(), ksq, pos.occupied());
    near_mate(pos, ksq, next.covered, |to| next.attackers(to))
}

/// [`mate_in_1_near`] given `attacked`, the squares the side to move attacks (as a search
/// whose evaluator keeps effect counts has them at hand): the same answer, without the pass
/// that finds which squares next to the king are covered.
pub fn mate_in_1_near_attacked(pos: &Position, attacked: Bitboard) -> Option<Move> {
    let ksq = pos.king_square(!pos.side_to_move())?;
    if pos.in_check() {
        return mate_in_1(pos);
    }
    let (us, occ) = (pos.side_to_move(), pos.occupied());
    near_mate(pos, ksq, attacked & king_attacks(ksq), |to| {
        pos.attackers_to(us, to, occ)
    })
}

/// The drops, then the board moves, of [`mate_in_1_near`]; `covered`: the squares next to the
/// king that we attack, `reach(to)`: our pieces that attack `to` (a square next to the king).
#[inline(always)]
fn near_mate(
    pos: &Position,
    ksq: Square,
    covered: Bitboard,
    reach: impl Fn(Square) -> Bitboard,
) -> Option<Move> {
    let free = free_of(pos, ksq, covered);
    if let Some(m) = mating_drop(pos, ksq, free, covered) {
        return Some(m);
    }
    near_board_mate(pos, ksq, free, covered, reach)
}

/// The board moves of [`mate_in_1_near`]: for each square next to the king, or a knight's
/// check square, the pieces of ours that reach it (`reach`). Next to the king only the squares
/// we cover (`covered`) can a board move land on.
fn near_board_mate(
    pos: &Position,
    ksq: Square,
    free: Bitboard,
    covered: Bitboard,
    reach: impl Fn(Square) -> Bitboard,
) -> Option<Move> {
    let us = pos.side_to_move();
    let them = !us;
    let occ = pos.occupied();
    let ours = pos.pieces(us);
    let our_king = pos.king_square(us);
    let king_bb = our_king.map_or(Bitboard::EMPTY, Bitboard::from_square);
    let pinned = pos.pinned(us);
    let zone = promotion_zone(us);
    let tries = |from: Square, to: Square| -> Option<Move> {
        if let (true, Some(k)) = (pinned.contains(from), our_king)
            && !hayate_core::line_through(k, from).contains(to)
        {
            return None;
        }
        let pc = pos.piece_on(from);
        let pt = pc.piece_type();
        let cap = pos.piece_on(to);
        let occ_wo = occ ^ Bitboard::from_square(from);
        let promote = pt.can_promote() && (zone.contains(from) || zone.contains(to));
        let unpromoted = !dead_ranks(us, pt).contains(to);
        [(promote, true), (unpromoted, false)]
            .into_iter()
            .filter(|&(ok, _)| ok)
            .map(|(_, p)| Move::new_board(from, to, p, pc, cap))
            .find(|&m| {
                let moved = if m.is_promotion() { pt.promoted() } else { pt };
                attacks(us, moved, to, occ_wo).contains(ksq)
                    && !keeps_a_free_square(pos, m, ksq, free)
                    && mates(pos, m, ksq)
            })
    };
    let free8 = ring::ring8(ksq, free);
    for to in (king_attacks(ksq) & covered).and_not(ours) {
        let reach = reach(to);
        let slot = ring::slot(ksq, to);
        for from in reach.and_not(king_bb) {
            // The free squares that the piece cannot cover from `to` (promoted or not) must
            // each be opened to a slider of ours by its leaving `from`.
            let pt = pos.piece_on(from).piece_type();
            let mut need =
                free8 & !(ring::cover(us, pt, slot) | ring::cover(us, pt.promoted(), slot));
            let mut opened = true;
            while need != 0 && opened {
                let s = ring::slot_square(ksq, need.trailing_zeros());
                need &= need - 1;
                opened = hayate_core::line_through(s, from).is_nonempty();
            }
            if !opened {
                continue;
            }
            // Unguarded next to the king, the piece is taken by the king.
            let guarded = (reach ^ Bitboard::from_square(from)).is_nonempty()
                || pos
                    .slider_attackers_to(us, to, occ ^ Bitboard::from_square(from))
                    .and_not(Bitboard::from_square(from))
                    .is_nonempty();
            if guarded && let Some(m) = tries(from, to) {
                return Some(m);
            }
        }
    }
    let knights = pos.pieces_of(us, PieceType::KNIGHT);
    for to in knight_attacks(them, ksq).and_not(ours) {
        for from in knight_attacks(them, to) & knights {
            if let Some(m) = tries(from, to) {
                return Some(m);
            }
        }
    }
    None
}

/// The first drop (in `generate_checks`' order) that mates. Only drops that check and cover
/// every free square are tried: a square `to` covers `f` when the same piece of the defender's
/// colour on `f` would attack `to`, so the candidates are a few bitboard intersections instead
/// of a [`keeps_a_free_square`] test per checking drop. A defender holding a piece that drops
/// anywhere answers every distant check by interposing, so sliders then only try the squares
/// next to the king ([`mates`] would refuse the others). Pawn drops never mate.
///
/// A piece type is skipped at once when no drop of it can cover the free squares: next to the
/// king only from a guarded empty square whose [`ring`] coverage holds them all, from afar only
/// a knight (which covers none of them) or a slider (two of them at most, on its line).
fn mating_drop(pos: &Position, ksq: Square, free: Bitboard, covered: Bitboard) -> Option<Move> {
    let us = pos.side_to_move();
    let them = !us;
    let hand = pos.hand(us);
    if !hand.has_except_pawn() {
        return None;
    }
    let free8 = ring::ring8(ksq, free);
    let guarded_empty8 = ring::ring8(ksq, covered.and_not(pos.occupied()));
    let n_free = free.count();
    let occ_nk = pos.occupied().and_not(Bitboard::from_square(ksq));
    let their_hand = pos.hand(them);
    let interposes = their_hand.has(PieceType::SILVER)
        || their_hand.has(PieceType::GOLD)
        || their_hand.has(PieceType::BISHOP)
        || their_hand.has(PieceType::ROOK);
    // `PieceType::HAND_TYPES` without the pawn, in its order.
    for pt in [
        PieceType::LANCE,
        PieceType::KNIGHT,
        PieceType::SILVER,
        PieceType::BISHOP,
        PieceType::ROOK,
        PieceType::GOLD,
    ] {
        if !hand.has(pt) {
            continue;
        }
        let slider = matches!(pt, PieceType::LANCE | PieceType::BISHOP | PieceType::ROOK);
        let from_afar = match pt {
            PieceType::KNIGHT => n_free == 0,
            _ => slider && !interposes && n_free <= 2,
        };
        if !from_afar && ring::mating_slots(us, pt, free8) & guarded_empty8 == 0 {
            continue;
        }
        let mut tos = if interposes && slider {
            // Next to the king a slider checks as it would on an empty board.
            (pseudo_attacks(them, pt, ksq) & king_attacks(ksq))
                .and_not(pos.occupied())
                .and_not(dead_ranks(us, pt))
        } else {
            drop_check_squares(pos, pt)
        };
        for f in free {
            if tos.is_empty() {
                break;
            }
            tos &= attacks(them, pt, f, occ_nk);
        }
        let pc = Piece::new(us, pt);
        if let Some(m) = tos
            .into_iter()
            .map(|to| Move::new_drop(pc, to))
            .find(|&m| mates(pos, m, ksq))
        {
            return Some(m);
        }
    }
    None
}

/// Pawn drops never mate legally (打ち歩詰め), so they are not tried.
#[inline(always)]
fn is_pawn_drop(m: Move) -> bool {
    m.is_drop() && m.dropped_type() == PieceType::PAWN
}

/// The squares next to the defender king (on `ksq`) that it could step to now: empty or held by
/// the attacker, and attacked by no attacker piece.
fn free_squares(pos: &Position, ksq: Square) -> Bitboard {
    let covered = pos
        .attackers_next_to(pos.side_to_move(), ksq, pos.occupied())
        .covered;
    free_of(pos, ksq, covered)
}

/// [`free_squares`] given the squares next to the king that the attacker covers.
#[inline(always)]
fn free_of(pos: &Position, ksq: Square, covered: Bitboard) -> Bitboard {
    king_attacks(ksq)
        .and_not(pos.pieces(!pos.side_to_move()))
        .and_not(covered)
}

/// A cheap refutation: after `m` some square of `free` is surely still free. A move can only
/// newly attack a square with the moved piece itself or with a slider looking through the
/// square it left, so a free square that the moved piece does not cover and that is not in
/// line with the vacated square stays free. (Occupancy is taken without the king, as for a
/// king step.)
#[inline]
fn keeps_a_free_square(pos: &Position, m: Move, ksq: Square, free: Bitboard) -> bool {
    if free.is_empty() {
        return false;
    }
    let us = pos.side_to_move();
    let to = m.to();
    let to_bb = Bitboard::from_square(to);
    let (occ, moved) = if m.is_drop() {
        (pos.occupied() | to_bb, m.dropped_type())
    } else {
        let from = m.from();
        let pt = pos.piece_on(from).piece_type();
        (
            (pos.occupied() ^ Bitboard::from_square(from)) | to_bb,
            if m.is_promotion() { pt.promoted() } else { pt },
        )
    };
    // Without the king: a slider checking along a line also covers the square behind it.
    let occ = occ.and_not(Bitboard::from_square(ksq));
    let rest = free.and_not(attacks(us, moved, to, occ));
    if rest.is_empty() {
        return false;
    }
    if m.is_drop() {
        return true;
    }
    let from = m.from();
    rest.into_iter()
        .any(|s| hayate_core::line_through(s, from).is_empty())
}

/// A mate in one under `defence`: with [`Defence::NoFutileDrops`] a distant check whose only
/// answers are futile drops also counts.
pub fn mate_in_1_with(pos: &mut Position, defence: Defence) -> Option<Move> {
    mate_in_1_and_checks(pos, defence).0
}

/// A mate in one (as [`mate_in_1_with`]) together with the number of checks available, for
/// searches that want both from one generation.
pub(crate) fn mate_in_1_and_checks(pos: &mut Position, defence: Defence) -> (Option<Move>, usize) {
    let Some(ksq) = pos.king_square(!pos.side_to_move()) else {
        return (None, 0);
    };
    let mut list = MoveList::new();
    generate_checks(pos, &mut list);
    let free = free_squares(pos, ksq);
    let strict = list.iter().copied().find(|&m| {
        !is_pawn_drop(m) && !keeps_a_free_square(pos, m, ksq, free) && mates(pos, m, ksq)
    });
    if strict.is_some() || defence == Defence::AllLegal {
        return (strict, list.len());
    }
    // Futile drops only arise against a single distant slider check.
    for &m in list.iter() {
        if is_pawn_drop(m) {
            continue;
        }
        pos.do_move(m);
        let checkers = pos.checkers();
        let distant = !checkers.has_more_than_one()
            && checkers
                .lsb()
                .is_some_and(|c| between(ksq, c).is_nonempty());
        let mate = distant && is_mated(pos, defence);
        pos.undo_move(m);
        if mate {
            return (Some(m), list.len());
        }
    }
    (None, list.len())
}

/// Whether the legal checking move `m` leaves the defender (king on `ksq`) without evasions.
///
/// The position after `m` is described by the new occupancy plus two corrections to `pos`'s
/// piece sets: the mover's old square no longer holds an attacker, and the captured defender
/// piece on `to` is gone.
pub(crate) fn mates(pos: &Position, m: Move, ksq: Square) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let to = m.to();
    let to_bb = Bitboard::from_square(to);
    let (from_bb, moved) = if m.is_drop() {
        (Bitboard::EMPTY, m.dropped_type())
    } else {
        let pt = pos.piece_on(m.from()).piece_type();
        (
            Bitboard::from_square(m.from()),
            if m.is_promotion() { pt.promoted() } else { pt },
        )
    };
    let occ = (pos.occupied() ^ from_bb) | to_bb;
    let theirs = pos.pieces(them).and_not(to_bb);
    let ksq_bb = Bitboard::from_square(ksq);

    let direct = attacks(us, moved, to, occ).contains(ksq);
    let discovered = pos.slider_attackers_to(us, ksq, occ).and_not(from_bb);
    let n_checkers = direct as u32 + discovered.count();
    if n_checkers == 0 {
        return false;
    }

    let checker = if direct { Some(to) } else { discovered.lsb() };
    let moved_is_slider = matches!(
        moved,
        PieceType::LANCE
            | PieceType::BISHOP
            | PieceType::ROOK
            | PieceType::HORSE
            | PieceType::DRAGON
    );
    // Whether the defender piece on `d`, moving to `dest`, would leave its king attacked.
    let exposes = |d: Square, dest: Square| -> bool {
        let dest_bb = Bitboard::from_square(dest);
        let occ2 = (occ ^ Bitboard::from_square(d)) | dest_bb;
        if pos
            .slider_attackers_to(us, ksq, occ2)
            .and_not(from_bb | dest_bb)
            .is_nonempty()
        {
            return true;
        }
        to != dest && moved_is_slider && attacks(us, moved, to, occ2).contains(ksq)
    };

    // Capture of a lone checker by a piece other than the king: the usual answer, so asked
    // before the king's steps (any answer refutes the mate; the order only saves work).
    if n_checkers == 1
        && let Some(c) = checker
    {
        for d in pos.attackers_to(them, c, occ) & theirs.and_not(ksq_bb) {
            if !exposes(d, c) {
                return false;
            }
        }
    }

    // King steps (capturing the checker included).
    let occ_nk = occ ^ ksq_bb;
    for s in king_attacks(ksq).and_not(theirs) {
        let by_others = pos
            .attackers_to(us, s, occ_nk)
            .and_not(from_bb)
            .is_nonempty();
        let by_moved = s != to && attacks(us, moved, to, occ_nk).contains(s);
        if !by_others && !by_moved {
            return false;
        }
    }
    if n_checkers > 1 {
        return true;
    }
    let Some(checker) = checker else {
        return false;
    };

    // Interposition, by a move or a drop, on the squares between a distant slider and the king.
    let gap = between(ksq, checker);
    if gap.is_empty() {
        return true;
    }
    let hand = pos.hand(them);
    let their_pawns = pos.pieces_of(them, PieceType::PAWN).and_not(to_bb);
    for b in gap {
        if !hand.is_empty() {
            for pt in PieceType::HAND_TYPES {
                if !hand.has(pt) || dead_ranks(them, pt).contains(b) {
                    continue;
                }
                if pt == PieceType::PAWN && (their_pawns & Bitboard::file(b.file())).is_nonempty() {
                    continue;
                }
                // A defender pawn drop could in theory mate the attacker's king and so be
                // illegal; an interposition that does so is too rare to special-case here.
                return false;
            }
        }
        for d in pos.attackers_to(them, b, occ) & theirs.and_not(ksq_bb) {
            if !exposes(d, b) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The core's check generator on every problem position: exactly the legal moves that
    /// give check (mate problems are where it is called most).
    #[test]
    fn checks_match_filtered_legal_moves_on_problem_positions() {
        for sfen in crate::testdata::all_sfens() {
            let pos = Position::from_sfen(&sfen).expect("valid sfen");
            let mut l = MoveList::new();
            generate_checks(&pos, &mut l);
            let mut got: Vec<u32> = l.iter().map(|m| m.raw()).collect();
            got.sort_unstable();
            let mut want: Vec<u32> = pos
                .legal_moves()
                .iter()
                .filter(|&&m| pos.gives_check(m))
                .map(|m| m.raw())
                .collect();
            want.sort_unstable();
            assert_eq!(got, want, "{sfen}");
        }
    }

    /// Whether any legal move mates, the slow way (pawn-drop mates are not generated).
    fn reference(pos: &mut Position) -> bool {
        let moves = pos.legal_moves();
        for &m in moves.iter() {
            pos.do_move(m);
            let mate = pos.is_checkmate();
            pos.undo_move(m);
            if mate {
                return true;
            }
        }
        false
    }

    /// The first move of `generate_checks`' list that mates (pawn drops left out): the one
    /// `mate_in_1` must return, whatever shortcuts it takes (the search's tree depends on it).
    fn first_in_check_order(pos: &mut Position) -> Option<Move> {
        let mut list = MoveList::new();
        generate_checks(pos, &mut list);
        list.iter()
            .copied()
            .filter(|&m| !is_pawn_drop(m))
            .find(|&m| {
                pos.do_move(m);
                let mate = pos.is_checkmate();
                pos.undo_move(m);
                mate
            })
    }

    fn check_answer(pos: &mut Position) {
        let got = mate_in_1(pos);
        assert_eq!(got.is_some(), reference(pos), "{}", pos.to_sfen());
        assert_eq!(got, first_in_check_order(pos), "{}", pos.to_sfen());
        if let Some(m) = got {
            assert!(pos.is_legal(m));
            pos.do_move(m);
            assert!(pos.is_checkmate(), "{} {m}", pos.to_sfen());
            pos.undo_move(m);
        }
    }

    #[test]
    fn mate_in_1_agrees_with_brute_force_on_problems() {
        for sfen in crate::testdata::all_sfens() {
            let mut pos = Position::from_sfen(&sfen).expect("valid sfen");
            check_answer(&mut pos);
        }
    }

    #[test]
    fn mate_in_1_agrees_with_brute_force_along_random_games() {
        crate::testdata::random_walk_positions(4000, check_answer);
    }

    /// Whether a legal move that mates is one `mate_in_1_near` tries: a drop, or a direct check
    /// by the moved piece from next to the king or from a knight's square.
    fn is_near_check(pos: &Position, m: Move) -> bool {
        let us = pos.side_to_move();
        let Some(ksq) = pos.king_square(!us) else {
            return false;
        };
        if m.is_drop() {
            return true;
        }
        let pt = pos.piece_on(m.from()).piece_type();
        let moved = if m.is_promotion() { pt.promoted() } else { pt };
        let occ = pos.occupied() ^ Bitboard::from_square(m.from());
        let direct = attacks(us, moved, m.to(), occ).contains(ksq);
        let near = king_attacks(ksq).contains(m.to())
            || (moved == PieceType::KNIGHT && knight_attacks(!us, ksq).contains(m.to()));
        direct && near
    }

    /// The near probe returns only legal mates, and finds one whenever a near check mates.
    fn check_near_answer(pos: &mut Position) {
        let got = mate_in_1_near(pos);
        let us = pos.side_to_move();
        let attacked = Square::all()
            .filter(|&s| pos.is_attacked_by(us, s, pos.occupied()))
            .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s));
        assert_eq!(
            mate_in_1_near_attacked(pos, attacked),
            got,
            "{}",
            pos.to_sfen()
        );
        if let Some(m) = got {
            assert!(pos.is_legal(m), "{} {m}", pos.to_sfen());
            pos.do_move(m);
            assert!(pos.is_checkmate(), "{} {m}", pos.to_sfen());
            pos.undo_move(m);
        }
        let moves = pos.legal_moves();
        let near_mate = moves.iter().copied().find(|&m| {
            if is_pawn_drop(m) || !is_near_check(pos, m) {
                return false;
            }
            pos.do_move(m);
            let mate = pos.is_checkmate();
            pos.undo_move(m);
            mate
        });
        if !pos.in_check() {
            assert_eq!(
                got.is_some(),
                near_mate.is_some(),
                "{} {near_mate:?}",
                pos.to_sfen()
            );
        }
    }

    #[test]
    fn near_mate_in_1_finds_exactly_the_near_mates() {
        let (mut found, mut all) = (0, 0);
        for sfen in crate::testdata::all_sfens() {
            let mut pos = Position::from_sfen(&sfen).expect("valid sfen");
            check_near_answer(&mut pos);
            found += usize::from(mate_in_1_near(&pos).is_some());
            all += usize::from(mate_in_1(&pos).is_some());
        }
        crate::testdata::random_walk_positions(20000, |pos| {
            check_near_answer(pos);
            found += usize::from(mate_in_1_near(pos).is_some());
            all += usize::from(mate_in_1(pos).is_some());
        });
        // A mate in one by a distant check or a discovered check is the rare one.
        assert_eq!((found, all), (513, 529));
    }

    #[test]
    fn mate_in_1_answers_the_one_ply_problems() {
        for p in crate::testdata::exact_short() {
            let mut pos = Position::from_sfen(&p.sfen).expect("valid sfen");
            let expect = p.mate && p.plies == 1;
            let found = mate_in_1_with(&mut pos, Defence::NoFutileDrops);
            assert_eq!(found.is_some(), expect, "{}", p.sfen);
        }
    }

    #[test]
    fn futile_drops_count_only_under_the_rules() {
        // Two bishops: after 1g2h every White drop between is simply captured with mate.
        let mut pos =
            Position::from_sfen("k8/9/1K7/9/9/9/8B/8B/9 b 2r4g4s4n4l18p 1").expect("sfen");
        assert_eq!(mate_in_1(&pos), None);
        let m = mate_in_1_with(&mut pos, Defence::NoFutileDrops).expect("mate by convention");
        assert_eq!(m.to_usi(), "1g2h");
    }

    #[test]
    fn pawn_drop_mate_is_not_a_mate_in_1() {
        let pos =
            Position::from_sfen("kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1").expect("sfen");
        assert_eq!(mate_in_1(&pos), None);
    }

    #[test]
    fn pawn_push_mate_is_a_mate_in_1() {
        // The same net, but the pawn is already on the board one step below: pushing it mates.
        let pos =
            Position::from_sfen("kn7/1s7/P8/1N7/9/9/9/9/9 b 2r2b4g3s2n4l17p 1").expect("sfen");
        let mut pos = pos;
        let m = mate_in_1(&pos).expect("the push (or the knight) mates");
        pos.do_move(m);
        assert!(pos.is_checkmate(), "{m}");
    }

    #[test]
    fn no_mate_without_the_defender_king() {
        let pos = Position::from_sfen("9/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1").expect("sfen");
        assert_eq!(mate_in_1(&pos), None);
    }
}
