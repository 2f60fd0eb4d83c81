//! cshogi's CSA (P1…P9, P+/P-) and KIF (board diagram) exports of games from non-initial
//! positions: the start positions and moves must be cshogi's.

use hayate_records::game::{csa, kif, text};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");

fn board_part(sfen: &str) -> String {
    sfen.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn cshogi_exports_from_non_initial_positions() {
    let list = std::fs::read_to_string(format!("{DATA}games_bod.txt")).expect("fixture");
    let mut n = 0;
    for (i, line) in list.lines().enumerate() {
        let (start, usi) = line.split_once('\t').expect("two fields");
        let want: Vec<&str> = usi.split_whitespace().collect();
        let csa_bytes = std::fs::read(format!("{DATA}bod{i}.csa")).expect("fixture");
        let kif_bytes = std::fs::read(format!("{DATA}bod{i}.kifu")).expect("fixture");
        for rec in [
            csa::parse_csa(&text::decode(&csa_bytes)).expect("CSA parses"),
            kif::parse_kif(&text::decode(&kif_bytes)).expect("KIF parses"),
        ] {
            assert_eq!(board_part(&rec.start_sfen), board_part(start));
            let got: Vec<String> = rec.moves.iter().map(|m| m.mv.to_usi()).collect();
            assert_eq!(got, want);
            n += 1;
        }
    }
    assert_eq!(n, 6);
}
