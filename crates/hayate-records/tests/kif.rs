//! KIF: cshogi's exports (Shift_JIS .kif and UTF-8 .kifu), handicaps, BOD and round trips.

mod common;

use hayate_core::Color;
use hayate_records::game::kif::{parse_kif, write_kif};
use hayate_records::game::text::{self, TextEncoding};
use hayate_records::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");

fn fixture_games() -> Vec<(usize, String, Vec<String>, Vec<u64>)> {
    let t = std::fs::read_to_string(format!("{DATA}games.txt")).expect("fixture");
    t.lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].parse().expect("index"),
                f[1].to_string(),
                f[2].split_whitespace().map(String::from).collect(),
                f[3].split_whitespace()
                    .map(|x| x.parse().expect("time"))
                    .collect(),
            )
        })
        .collect()
}

/// KIF cannot tell a foul by the side to move (`IllegalAction(mover)`) from `IllegalMove`.
pub fn normalise(mut rec: GameRecord) -> GameRecord {
    let mover = rec.side_to_move_at_end();
    if let Some(e) = rec.end.as_mut()
        && e.kind == EndKind::IllegalAction(mover)
    {
        e.kind = EndKind::IllegalMove;
    }
    rec
}

#[test]
fn cshogi_kif_exports_parse_in_both_encodings() {
    for (i, end, usi, times) in fixture_games() {
        for ext in ["kif", "kifu"] {
            let bytes = std::fs::read(format!("{DATA}game{i}.{ext}")).expect("fixture");
            let rec = parse_kif(&text::decode(&bytes)).expect("parses");
            let got: Vec<String> = rec.moves.iter().map(|m| m.mv.to_usi()).collect();
            assert_eq!(got, usi, "game{i}.{ext}");
            let got_t: Vec<u64> = rec
                .moves
                .iter()
                .map(|m| m.time_ms.unwrap_or(0) / 1000)
                .collect();
            assert_eq!(got_t, times);
            assert_eq!(rec.players, [format!("black{i}"), format!("white{i}")]);
            assert_eq!(rec.meta("START_TIME"), Some("2026/11/21 12:00:00"));
            let expected = match end.as_str() {
                "%TORYO" => EndKind::Resign,
                "%SENNICHITE" => EndKind::Sennichite,
                "%KACHI" => EndKind::Kachi,
                _ => unreachable!(),
            };
            assert_eq!(rec.end.as_ref().map(|e| e.kind), Some(expected));
        }
    }
}

#[test]
fn handicap_header_sets_the_start() {
    let rec = parse_kif(
        "手合割：角落ち\n上手：a\n下手：b\n手数----指手---------消費時間--\n   1 ３四歩(33)\n",
    )
    .expect("parses");
    assert_eq!(
        rec.start_sfen,
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(rec.players, ["b".to_string(), "a".to_string()]);
    assert_eq!(rec.moves.len(), 1);
}

#[test]
fn illegal_move_names_its_line() {
    let err = parse_kif("手合割：平手\n   1 ７六歩(77)\n   2 ７六歩(77)\n").expect_err("illegal");
    assert_eq!(err.line, 3);
}

#[test]
fn random_games_round_trip_utf8_and_shift_jis() {
    let mut rng = common::Rng::new(2);
    for i in 0..300 {
        let rec = common::random_game(&mut rng, true, false);
        let text = write_kif(&rec).expect("writes");
        let enc = if i % 2 == 0 {
            TextEncoding::Utf8
        } else {
            TextEncoding::ShiftJis
        };
        let bytes = text::encode(&text, enc);
        let back = parse_kif(&text::decode(&bytes)).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, normalise(rec), "{text}");
    }
}

#[test]
fn ending_words_follow_the_side_to_move() {
    let rec = parse_kif("   1 ７六歩(77)\n   2 反則勝ち\n").expect("parses");
    assert_eq!(
        rec.end.map(|e| e.kind),
        Some(EndKind::IllegalAction(Color::Black))
    );
}
