//! CSA: cshogi's exports, the server transcripts' move lists, and round trips.

mod common;

use hayate_records::game::csa::{parse_csa, parse_csa_multi, write_csa};
use hayate_records::game::text;
use hayate_records::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");

/// (index, ending, USI moves, times) from games.txt.
pub fn fixture_games() -> Vec<(usize, String, Vec<String>, Vec<u64>)> {
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

#[test]
fn cshogi_csa_exports_parse() {
    for (i, end, usi, times) in fixture_games() {
        let bytes = std::fs::read(format!("{DATA}game{i}.csa")).expect("fixture");
        let rec = parse_csa(&text::decode(&bytes)).expect("parses");
        let got: Vec<String> = rec.moves.iter().map(|m| m.mv.to_usi()).collect();
        assert_eq!(got, usi);
        let got_t: Vec<u64> = rec
            .moves
            .iter()
            .map(|m| m.time_ms.unwrap_or(0) / 1000)
            .collect();
        assert_eq!(got_t, times);
        assert_eq!(rec.players, [format!("black{i}"), format!("white{i}")]);
        assert_eq!(rec.meta("EVENT"), Some(format!("fixture{i}").as_str()));
        let kind = rec.end.as_ref().map(|e| e.kind);
        assert_eq!(
            kind.map(hayate_records::game::csa::special_name),
            Some(end.as_str())
        );
        assert_eq!(rec.end.as_ref().and_then(|e| e.time_ms), Some(1000));
    }
}

/// The moves one client saw in a transcript, as a CSA record (statements joined by commas as
/// the server sends them), and how many moves there are.
fn transcript_record(t: &str) -> Option<(String, usize)> {
    let mut who = None;
    let mut out = String::new();
    let mut moves = 0;
    let mut in_pos = false;
    for line in t.lines() {
        let Some((head, body)) = line.split_once("S> ") else {
            continue;
        };
        let name = head.split(']').nth(1)?.trim().to_string();
        let body = body.trim();
        let body = &body[1..body.len() - 1];
        if body == "BEGIN Position" && who.is_none() {
            who = Some(name.clone());
        }
        if who.as_deref() != Some(name.as_str()) {
            continue;
        }
        match body {
            "BEGIN Position" => in_pos = true,
            "END Position" => in_pos = false,
            _ if in_pos => {
                out.push_str(body);
                out.push('\n');
            }
            // The server repeats a special move (`%KACHI,T0` then `%KACHI`): keep the first.
            _ if body.starts_with('%') && out.contains('%') => {}
            _ if body.starts_with('+') || body.starts_with('-') || body.starts_with('%') => {
                if body.len() >= 7 && body.as_bytes()[1].is_ascii_digit() {
                    moves += 1;
                }
                out.push_str(body);
                out.push('\n');
            }
            _ => {}
        }
    }
    who.map(|_| (out, moves))
}

#[test]
fn transcript_move_lists_parse() {
    let dir = "/work/shared/data/csa";
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("{dir} not present; skipped");
        return;
    };
    let mut checked = 0;
    for e in entries.flatten() {
        let t = std::fs::read_to_string(e.path()).expect("readable");
        let Some((csa, n)) = transcript_record(&t) else {
            continue;
        };
        let rec = parse_csa(&csa).unwrap_or_else(|err| panic!("{:?}: {err}", e.path()));
        assert_eq!(rec.moves.len(), n, "{:?}", e.path());
        checked += 1;
    }
    assert!(checked >= 12, "{checked} transcripts");
}

#[test]
fn special_moves_times_and_comments() {
    let text = "'CSA encoding=UTF-8\nV3.0\nN+a\nN-b\n$EVENT:x\n'header note\nPI\n+\n+7776FU,T1.5\n'** 30 -3334FU\n-3334FU\nT0.001\n%+ILLEGAL_ACTION\nT2\n'summary:x\n";
    let rec = parse_csa(text).expect("parses");
    assert_eq!(rec.players, ["a".to_string(), "b".to_string()]);
    assert_eq!(rec.comments, ["header note"]);
    assert_eq!(rec.moves[0].time_ms, Some(1500));
    assert_eq!(rec.moves[0].comments, ["** 30 -3334FU"]);
    assert_eq!(rec.moves[1].time_ms, Some(1));
    assert_eq!(
        rec.end,
        Some(GameEnd {
            kind: EndKind::IllegalAction(hayate_core::Color::Black),
            time_ms: Some(2000)
        })
    );
    assert_eq!(rec.outcome(), Outcome::Win(hayate_core::Color::White));
}

#[test]
fn handicap_and_hands() {
    // 2-piece handicap via PI, White to move.
    let rec = parse_csa("PI82HI22KA\n-\n-3334FU\n").expect("parses");
    assert_eq!(
        rec.start_sfen,
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    // Explicit board with hands and 00AL.
    let text = "P1 *  *  *  *  *  *  *  * -OU\nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9+OU *  *  *  *  *  *  *  * \nP+00KI00FU\nP-00AL\n+\n+0012KI\n%TSUMI\n";
    let rec = parse_csa(text).expect("parses");
    assert_eq!(rec.start_sfen, "8k/9/9/9/9/9/9/9/K8 b GP2r2b3g4s4n4l17p 1");
    assert_eq!(rec.moves[0].mv.to_usi(), "G*1b");
    assert_eq!(rec.outcome(), Outcome::Win(hayate_core::Color::Black));
}

#[test]
fn position_without_side_line() {
    let rec = parse_csa("PI82HI22KA\n-3334FU\n").expect("parses");
    assert_eq!(
        rec.start_sfen,
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(rec.moves.len(), 1);
}

#[test]
fn illegal_move_is_reported_with_its_line() {
    let err = parse_csa("PI\n+\n+7776FU\n-7776FU\n").expect_err("illegal");
    assert_eq!(err.line, 4);
    assert!(matches!(
        err.kind,
        ParseErrorKind::IllegalMove { ply: 2, .. }
    ));
}

#[test]
fn multi_record_files() {
    let recs = parse_csa_multi("PI\n+\n+7776FU\n/\nPI\n+\n+2726FU\n-3334FU\n").expect("parses");
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[1].moves.len(), 2);
}

#[test]
fn random_games_round_trip() {
    let mut rng = common::Rng::new(1);
    for _ in 0..300 {
        let rec = common::random_game(&mut rng, false, false);
        let text = write_csa(&rec).expect("writes");
        let back = parse_csa(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, rec, "{text}");
    }
}

#[test]
fn pi_removals_name_their_piece_and_rows_have_nine_cells() {
    // `PI82KA` names a bishop where the rook stands; a short row would leave squares empty.
    for bad in ["PI82KA\n+\n", "PI8\n+\n", "P1-KY-KE-GI-KI-OU\n+\n"] {
        let err = parse_csa(bad).expect_err(bad);
        assert_eq!(err.line, 1, "{bad}");
        assert!(matches!(err.kind, ParseErrorKind::BadLine(_)), "{bad}");
    }
}
