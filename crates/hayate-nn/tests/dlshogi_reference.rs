//! Exactness against cshogi: `data/dl/dlshogi-features*.jsonl` hold, for 200 positions each, the
//! non-zero cells of input1, the set planes of input2 and the label of every legal move.

use hayate_core::Position;
use hayate_nn::jsonl::features_json_line;
use hayate_nn::{DlshogiFeatures, label_to_move, move_label};
use serde_json::Value;
use std::collections::BTreeMap;

const DATA: &str = "/work/shared/data/dl";

fn load(name: &str) -> Vec<Value> {
    let path = format!("{DATA}/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

fn indices(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_u64().expect("index") as usize)
        .collect()
}

fn labels(v: &Value) -> BTreeMap<String, u64> {
    v.as_object()
        .expect("object")
        .iter()
        .map(|(k, x)| (k.clone(), x.as_u64().expect("label")))
        .collect()
}

fn check_file(name: &str, nyugyoku: bool) {
    let records = load(name);
    let raw = std::fs::read_to_string(format!("{DATA}/{name}")).expect("file");
    let lines: Vec<&str> = raw.lines().collect();
    assert_eq!(records.len(), 200);
    for (i, r) in records.iter().enumerate() {
        let sfen = r["sfen"].as_str().expect("sfen");
        let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e:?}"));
        let f = DlshogiFeatures::new(&pos, nyugyoku);
        let f1: Vec<usize> = f.input1_nonzero().collect();
        assert_eq!(f1, indices(&r["f1"]), "input1 of record {i}: {sfen}");
        let f2: Vec<usize> = f.input2_set().collect();
        assert_eq!(f2, indices(&r["f2"]), "input2 of record {i}: {sfen}");
        // The f32 expansion agrees with the index lists.
        let mut a1 = vec![0.5f32; 62 * 81];
        f.write_input1(&mut a1);
        let nz1: Vec<usize> = (0..a1.len()).filter(|&j| a1[j] != 0.0).collect();
        assert!(a1.iter().all(|&x| x == 0.0 || x == 1.0));
        assert_eq!(nz1, f1);
        let mut a2 = vec![0.5f32; f.input2_planes() * 81];
        f.write_input2(&mut a2);
        let nz2: Vec<usize> = (0..a2.len())
            .filter(|&j| a2[j] != 0.0)
            .map(|j| j / 81)
            .collect();
        let expanded: Vec<usize> = f2
            .iter()
            .flat_map(|&p| std::iter::repeat_n(p, 81))
            .collect();
        assert_eq!(nz2, expanded);
        let want = labels(&r["labels"]);
        let us = pos.side_to_move();
        let got: BTreeMap<String, u64> = pos
            .legal_moves()
            .iter()
            .map(|m| (m.to_usi(), move_label(*m, us) as u64))
            .collect();
        assert_eq!(got, want, "labels of record {i}: {sfen}");
        for m in pos.legal_moves().iter() {
            assert_eq!(
                label_to_move(&pos, move_label(*m, us)),
                Some(*m),
                "{sfen} {m}"
            );
        }
        // The dump line is the reference line, byte for byte (labels in cshogi's move order).
        let text = features_json_line(sfen, &pos, nyugyoku);
        assert_eq!(text, lines[i], "dump of record {i}");
        let line: Value = serde_json::from_str(&text).expect("dump");
        assert_eq!(line["sfen"], r["sfen"]);
        assert_eq!(indices(&line["f1"]), indices(&r["f1"]));
        assert_eq!(indices(&line["f2"]), indices(&r["f2"]));
        assert_eq!(labels(&line["labels"]), want);
    }
}

#[test]
fn dlshogi_features_match_cshogi() {
    check_file("dlshogi-features.jsonl", false);
}

#[test]
fn dlshogi_features_with_nyugyoku_planes_match_cshogi() {
    check_file("dlshogi-features-nyugyoku.jsonl", true);
}

#[test]
fn compact_mapping_equals_valid_labels_file() {
    let text = std::fs::read_to_string(format!("{DATA}/valid-labels-1496.txt")).expect("file");
    let want: Vec<u16> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().parse().expect("label"))
        .collect();
    assert_eq!(want.len(), hayate_nn::COMPACT_LABEL_NUM);
    assert_eq!(&hayate_nn::compact::COMPACT_TO_FULL[..], &want[..]);
    for (i, &label) in want.iter().enumerate() {
        assert_eq!(hayate_nn::compact_label(label), Some(i as u16));
        assert_eq!(hayate_nn::full_label(i as u16), Some(label));
    }
    let invalid = (0..hayate_nn::LABEL_NUM as u16)
        .filter(|&l| hayate_nn::compact_label(l).is_none())
        .count();
    assert_eq!(invalid, 691);
}
