//! USI position lines as a game list.

mod common;

use hayate_records::game::usi::{parse_usi_lines, write_usi_line};

#[test]
fn lines_round_trip() {
    let mut rng = common::Rng::new(9);
    let mut text = String::from("# a comment line\n\n");
    let mut games = Vec::new();
    for _ in 0..100 {
        let rec = common::random_game(&mut rng, true, false);
        text += &write_usi_line(&rec);
        text.push('\n');
        games.push(rec);
    }
    let back = parse_usi_lines(&text).expect("parses");
    assert_eq!(back.len(), games.len());
    for (a, b) in back.iter().zip(&games) {
        assert_eq!(a.start_sfen, b.start_sfen);
        let x: Vec<_> = a.moves.iter().map(|e| e.mv).collect();
        let y: Vec<_> = b.moves.iter().map(|e| e.mv).collect();
        assert_eq!(x, y);
    }
}

#[test]
fn forms_and_errors() {
    let g = parse_usi_lines("position startpos moves 7g7f 3c3d\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d\n8k/9/9/9/9/9/9/9/K8 b G 1\n").expect("parses");
    assert_eq!(g.len(), 3);
    assert_eq!(g[0].moves.len(), 2);
    assert_eq!(g[1].moves[0].mv.to_usi(), "3c3d");
    assert!(g[2].moves.is_empty());
    let e =
        parse_usi_lines("startpos moves 7g7f\nstartpos moves 7g7f 7g7f\n").expect_err("illegal");
    assert_eq!(e.line, 2);
}
