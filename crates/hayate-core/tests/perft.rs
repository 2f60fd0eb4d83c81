//! Perft counts from `shared/data/perft/perft.json`: every count up to about 10 million leaves
//! here; the large ones (startpos d6, matsuri d4, max_legal_moves d3 and deeper) are `#[ignore]`d.

mod common;

use hayate_core::{Position, perft};

const LIMIT: u64 = 10_000_000;

fn cases() -> Vec<(String, String, u32, u64)> {
    let v = common::perft_json();
    let mut out = Vec::new();
    for (name, case) in v.as_object().expect("object") {
        let Some(sfen) = case.get("sfen").and_then(|s| s.as_str()) else {
            continue;
        };
        for (d, n) in case["depths"].as_object().expect("depths") {
            out.push((
                name.clone(),
                sfen.to_string(),
                d.parse().expect("depth"),
                n.as_u64().expect("count"),
            ));
        }
    }
    out
}

fn check(filter: impl Fn(u64) -> bool) {
    let mut ran = 0;
    for (name, sfen, depth, expected) in cases() {
        if !filter(expected) {
            continue;
        }
        let mut pos = Position::from_sfen(&sfen).expect("valid SFEN");
        assert_eq!(perft(&mut pos, depth), expected, "{name} depth {depth}");
        ran += 1;
    }
    assert!(ran > 0);
}

#[test]
fn perft_reference_counts_up_to_ten_million() {
    check(|n| n <= LIMIT);
}

#[test]
#[ignore = "slow: startpos d6/d7, matsuri d4, max_legal_moves d3/d4; run by hand with --ignored"]
fn perft_reference_counts_large() {
    // d7 and max_legal_moves d4 take many minutes; stop at 600 million leaves.
    check(|n| n > LIMIT && n < 600_000_000);
}

#[test]
fn uchifuzume_excluded_and_other_pawn_drops_kept() {
    let pos = Position::from_sfen("R6sk/9/7G1/9/9/9/9/9/4K4 b P 1").unwrap();
    let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_usi()).collect();
    assert!(!moves.contains(&"P*1b".to_string()));
    assert!(moves.contains(&"P*1c".to_string()));
    let pos = Position::from_sfen("R8/2G1k4/9/2S6/2BN2N2/9/9/9/4K4 b P 1").unwrap();
    assert!(pos.legal_moves().iter().any(|m| m.to_usi() == "P*5c"));
}

#[test]
fn nifu_and_dead_drops_excluded() {
    // Black has a pawn on file 5 and pawns, lances and knights in hand.
    let pos = Position::from_sfen("4k4/9/9/9/9/9/4P4/9/4K4 b PLN 1").unwrap();
    let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_usi()).collect();
    assert!(!moves.iter().any(|m| m.starts_with("P*5")), "nifu");
    assert!(!moves.contains(&"P*1a".to_string()) && !moves.contains(&"L*1a".to_string()));
    assert!(!moves.contains(&"N*1a".to_string()) && !moves.contains(&"N*1b".to_string()));
    assert!(moves.contains(&"N*1c".to_string()) && moves.contains(&"L*1b".to_string()));
}
