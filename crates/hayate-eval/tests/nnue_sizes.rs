//! Every NNUE shape Hayate evaluates, against the reference engine: a random net of each shape
//! (regenerated from its seed), its evaluations equal to the values YaneuraOu gave for the same
//! file (`fixtures/nnue_sizes.txt`, which says how they were recorded), on every instruction
//! set; the incremental stack equal to a refresh along random games; the layers' padding
//! ignored as YaneuraOu ignores it. The largest net (HalfKPE9) is 578 MB: the file takes a few
//! seconds in release builds, on two cores.

mod common;

use common::Lcg;
use hayate_core::Position;
use hayate_eval::nnue::shape::{FeatureSet, KNOWN_SIZES, Shape};
use hayate_eval::nnue::{RandomNetParams, random_net_bytes_of};
use hayate_eval::{AnyNnue, Evaluator, Isa, with_nnue};

/// One fixture line: the shape, the generator's seed, YaneuraOu's value and the SFEN.
struct Case {
    shape: Shape,
    seed: u64,
    value: i32,
    sfen: String,
}

fn cases() -> Vec<Case> {
    include_str!("fixtures/nnue_sizes.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.splitn(4, ' ');
            let mut next = || f.next().expect("4 fields");
            Case {
                shape: Shape::from_name(next()).expect("[FEATURES_]HALFx2-H1-H2"),
                seed: next().parse().expect("seed"),
                value: next().parse().expect("value"),
                sfen: next().to_string(),
            }
        })
        .collect()
}

fn net(shape: &Shape, seed: u64) -> AnyNnue {
    let bytes = random_net_bytes_of(shape, &RandomNetParams::for_shape(shape, seed));
    assert_eq!(bytes.len(), shape.file_size(shape.text().len()));
    let net = AnyNnue::from_bytes(&bytes).expect("the generated net is valid");
    assert_eq!(net.shape(), *shape);
    net
}

/// The fixture's values for `name`'s shape on every instruction set, then random games.
fn check(name: &str) {
    let shape = Shape::from_name(name).expect("a shape");
    let cases: Vec<Case> = cases().into_iter().filter(|c| c.shape == shape).collect();
    assert!(
        cases.len() >= 10,
        "{}: {} fixture lines",
        shape.name(),
        cases.len()
    );
    let seed = cases[0].seed;
    assert!(cases.iter().all(|c| c.seed == seed));
    let any = net(&shape, seed);
    for isa in Isa::ALL.into_iter().filter(|i| i.is_available()) {
        let n = any.with_isa(isa).expect("available");
        let bad: Vec<String> = cases
            .iter()
            .filter_map(|c| {
                let pos = Position::from_sfen(&c.sfen).expect("valid sfen");
                let got = n.evaluate_once(&pos);
                (got != c.value).then(|| format!("{}: got {got}, want {}", c.sfen, c.value))
            })
            .collect();
        assert!(
            bad.is_empty(),
            "{} {isa:?}:\n{}",
            shape.name(),
            bad.join("\n")
        );
        with_nnue!(&n, e => incremental_equals_refresh(e, shape.half as u64));
    }
    // Not every value clipped alike: the evaluations differ from position to position.
    let mut values: Vec<i32> = cases.iter().map(|c| c.value).collect();
    values.sort_unstable();
    values.dedup();
    assert!(values.len() >= cases.len() / 2, "{values:?}");
}

/// Random games: the stack's evaluation after every move equals one from scratch.
fn incremental_equals_refresh<E: Evaluator>(e: &E, seed: u64) {
    let mut rng = Lcg(seed);
    for _game in 0..3 {
        let mut pos = Position::startpos();
        let mut st = e.new_stack();
        e.reset(&mut st, &pos);
        let mut played = Vec::new();
        for _ply in 0..120 {
            let Some(m) = rng.play_random(&mut pos) else {
                break;
            };
            e.push(&mut st, &pos, m);
            played.push(m);
            if rng.below(3) == 0 {
                let mut fresh = e.new_stack();
                e.reset(&mut fresh, &pos);
                assert_eq!(e.evaluate(&mut st, &pos), e.evaluate(&mut fresh, &pos));
            }
        }
        while let Some(m) = played.pop() {
            pos.undo_move(m);
            e.pop(&mut st);
            if rng.below(4) == 0 {
                assert_eq!(e.evaluate(&mut st, &pos), e.evaluate_once(&pos));
            }
        }
    }
}

#[test]
fn the_fixture_covers_every_supported_shape() {
    let cases = cases();
    for shape in AnyNnue::SHAPES {
        let n = cases.iter().filter(|c| c.shape == *shape).count();
        assert!(n >= 10, "{}: {n} lines", shape.name());
    }
    let halfkp: Vec<(usize, usize, usize)> = AnyNnue::SHAPES
        .iter()
        .filter(|s| s.features == FeatureSet::HalfKp)
        .map(|s| (s.half, s.h1, s.h2))
        .collect();
    assert_eq!(halfkp, KNOWN_SIZES);
}

#[test]
fn halfkp_256x2_32_32_matches_yaneuraou() {
    check("256x2-32-32");
}

#[test]
fn halfkp_512x2_8_64_matches_yaneuraou() {
    check("512x2-8-64");
}

#[test]
fn halfkp_512x2_8_96_matches_yaneuraou() {
    check("512x2-8-96");
}

#[test]
fn halfkp_512x2_16_32_matches_yaneuraou() {
    check("512x2-16-32");
}

#[test]
fn halfkp_768x2_16_64_matches_yaneuraou() {
    check("768x2-16-64");
}

#[test]
fn halfkp_1024x2_8_32_matches_yaneuraou() {
    check("1024x2-8-32");
}

#[test]
fn halfkp_1024x2_8_64_matches_yaneuraou() {
    check("1024x2-8-64");
}

#[test]
fn halfkp_1536x2_16_64_matches_yaneuraou() {
    check("1536x2-16-64");
}

#[test]
fn halfkp_vm_256x2_32_32_matches_yaneuraou() {
    check("HalfKP_vm_256x2-32-32");
}

/// 578 MB: nine HalfKP transformers.
#[test]
fn halfkpe9_256x2_32_32_matches_yaneuraou() {
    check("HalfKPE9_256x2-32-32");
}

#[test]
fn halfka1_256x2_32_32_matches_yaneuraou() {
    check("HalfKA1_256x2-32-32");
}

#[test]
fn halfka_hm1_256x2_32_32_matches_yaneuraou() {
    check("HalfKA_hm1_256x2-32-32");
}

#[test]
fn halfka2_256x2_32_32_matches_yaneuraou() {
    check("HalfKA2_256x2-32-32");
}

#[test]
fn halfka_hm2_256x2_32_32_matches_yaneuraou() {
    check("HalfKA_hm2_256x2-32-32");
}

/// The file pads short weight rows to 32 inputs; the padding is never read (YaneuraOu's
/// kernels stop at the layer's inputs): changing it changes no evaluation.
#[test]
fn the_row_padding_is_ignored() {
    let shape = Shape {
        features: FeatureSet::HalfKp,
        half: 512,
        h1: 8,
        h2: 64,
    };
    let mut bytes = random_net_bytes_of(&shape, &RandomNetParams::for_shape(&shape, 5));
    let a = AnyNnue::from_bytes(&bytes).expect("valid");
    // The second layer: 64 rows of 8 inputs padded to 32, after its 64 biases and before the
    // output layer (1 bias, 64 weights).
    let l2_end = bytes.len() - (4 + 64);
    let l2_start = l2_end - 64 * 32;
    for row in 0..64 {
        for i in 8..32 {
            let at = l2_start + row * 32 + i;
            bytes[at] = bytes[at].wrapping_add(37);
        }
    }
    let b = AnyNnue::from_bytes(&bytes).expect("still valid");
    let mut rng = Lcg(9);
    let mut pos = Position::startpos();
    for _ in 0..40 {
        assert_eq!(
            a.evaluate_once(&pos),
            b.evaluate_once(&pos),
            "{}",
            pos.to_sfen()
        );
        if rng.play_random(&mut pos).is_none() {
            break;
        }
    }
    // A change inside the rows does show.
    bytes[l2_start] = bytes[l2_start].wrapping_add(100);
    bytes[l2_start + 32] = bytes[l2_start + 32].wrapping_add(100);
    let c = AnyNnue::from_bytes(&bytes).expect("still valid");
    let mut pos = Position::startpos();
    let mut differs = false;
    for _ in 0..40 {
        differs |= a.evaluate_once(&pos) != c.evaluate_once(&pos);
        if rng.play_random(&mut pos).is_none() {
            break;
        }
    }
    assert!(differs);
}
