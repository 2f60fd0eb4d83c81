//! Random-play properties: undo restores the exact position and keys, incremental keys equal
//! keys recomputed from scratch, SFEN round-trips, `gives_check` agrees with the position after
//! the move, and no text input — however malformed — makes a parser panic.

use hayate_core::{Bitboard, Color, Position, Square, Stage};
use proptest::prelude::*;

fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

fn random_walk(seed: u64, plies: usize) {
    let mut seed = seed | 1;
    let mut pos = Position::startpos();
    let root = pos.clone();
    let root_key = pos.key();
    let mut played = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(next(&mut seed) % moves.len() as u64) as usize];
        let check = pos.gives_check(m);
        let key_after = pos.key_after(m);
        pos.do_move(m);
        assert_eq!(pos.in_check(), check, "gives_check({m}) disagrees");
        assert_eq!(pos.key(), key_after, "key_after({m}) disagrees");
        played.push(m);
        assert_eq!(
            pos.count_legal(),
            pos.legal_moves().len(),
            "count_legal disagrees"
        );
        let (bk, hk) = pos.compute_keys();
        assert_eq!(
            (pos.board_key(), pos.hand_key()),
            (bk, hk),
            "incremental keys drifted"
        );
        let sfen = pos.to_sfen();
        let back = Position::from_sfen(&sfen).expect("own SFEN parses");
        assert_eq!(back, pos);
        assert_eq!(back.key(), pos.key());
        assert_eq!(back.to_sfen(), sfen);
        let parts = Position::from_parts(
            pos.board(),
            [
                pos.hand(hayate_core::Color::Black),
                pos.hand(hayate_core::Color::White),
            ],
            pos.side_to_move(),
            pos.game_ply(),
        )
        .expect("own parts are valid");
        assert_eq!(parts.key(), pos.key());
        // Stage generators partition the legal moves.
        if !pos.in_check() {
            let mut noisy = hayate_core::MoveList::new();
            let mut quiet = hayate_core::MoveList::new();
            pos.generate(Stage::CapturesAndPromotions, &mut noisy);
            pos.generate(Stage::Quiets, &mut quiet);
            let mut staged: Vec<u32> = noisy.iter().chain(quiet.iter()).map(|m| m.raw()).collect();
            let mut all: Vec<u32> = pos.legal_moves().iter().map(|m| m.raw()).collect();
            staged.sort_unstable();
            all.sort_unstable();
            assert_eq!(staged, all, "stages must partition the legal moves");
            assert!(noisy.iter().all(|m| m.is_capture() || m.is_promotion()));
        }
    }
    while let Some(m) = played.pop() {
        pos.undo_move(m);
    }
    assert_eq!(pos, root);
    assert_eq!(pos.key(), root_key);
    assert_eq!(pos.to_sfen(), root.to_sfen());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_keep_keys_and_undo_exact(seed in any::<u64>()) {
        random_walk(seed, 300);
    }

    #[test]
    fn sfen_parser_never_panics(s in "\\PC{0,120}") {
        let _ = Position::from_sfen(&s);
    }

    #[test]
    fn sfen_parser_never_panics_on_sfen_like_text(s in "[1-9lnsgkrbpLNSGKRBP+/]{0,90} [bwx] [-0-9lnsgkrbpLNSGKRBP]{0,12}( [0-9]{1,3})?") {
        let _ = Position::from_sfen(&s);
    }

    #[test]
    fn position_command_never_panics(s in "(startpos|sfen [^ ]{0,40} [bw] [-0-9A-Za-z]{0,6}) moves( [1-9][a-i][1-9][a-i]\\+?| [PLNSGBR]\\*[1-9][a-i]| [a-z0-9*+]{0,6}){0,12}") {
        let _ = Position::from_usi_position(&s);
    }
}

/// Calls `f` with the positions of a random walk of 1,500 plies (a new game when one ends),
/// each with the board's occupancy and with one random square's occupancy flipped (as an
/// incremental update, or a mate search lifting the king off the board, asks its queries).
fn walk_with_occupancies(mut seed: u64, mut f: impl FnMut(&Position, Bitboard)) {
    let mut pos = Position::startpos();
    for _ in 0..1500 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos = Position::startpos();
            continue;
        }
        pos.do_move(moves[(next(&mut seed) % moves.len() as u64) as usize]);
        let flip = Square::new((next(&mut seed) % 81) as u8);
        for occ in [pos.occupied(), pos.occupied() ^ Bitboard::from_square(flip)] {
            f(&pos, occ);
        }
    }
}

/// `sliders_to` is `slider_attackers_to` of both colours, on every square.
#[test]
fn sliders_to_is_both_colours_slider_attackers() {
    let mut checked = 0u32;
    walk_with_occupancies(77, |pos, occ| {
        for sq in Square::all() {
            let both = pos.slider_attackers_to(Color::Black, sq, occ)
                | pos.slider_attackers_to(Color::White, sq, occ);
            assert_eq!(pos.sliders_to(sq, occ), both, "{} {sq}", pos.to_sfen());
            checked += both.is_nonempty() as u32;
        }
    });
    assert!(checked > 10_000, "squares with slider attackers: {checked}");
}

/// `attackers_next_to` is `is_attacked_by` (with the centre emptied) and `attackers_to` asked
/// of each square next to the given one, for both colours on every square.
#[test]
fn attackers_next_to_is_attackers_to_around_a_square() {
    let mut attacked = 0u32;
    walk_with_occupancies(91, |pos, occ| {
        for sq in Square::all() {
            let open = occ.and_not(Bitboard::from_square(sq));
            for c in [Color::Black, Color::White] {
                let next = pos.attackers_next_to(c, sq, occ);
                let mut want = Bitboard::EMPTY;
                for s in hayate_core::attacks::king_attacks(sq) {
                    if pos.is_attacked_by(c, s, open) {
                        want.set(s);
                    }
                    assert_eq!(
                        next.attackers(s),
                        pos.attackers_to(c, s, occ),
                        "{} {c:?} {sq} {s}",
                        pos.to_sfen()
                    );
                }
                assert_eq!(next.covered, want, "{} {c:?} {sq}", pos.to_sfen());
                assert_eq!(next.attackers(sq), Bitboard::EMPTY);
                attacked += want.count();
            }
        }
    });
    assert!(attacked > 1_000_000, "attacked squares: {attacked}");
}

#[test]
fn long_random_games_stay_consistent() {
    for seed in 1..20 {
        random_walk(seed * 0x9e37_79b9, 600);
    }
}

#[test]
fn sfen_accepts_any_hand_order_and_writes_the_conventional_one() {
    let a = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2pPGrb3N 1").unwrap();
    assert_eq!(a.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b G3NPrb2p 1");
    let b = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 10p 1").unwrap();
    assert_eq!(
        b.hand(hayate_core::Color::White)
            .count(hayate_core::PieceType::PAWN),
        10
    );
}

#[test]
fn sfen_errors_name_the_fault() {
    use hayate_core::SfenError::*;
    let e = |s: &str| Position::from_sfen(s).unwrap_err();
    assert_eq!(e("4k4/9/9/9/9/9/9/9 b - 1"), WrongRankCount(8));
    assert!(matches!(
        e("4k5/9/9/9/9/9/9/9/4K4 b - 1"),
        WrongRankLength { rank: 1, .. }
    ));
    assert_eq!(e("4k4/9/9/9/9/9/9/9/4K4 x - 1"), BadSide("x".into()));
    assert_eq!(e("4k4/9/9/9/9/9/9/9/4K4 b 19P 1"), BadHand("19P".into()));
    assert_eq!(e("4k4/9/9/9/9/9/9/9/4K4 b - 0"), BadMoveNumber("0".into()));
    assert!(matches!(e("P3k4/9/9/9/9/9/9/9/4K4 b - 1"), DeadPiece(_)));
    assert_eq!(e("4k4/9/9/4P4/9/4P4/9/9/4K4 b - 1"), Nifu(5));
    assert_eq!(e("4k4/9/9/9/9/9/9/9/4K4 b 3B 1"), TooManyPieces('B'));
    assert_eq!(e("4k4/4R4/9/9/9/9/9/9/4K4 b - 1"), OpponentInCheck);
    assert_eq!(e("4k4/9/9/9/9/9/9/9/4K4 b"), MissingField("hand"));
    assert!(matches!(e("4k4/9/9/9/9/9/9/9/4+K4 b - 1"), BadPromotion(_)));
}

#[test]
fn usi_move_text() {
    let pos = Position::startpos();
    assert_eq!(pos.parse_usi_move("7g7f").unwrap().to_usi(), "7g7f");
    assert!(matches!(
        pos.parse_usi_move("7g7e"),
        Err(hayate_core::MoveTextError::Illegal(_))
    ));
    assert!(matches!(
        pos.parse_usi_move("7g7"),
        Err(hayate_core::MoveTextError::Syntax(_))
    ));
    assert!(matches!(
        pos.parse_usi_move("p*5e"),
        Err(hayate_core::MoveTextError::Syntax(_))
    ));
    let pos = Position::from_usi_position("startpos moves 7g7f 3c3d 8h2b+").unwrap();
    assert_eq!(
        pos.to_sfen(),
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    );
    let err = Position::from_usi_position("startpos moves 7g7f 7g7f").unwrap_err();
    assert!(matches!(
        err,
        hayate_core::PositionCommandError::Move { index: 1, .. }
    ));
    let p = Position::from_usi_position(
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - moves 7g7f",
    );
    assert!(p.is_ok());
}

#[test]
fn to_move_fast_agrees_with_generation_on_every_code() {
    // Check evasions, double check, pins, pawn-drop mate, then a random game.
    for sfen in [
        "lnsgkgsnl/1r5b1/pppp1pppp/9/4R4/9/PPPP1PPPP/1B7/LNSGKGSNL w Pp 1",
        "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
        "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65",
        "R6sk/9/7G1/9/9/9/9/9/4K4 b P 1",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    ] {
        let pos = Position::from_sfen(sfen).unwrap();
        for code in 0..=u16::MAX {
            let m16 = hayate_core::Move16(code);
            assert_eq!(
                pos.to_move_fast(m16).map(|m| m.raw()),
                pos.to_move(m16).map(|m| m.raw()),
                "{sfen} {code:#x}"
            );
        }
    }
    let mut seed = 0x5eed_u64;
    let mut pos = Position::startpos();
    for ply in 0..120 {
        if ply % 12 == 0 {
            for code in 0..=u16::MAX {
                let m16 = hayate_core::Move16(code);
                let slow = pos.to_move(m16).map(|m| m.raw());
                let fast = pos.to_move_fast(m16).map(|m| m.raw());
                assert_eq!(fast, slow, "{} code {code:#x}", pos.to_sfen());
            }
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(next(&mut seed) % moves.len() as u64) as usize];
        pos.do_move(m);
    }
}
