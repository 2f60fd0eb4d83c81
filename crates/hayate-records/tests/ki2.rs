//! KI2: cshogi's exports and round trips (disambiguation words, 不成, 打).

mod common;

use hayate_records::game::ki2::{parse_ki2, write_ki2};
use hayate_records::game::text::{self, TextEncoding};
use hayate_records::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");

#[test]
fn cshogi_ki2_exports_parse() {
    let t = std::fs::read_to_string(format!("{DATA}games.txt")).expect("fixture");
    for l in t.lines() {
        let f: Vec<&str> = l.split('\t').collect();
        let bytes = std::fs::read(format!("{DATA}game{}.ki2", f[0])).expect("fixture");
        let rec = parse_ki2(&text::decode(&bytes)).expect("parses");
        let got: Vec<String> = rec.moves.iter().map(|m| m.mv.to_usi()).collect();
        let want: Vec<String> = f[2].split_whitespace().map(String::from).collect();
        assert_eq!(got, want, "game{}", f[0]);
        let expected = match f[1] {
            "%TORYO" => EndKind::Resign,
            "%SENNICHITE" => EndKind::Sennichite,
            "%KACHI" => EndKind::Kachi,
            _ => unreachable!(),
        };
        assert_eq!(rec.end.map(|e| e.kind), Some(expected));
    }
}

#[test]
fn several_moves_per_line_and_words() {
    let rec = parse_ki2("▲７六歩 △３四歩 ▲２二角成 △同　銀\n▲４五角打\n").expect("parses");
    let usi: Vec<String> = rec.moves.iter().map(|m| m.mv.to_usi()).collect();
    assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    // Two golds can reach 5h from 6i and 4i: 左 is 6i for Black.
    let rec = parse_ki2("▲５八金左\n").expect("parses");
    assert_eq!(rec.moves[0].mv.to_usi(), "6i5h");
    let rec = parse_ki2("▲５八金右\n").expect("parses");
    assert_eq!(rec.moves[0].mv.to_usi(), "4i5h");
    assert!(parse_ki2("▲５八金\n").is_err(), "ambiguous");
}

#[test]
fn random_games_round_trip() {
    let mut rng = common::Rng::new(3);
    for i in 0..300 {
        let mut rec = common::random_game(&mut rng, true, false);
        for m in &mut rec.moves {
            m.time_ms = None;
        }
        if let Some(e) = rec.end.as_mut() {
            e.time_ms = None;
        }
        let text = write_ki2(&rec).expect("writes");
        let enc = if i % 2 == 0 {
            TextEncoding::Utf8
        } else {
            TextEncoding::ShiftJis
        };
        let back = parse_ki2(&text::decode(&text::encode(&text, enc)))
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, rec, "{text}");
    }
}
