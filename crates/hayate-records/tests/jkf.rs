//! JKF: round trips and a hand-written sample in the published schema's shape.

mod common;

use hayate_records::game::jkf::{parse_jkf, write_jkf};
use hayate_records::*;

#[test]
fn sample_in_schema_shape_parses() {
    let text = r#"{
      "header": {"先手": "a", "後手": "b", "棋戦": "x"},
      "initial": {"preset": "HIRATE"},
      "moves": [
        {"comments": ["start"]},
        {"move": {"color": 0, "from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU"},
         "time": {"now": {"m": 0, "s": 12}, "total": {"h": 0, "m": 0, "s": 12}}},
        {"move": {"color": 1, "from": {"x": 3, "y": 3}, "to": {"x": 3, "y": 4}, "piece": "FU"}},
        {"move": {"color": 0, "from": {"x": 8, "y": 8}, "to": {"x": 2, "y": 2}, "piece": "KA", "promote": true, "capture": "KA"}},
        {"move": {"color": 1, "from": {"x": 3, "y": 1}, "to": {"x": 2, "y": 2}, "piece": "GI", "same": true}},
        {"move": {"color": 0, "to": {"x": 4, "y": 5}, "piece": "KA"}, "comments": ["drop"]},
        {"special": "TORYO"}
      ]
    }"#;
    let rec = parse_jkf(text).expect("parses");
    let usi: Vec<String> = rec.moves.iter().map(|m| m.mv.to_usi()).collect();
    assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert_eq!(rec.players, ["a".to_string(), "b".to_string()]);
    assert_eq!(rec.meta("EVENT"), Some("x"));
    assert_eq!(rec.comments, ["start"]);
    assert_eq!(rec.moves[0].time_ms, Some(12_000));
    assert_eq!(rec.moves[4].comments, ["drop"]);
    assert_eq!(rec.outcome(), Outcome::Win(hayate_core::Color::Black));
}

#[test]
fn malformed_json_is_an_error() {
    assert!(matches!(
        parse_jkf("{").map_err(|e| e.kind),
        Err(ParseErrorKind::Json(_))
    ));
}

#[test]
fn random_games_round_trip() {
    let mut rng = common::Rng::new(4);
    for _ in 0..300 {
        let rec = common::random_game(&mut rng, true, false);
        let text = write_jkf(&rec).expect("writes");
        let back = parse_jkf(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, rec, "{text}");
    }
}

/// `initial.data.board[x-1][y-1]` is file x, rank y (the published examples put White's bishop
/// at `board[1][1]`, square 2b).
#[test]
fn other_preset_board_orientation() {
    // Black king 5i, White king 5a, White bishop 2b, Black rook 2h, Black holds a gold.
    let mut board = vec![vec!["{}".to_string(); 9]; 9];
    let cell = |c: u8, k: &str| format!("{{\"color\":{c},\"kind\":\"{k}\"}}");
    board[4][8] = cell(0, "OU");
    board[4][0] = cell(1, "OU");
    board[1][1] = cell(1, "KA");
    board[1][7] = cell(0, "HI");
    let rows: Vec<String> = board.iter().map(|c| format!("[{}]", c.join(","))).collect();
    let text = format!(
        "{{\"header\":{{}},\"initial\":{{\"preset\":\"OTHER\",\"data\":{{\"color\":1,\"board\":[{}],\"hands\":[{{\"KI\":1}},{{}}]}}}},\"moves\":[{{}},{{\"move\":{{\"color\":1,\"from\":{{\"x\":2,\"y\":2}},\"to\":{{\"x\":8,\"y\":8}},\"piece\":\"KA\",\"promote\":true}}}}]}}",
        rows.join(",")
    );
    let rec = parse_jkf(&text).expect("parses");
    assert_eq!(rec.start_sfen, "4k4/7b1/9/9/9/9/9/7R1/4K4 w G 1");
    assert_eq!(rec.moves[0].mv.to_usi(), "2b8h+");
}
