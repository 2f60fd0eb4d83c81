//! Damaged input never panics: every parser and reader returns a value or an error.

mod common;

use hayate_records::game::{csa, jkf, ki2, kif, text};
use hayate_records::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");

/// Random damage: flipped bytes, cut tails, inserted characters (some multi-byte).
fn mutate(rng: &mut common::Rng, src: &[u8]) -> Vec<u8> {
    let mut v = src.to_vec();
    for _ in 0..1 + rng.below(4) {
        if v.is_empty() {
            break;
        }
        let i = rng.below(v.len());
        match rng.below(4) {
            0 => v[i] ^= 1 << rng.below(8),
            1 => v.truncate(i),
            2 => {
                let s = [
                    "あ", "同", "+", "P", ",", "%", "\n", "(", "9", "{", "\"", "▲",
                ][rng.below(12)];
                v.splice(i..i, s.bytes());
            }
            _ => {
                v.remove(i);
            }
        }
    }
    v
}

#[test]
fn damaged_text_records_do_not_panic() {
    let mut rng = common::Rng::new(7);
    let mut sources: Vec<(String, Vec<u8>)> = Vec::new();
    for i in 0..4 {
        for ext in ["csa", "kif", "kifu", "ki2"] {
            let bytes = std::fs::read(format!("{DATA}game{i}.{ext}")).expect("fixture");
            sources.push((ext.to_string(), bytes));
        }
    }
    let rec = common::random_game(&mut rng, true, false);
    sources.push((
        "jkf".into(),
        jkf::write_jkf(&rec).expect("writes").into_bytes(),
    ));
    sources.push((
        "csa".into(),
        csa::write_csa(&common::random_game(&mut rng, false, false))
            .expect("writes")
            .into_bytes(),
    ));
    let mut errors = 0;
    for round in 0..3000 {
        let (ext, src) = &sources[round % sources.len()];
        let bad = mutate(&mut rng, src);
        let t = text::decode(&bad);
        let r = match ext.as_str() {
            "csa" => csa::parse_csa_multi(&t).map(|_| ()),
            "kif" | "kifu" => kif::parse_kif(&t).map(|_| ()),
            "ki2" => ki2::parse_ki2(&t).map(|_| ()),
            _ => jkf::parse_jkf(&t).map(|_| ()),
        };
        errors += r.is_err() as usize;
    }
    assert!(errors > 100, "damage should often be detected: {errors}");
}

#[test]
fn damaged_training_data_does_not_panic() {
    let mut rng = common::Rng::new(8);
    let hcpe = std::fs::read(format!("{DATA}sample.hcpe")).expect("fixture");
    let psv = std::fs::read(format!("{DATA}sample.psv")).expect("fixture");
    let hcpe3 = std::fs::read(format!("{DATA}sample.hcpe3")).expect("fixture");
    for _ in 0..300 {
        for (policy, _) in [(ErrorPolicy::Skip, 0), (ErrorPolicy::Stop, 1)] {
            let b = mutate(&mut rng, &hcpe);
            for r in HcpeReader::new(&b[..], policy).flatten() {
                if let Ok(pos) = r.position() {
                    let _ = r.best_move(&pos);
                }
            }
            let b = mutate(&mut rng, &psv);
            for r in PsvReader::new(&b[..], policy).flatten() {
                if let Ok(pos) = r.position() {
                    let _ = r.best_move(&pos);
                }
            }
            let b = mutate(&mut rng, &hcpe3);
            for g in Hcpe3Reader::new(&b[..], policy).flatten() {
                let _ = g.replay(|_, _, _| {});
                let _ = convert::hcpe3_to_game(&g);
            }
        }
    }
}
