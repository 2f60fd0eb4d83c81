//! Repetition, perpetual check, superior/inferior repetition and the entering-king declaration.

use hayate_core::{DeclarationRule, GameRepetition, Position, Repetition};

fn play(pos: &mut Position, moves: &str) {
    for w in moves.split_whitespace() {
        let m = pos.parse_usi_move(w).unwrap_or_else(|e| panic!("{e}"));
        pos.do_move(m);
    }
}

#[test]
fn fourfold_repetition_is_a_draw() {
    let mut pos = Position::startpos();
    let cycle = "5i5h 5a5b 5h5i 5b5a ";
    play(&mut pos, &cycle.repeat(2));
    assert_eq!(pos.repetition(16), Repetition::Draw);
    assert_eq!(pos.game_repetition(), GameRepetition::None);
    play(&mut pos, cycle);
    assert_eq!(pos.game_repetition(), GameRepetition::Draw);
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Black's rook checks the White king back and forth; White's king shuttles.
    let mut pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/R3K4 b - 1").unwrap();
    let cycle = "9i9a 5a5b 9a9b 5b5a 9b9a 5a5b 9a9b 5b5a ";
    // 9i9a+ is a check on rank a; after 5a5b, 9a9b checks on rank b, and so on.
    play(&mut pos, "9i9a 5a5b 9a9b 5b5a 9b9a");
    assert_eq!(
        pos.repetition(32),
        Repetition::Win,
        "side to move (White) wins: Black checked throughout"
    );
    let _ = cycle;
    play(&mut pos, "5a5b 9a9b 5b5a 9b9a 5a5b 9a9b 5b5a 9b9a");
    assert_eq!(
        pos.game_repetition(),
        GameRepetition::PerpetualCheckBy(hayate_core::Color::Black)
    );
}

#[test]
fn superior_and_inferior_repetition() {
    // White drops a pawn that Black's rook takes and brings home: same board, Black a pawn up.
    let mut pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K3R b p 1").unwrap();
    play(&mut pos, "1i1h P*1g 1h1g 5a5b 1g1i 5b5a");
    assert_eq!(pos.repetition(16), Repetition::Superior);
    // Too short a look-back sees nothing.
    assert_eq!(pos.repetition(4), Repetition::None);
    // Black drops a pawn that White's rook takes and brings home: Black is a pawn down.
    let mut pos = Position::from_sfen("4k3r/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
    play(&mut pos, "P*1b 1a1b 5i5h 5a5b 5h4i 1b1a 4i5i 5b5a");
    assert_eq!(pos.repetition(16), Repetition::Inferior);
}

#[test]
fn entering_king_declaration() {
    // Black king on 5b with 10 pieces in the camp and plenty of points in hand.
    let sfen = "GGGGS4/SSS1K4/PP7/9/9/9/9/9/4k4 b 2R2B 1";
    let pos = Position::from_sfen(sfen).unwrap();
    let (points, n) = pos.declaration_points(hayate_core::Color::Black);
    assert_eq!(n, 10);
    assert_eq!(points, 10 + 20);
    assert!(pos.can_declare_win(DeclarationRule::Csa27));
    assert!(!pos.can_declare_win(DeclarationRule::Points24));
    // Too few points: same camp, nothing in hand.
    let pos = Position::from_sfen("GGGGS4/SSS1K4/PP7/9/9/9/9/9/4k4 b - 1").unwrap();
    assert!(!pos.can_declare_win(DeclarationRule::Csa27));
}
