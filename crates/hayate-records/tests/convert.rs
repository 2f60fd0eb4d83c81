//! Conversions between records and training data.

mod common;

use hayate_records::convert::*;
use hayate_records::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");

#[test]
fn hcpe_psv_hcpe_is_the_identity_on_the_fixture() {
    let bytes = std::fs::read(format!("{DATA}sample.hcpe")).expect("fixture");
    for h in HcpeReader::new(&bytes[..], ErrorPolicy::Stop) {
        let h = h.expect("reads");
        let p = hcpe_to_psv(&h).expect("converts");
        assert_eq!(psv_to_hcpe(&p).expect("converts"), h);
    }
}

#[test]
fn games_to_training_data() {
    let mut rng = common::Rng::new(5);
    let (mut games, mut positions) = (0, 0);
    for _ in 0..100 {
        let rec = common::random_game(&mut rng, true, false);
        let mut hcpe = Vec::new();
        let mut psv = Vec::new();
        match game_to_hcpe(&rec, &mut hcpe) {
            Err(ConvertError::NoResult) => {
                assert_eq!(rec.outcome(), Outcome::None);
                continue;
            }
            r => assert_eq!(r.expect("converts"), rec.moves.len()),
        }
        game_to_psv(&rec, &mut psv).expect("converts");
        let mut pos = rec.start_position().expect("valid");
        for ((e, h), p) in rec.moves.iter().zip(&hcpe).zip(&psv) {
            let hp = h.position().expect("valid");
            assert_eq!(hp.board(), pos.board());
            assert_eq!(h.best_move(&hp), Some(e.mv));
            let pp = p.position().expect("valid");
            assert_eq!(pp.to_sfen(), pos.to_sfen());
            assert_eq!(p.best_move(&pp), Some(e.mv));
            pos.do_move(e.mv);
        }
        // hcpe3 and back: the same moves; the ending is inferred from the result.
        let g = game_to_hcpe3(&rec).expect("converts");
        let back = hcpe3_to_game(&g).expect("replays");
        let a: Vec<_> = rec.moves.iter().map(|e| e.mv).collect();
        let b: Vec<_> = back.moves.iter().map(|e| e.mv).collect();
        assert_eq!(a, b);
        assert_eq!(back.outcome(), rec.outcome());
        games += 1;
        positions += hcpe.len();
    }
    assert!(games > 50 && positions > 1000, "{games} {positions}");
}

#[test]
fn comment_evals_are_black_relative() {
    let rec = hayate_records::game::csa::parse_csa(
        "PI\n+\n+7776FU\n'** 120 -3334FU\n-3334FU\n'** 80 +2726FU\n%TORYO\n",
    )
    .expect("parses");
    let mut out = Vec::new();
    game_to_hcpe(&rec, &mut out).expect("converts");
    assert_eq!(out[0].eval, 120);
    assert_eq!(out[1].eval, -80);
    assert_eq!(out[0].game_result(), GameResult::WhiteWin);
}

/// Writes files for the cshogi cross-check (`python tests/data/check_oracle.py DIR`).
#[test]
#[ignore]
fn write_oracle_files() {
    let dir = std::env::var("ORACLE_DIR").unwrap_or_else(|_| "/tmp/hayate-records-oracle".into());
    std::fs::create_dir_all(&dir).expect("dir");
    let mut rng = common::Rng::new(6);
    let mut psv_w = RecordWriter::new(std::fs::File::create(format!("{dir}/out.psv")).expect("f"));
    let mut hcpe_w =
        RecordWriter::new(std::fs::File::create(format!("{dir}/out.hcpe")).expect("f"));
    let mut g3_w = RecordWriter::new(std::fs::File::create(format!("{dir}/out.hcpe3")).expect("f"));
    let mut sfens = String::new();
    let mut g3_text = String::new();
    for gi in 0..300 {
        let rec = common::random_game(&mut rng, true, true);
        let mut psv = Vec::new();
        let mut hcpe = Vec::new();
        if game_to_psv(&rec, &mut psv).is_err() {
            continue;
        }
        game_to_hcpe(&rec, &mut hcpe).expect("converts");
        for (p, h) in psv.iter().zip(&hcpe) {
            let pos = p.position().expect("valid");
            sfens += &format!("{}\t{}\n", pos.to_sfen(), p.best_move(&pos).expect("legal"));
            psv_w.write(p).expect("w");
            hcpe_w.write(h).expect("w");
        }
        // hcpe3 with made-up visit counts over several legal moves.
        let mut g = game_to_hcpe3(&rec).expect("converts");
        let mut pos = rec.start_position().expect("valid");
        for (i, (info, e)) in g.moves.iter_mut().zip(&rec.moves).enumerate() {
            let legal = pos.legal_moves();
            info.candidates.clear();
            for (k, m) in legal.iter().take(1 + (gi + i) % 5).enumerate() {
                info.candidates.push(MoveVisits {
                    move16: AperyMove16::from_move(*m),
                    visits: ((gi * 131 + i * 17 + k * 7) % 65536) as u16,
                });
            }
            g3_text += &format!(
                "{}\t{}\t{}\n",
                pos.to_sfen(),
                e.mv,
                info.candidates
                    .iter()
                    .map(|c| format!("{}:{}", c.move16.to_move(&pos).expect("legal"), c.visits))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            pos.do_move(e.mv);
        }
        g3_w.write(&g).expect("w");
    }
    // Game records for cshogi's CSA, KIF and KI2 parsers.
    let mut list = String::new();
    for gi in 0..100 {
        // Every other game from a random position (CSA P lines, KIF board diagrams).
        let rec = common::random_game(&mut rng, true, gi % 2 == 0);
        let usi: Vec<String> = rec.moves.iter().map(|e| e.mv.to_usi()).collect();
        list += &format!("{gi}\t{}\t{}\n", rec.start_sfen, usi.join(" "));
        for (ext, fmt, enc) in [
            ("csa", GameFormat::Csa, TextEncoding::Utf8),
            ("kif", GameFormat::Kif, TextEncoding::ShiftJis),
            ("ki2", GameFormat::Ki2, TextEncoding::ShiftJis),
        ] {
            let bytes = fmt.write_bytes(&rec, enc).expect("writes");
            std::fs::write(format!("{dir}/game{gi}.{ext}"), bytes).expect("w");
        }
    }
    std::fs::write(format!("{dir}/games.txt"), list).expect("w");
    psv_w.finish().expect("flush");
    hcpe_w.finish().expect("flush");
    g3_w.finish().expect("flush");
    std::fs::write(format!("{dir}/out.psv.txt"), sfens).expect("w");
    std::fs::write(format!("{dir}/out.hcpe3.txt"), g3_text).expect("w");
}
