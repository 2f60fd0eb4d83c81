//! NNUE HalfKP against the reference column (scalar and SIMD), incremental == refresh along
//! random games, and malformed files as typed errors.

mod common;

use common::{Lcg, expected, positions};
use hayate_core::Position;
use hayate_eval::nnue::shape::{FeatureSet, Shape};
use hayate_eval::nnue::{NnueFault, RandomNetParams, random_net_bytes};
use hayate_eval::{Evaluator, Isa, Nnue};
use std::sync::OnceLock;

/// The reference test net ("netA": the Python generator's defaults), generated once.
fn net_bytes() -> &'static [u8] {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| random_net_bytes(&RandomNetParams::default()))
}

fn net() -> &'static Nnue {
    static N: OnceLock<Nnue> = OnceLock::new();
    N.get_or_init(|| Nnue::from_bytes(net_bytes()).expect("the generated net is valid"))
}

fn isas() -> Vec<Isa> {
    Isa::ALL.into_iter().filter(|i| i.is_available()).collect()
}

#[test]
fn generated_net_has_the_documented_size() {
    use hayate_eval::nnue::arch::{ARCH_TEXT, file_size};
    // What the Python generator writes (its text is the sparse-input variant).
    assert_eq!(net_bytes().len(), 64_217_077);
    assert_eq!(file_size(ARCH_TEXT.len()), 64_217_077);
}

#[test]
fn nnue_matches_reference_column_for_all_200_positions_on_every_isa() {
    let sfens = positions();
    let want = expected(2);
    assert_eq!(want.len(), 200);
    for isa in isas() {
        let n = net().with_isa(isa).expect("available");
        let mut bad = Vec::new();
        for (s, &e) in sfens.iter().zip(&want) {
            let pos = Position::from_sfen(s).expect("valid sfen");
            let got = n.evaluate_once(&pos);
            if got != e {
                bad.push(format!("{s}: got {got}, want {e}"));
            }
        }
        assert!(
            bad.is_empty(),
            "{isa:?}: {} wrong\n{}",
            bad.len(),
            bad.join("\n")
        );
    }
}

#[test]
fn nnue_incremental_equals_refresh_along_random_games() {
    let mut rng = Lcg(2024);
    for isa in isas() {
        let n = net().with_isa(isa).expect("available");
        for game in 0..12 {
            let mut pos = Position::startpos();
            let mut st = n.new_stack();
            n.reset(&mut st, &pos);
            let mut played = Vec::new();
            for ply in 0..250 {
                let Some(m) = rng.play_random(&mut pos) else {
                    break;
                };
                n.push(&mut st, &pos, m);
                played.push(m);
                if ply % 17 == 5 {
                    n.push_null(&mut st, &pos);
                    if ply % 2 == 1 {
                        assert_eq!(n.evaluate(&mut st, &pos), n.evaluate_scratch(&pos));
                    }
                    n.pop(&mut st);
                }
                // The stack computes lazily: skip most evaluations, so that one evaluation
                // covers several plies (a king move among them, sometimes).
                if rng.below(4) != 0 {
                    continue;
                }
                let inc = n.evaluate(&mut st, &pos);
                let scratch = n.evaluate_scratch(&pos);
                assert_eq!(inc, scratch, "{isa:?} game {game} {}", pos.to_sfen());
                let full = n.refresh(&pos);
                let mut top = n.new_stack();
                n.reset(&mut top, &pos);
                assert_eq!(n.evaluate(&mut top, &pos), inc);
                assert!(full.valid);
            }
            while let Some(m) = played.pop() {
                pos.undo_move(m);
                n.pop(&mut st);
                if rng.below(3) == 0 {
                    assert_eq!(n.evaluate(&mut st, &pos), n.evaluate_scratch(&pos));
                }
            }
        }
    }
}

/// `Nnue::updated` (one step at once, outside a stack) equals a refresh along random games.
#[test]
fn one_step_updates_equal_refresh_along_random_games() {
    let mut rng = Lcg(77);
    let n = net();
    for _game in 0..4 {
        let mut pos = Position::startpos();
        let mut acc = n.refresh(&pos);
        for _ply in 0..200 {
            let Some(m) = rng.play_random(&mut pos) else {
                break;
            };
            acc = n.updated(&acc, &pos, m);
            let full = n.refresh(&pos);
            assert!(acc.valid && full.valid);
            assert_eq!(acc.halves, full.halves, "{}", pos.to_sfen());
        }
    }
}

#[test]
fn every_isa_gives_the_scalar_accumulators_and_outputs() {
    let scalar = net().with_isa(Isa::Scalar).expect("always");
    for isa in isas() {
        let n = net().with_isa(isa).expect("available");
        for s in positions().iter().take(50) {
            let pos = Position::from_sfen(s).expect("valid");
            let (a, b) = (scalar.refresh(&pos), n.refresh(&pos));
            assert_eq!(a.halves, b.halves, "{isa:?} {s}");
            for stm in [hayate_core::Color::Black, hayate_core::Color::White] {
                assert_eq!(
                    scalar.evaluate_accumulator(&a, stm),
                    n.evaluate_accumulator(&b, stm)
                );
            }
        }
    }
}

fn fault(bytes: &[u8]) -> NnueFault {
    Nnue::from_bytes(bytes).expect_err("malformed").fault
}

#[test]
fn malformed_nets_are_typed_errors() {
    let good = net_bytes();
    assert!(matches!(fault(&[]), NnueFault::TruncatedHeader { len: 0 }));
    assert!(matches!(
        fault(&good[..100]),
        NnueFault::TruncatedHeader { len: 100 }
    ));
    assert!(matches!(fault(&good[..1000]), NnueFault::Truncated { .. }));
    assert!(matches!(
        fault(&good[..good.len() - 1]),
        NnueFault::Truncated { .. }
    ));
    let mut longer = good.to_vec();
    longer.push(0);
    assert!(matches!(fault(&longer), NnueFault::TrailingBytes { .. }));

    let mut bad = good.to_vec();
    bad[0] ^= 1;
    assert!(matches!(fault(&bad), NnueFault::BadVersion { .. }));
    let mut bad = good.to_vec();
    bad[4] ^= 1;
    assert!(matches!(
        fault(&bad),
        NnueFault::BadHash {
            section: "file",
            ..
        }
    ));
    // The text length field pointing past the end of the file.
    let mut bad = good.to_vec();
    bad[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(fault(&bad), NnueFault::TruncatedHeader { .. }));
    // Another architecture text of the same length.
    let mut bad = good.to_vec();
    let at = 12
        + bad[12..]
            .windows(6)
            .position(|w| w == b"HalfKP")
            .expect("text");
    bad[at..at + 6].copy_from_slice(b"HalfKA");
    assert!(matches!(
        fault(&bad),
        NnueFault::UnsupportedArchitecture { .. }
    ));
    // A net of another architecture is named in the error.
    let big = Shape {
        features: FeatureSet::HalfKpVm,
        half: 256,
        h1: 32,
        h2: 32,
    };
    let text = big.text();
    let mut other = Vec::new();
    for w in [0x7AF3_2F16u32, big.file_hash(), text.len() as u32] {
        other.extend_from_slice(&w.to_le_bytes());
    }
    other.extend_from_slice(text.as_bytes());
    other.resize(big.file_size(text.len()), 0);
    let message = fault(&other).to_string();
    assert!(message.starts_with("HalfKP_vm 256x2-32-32"), "{message}");
    let text_len = u32::from_le_bytes([good[8], good[9], good[10], good[11]]) as usize;
    let mut bad = good.to_vec();
    bad[12 + text_len] ^= 0xFF;
    assert!(matches!(
        fault(&bad),
        NnueFault::BadHash {
            section: "feature transformer",
            ..
        }
    ));
    let net_hash_at = 12 + text_len + 4 + 512 + 2 * 256 * 125_388;
    let mut bad = good.to_vec();
    bad[net_hash_at] ^= 0xFF;
    assert!(matches!(
        fault(&bad),
        NnueFault::BadHash {
            section: "network",
            ..
        }
    ));
}

#[test]
fn load_errors_name_the_file() {
    let dir = std::env::temp_dir().join(format!("hayate-eval-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let missing = dir.join("missing.bin");
    let e = Nnue::load(&missing).expect_err("missing file");
    assert!(matches!(e.fault, NnueFault::Io(_)));
    assert!(e.to_string().contains("missing.bin"), "{e}");
    let short = dir.join("short.bin");
    std::fs::write(&short, &net_bytes()[..1000]).expect("write");
    let e = Nnue::load(&short).expect_err("short file");
    assert!(
        e.to_string().contains("short.bin") && e.to_string().contains("truncated"),
        "{e}"
    );
    let good = dir.join("nn.bin");
    std::fs::write(&good, net_bytes()).expect("write");
    let n = Nnue::load(&good).expect("valid file");
    let pos = Position::startpos();
    assert_eq!(n.evaluate_once(&pos), net().evaluate_once(&pos));
    std::fs::remove_dir_all(&dir).ok();
}

/// Run by hand once the Python generator has written its file:
/// `HAYATE_PY_NET=/tmp/netA/nn.bin cargo test ... -- --ignored generated_net_equals`.
#[test]
#[ignore]
fn generated_net_equals_python_output_byte_for_byte() {
    let path = std::env::var("HAYATE_PY_NET").expect("set HAYATE_PY_NET to the Python output");
    let py = std::fs::read(path).expect("readable");
    assert_eq!(py.len(), net_bytes().len());
    assert!(py == net_bytes());
}

#[test]
fn nnue_without_a_king_falls_back_to_material() {
    use hayate_eval::Material;
    // A mate problem: the attacker (Black) has no king.
    let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").expect("valid");
    let n = net();
    assert_eq!(n.evaluate_once(&pos), Material.evaluate_once(&pos));
    let mut st = n.new_stack();
    n.reset(&mut st, &pos);
    let mut pos = pos;
    for m in pos
        .legal_moves()
        .iter()
        .take(5)
        .copied()
        .collect::<Vec<_>>()
    {
        pos.do_move(m);
        n.push(&mut st, &pos, m);
        assert_eq!(n.evaluate(&mut st, &pos), Material.evaluate_once(&pos));
        n.pop(&mut st);
        pos.undo_move(m);
    }
}

#[test]
fn network_to_bytes_writes_back_the_file_it_read() {
    let parsed = hayate_eval::nnue::Network::from_bytes(net_bytes()).expect("valid");
    assert!(
        parsed.to_bytes() == net_bytes(),
        "to_bytes differs from the file"
    );
    let n = net().network();
    let rebuilt = hayate_eval::nnue::Network::from_rows(
        n.ft_bias,
        n.ft_weight.to_vec(),
        n.l1_bias,
        &n.l1_rows(),
        n.l2_bias,
        &n.l2_rows(),
        n.out_bias,
        n.out_weight,
    );
    assert!(
        rebuilt.to_bytes() == net_bytes(),
        "from_rows changed the layers"
    );
}
