//! df-pn against `shared/data/mate/exact-short.tsv`, and the rules cases (pawn-drop mate, nifu,
//! dead-piece drops, perpetual check) in attack and defence.

use hayate_core::Move;
use hayate_core::Position;
use hayate_mate::{
    Defence, DfpnOptions, MateResult, check_mate_line, check_mate_line_with, mate_in_with, solve,
    solve_with_report,
};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/mate/exact-short.tsv"
);

fn problems() -> Vec<(String, bool, usize)> {
    let text = std::fs::read_to_string(DATA)
        .expect("shared/data/mate/exact-short.tsv beside the checkout");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1] == "mate",
                f[2].parse().expect("plies"),
            )
        })
        .collect()
}

fn opts() -> DfpnOptions {
    DfpnOptions {
        time_limit: Some(Duration::from_secs(20)),
        max_nodes: Some(20_000_000),
        hash_mb: 16,
        defence: Defence::NoFutileDrops,
        ..DfpnOptions::default()
    }
}

fn solve_sfen(sfen: &str, o: &DfpnOptions) -> (Position, MateResult) {
    let pos = Position::from_sfen(sfen).expect("valid sfen");
    let r = solve(&pos, o, &AtomicBool::new(false));
    (pos, r)
}

#[test]
fn dfpn_answers_every_exact_short_problem() {
    for (sfen, mate, plies) in problems() {
        let (pos, r) = solve_sfen(&sfen, &opts());
        match r {
            MateResult::Mate(line) => {
                check_mate_line_with(&pos, &line, Defence::NoFutileDrops)
                    .unwrap_or_else(|e| panic!("{sfen}: {e}"));
                if mate {
                    assert_eq!(line.len(), plies, "{sfen}: mate length");
                } else {
                    assert!(
                        line.len() > plies,
                        "{sfen}: no mate within {plies}, got {}",
                        line.len()
                    );
                }
            }
            MateResult::NoMate => assert!(!mate, "{sfen}: is a mate in {plies}"),
            MateResult::Timeout => panic!("{sfen}: timeout"),
        }
    }
}

/// Under the rules of the game (every legal evasion counts, futile drops included) the lines
/// end in checkmate, and no mate is shorter than the convention's.
#[test]
fn dfpn_under_game_rules_gives_rules_checkmates() {
    let o = DfpnOptions {
        defence: Defence::AllLegal,
        ..opts()
    };
    for (sfen, mate, plies) in problems() {
        let (pos, r) = solve_sfen(&sfen, &o);
        match r {
            MateResult::Mate(line) => {
                check_mate_line(&pos, &line).unwrap_or_else(|e| panic!("{sfen}: {e}"));
                if mate {
                    assert!(line.len() >= plies, "{sfen}");
                } else {
                    assert!(line.len() > plies, "{sfen}");
                }
            }
            MateResult::NoMate => assert!(!mate, "{sfen}: is a mate in {plies}"),
            MateResult::Timeout => panic!("{sfen}: timeout"),
        }
    }
}

/// df-pn's own line, before the exact fixed-depth pass: a checkmate sequence, never shorter
/// than the shortest mate. Prints how many already have the exact length.
#[test]
fn dfpn_raw_lines_are_mates() {
    let o = DfpnOptions {
        exact_line_plies: 0,
        ..opts()
    };
    let (mut exact, mut total) = (0, 0);
    for (sfen, mate, plies) in problems() {
        if !mate {
            continue;
        }
        let (pos, r) = solve_sfen(&sfen, &o);
        let MateResult::Mate(line) = r else {
            panic!("{sfen}: {r:?}")
        };
        check_mate_line_with(&pos, &line, Defence::NoFutileDrops)
            .unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert!(line.len() >= plies, "{sfen}");
        total += 1;
        exact += (line.len() == plies) as u32;
    }
    eprintln!("df-pn raw lines of exact length: {exact}/{total}");
}

/// Every defender move of `line` is a longest resistance: after it, no mate within two plies
/// less than the line has left (checked by the fixed-depth search, independent of df-pn).
fn assert_longest_resistance(pos: &Position, line: &[Move], defence: Defence, what: &str) {
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        p.do_move(m);
        let left = (line.len() - i - 1) as u32;
        if i % 2 == 1 && left >= 3 {
            assert!(
                mate_in_with(&mut p, left - 2, defence).is_none(),
                "{what}: defender move {} ({m}) is not a longest resistance",
                i + 1
            );
        }
    }
}

/// The post-search alone (no fixed-depth pass) proves the shortest mate and reads off a line of
/// longest resistances, in both conventions.
#[test]
fn post_search_proves_the_exact_length_in_both_conventions() {
    for defence in [Defence::NoFutileDrops, Defence::AllLegal] {
        let o = DfpnOptions {
            exact_line_plies: 0,
            post_search: true,
            defence,
            ..opts()
        };
        for (sfen, mate, plies) in problems() {
            let pos = Position::from_sfen(&sfen).expect("valid sfen");
            let rep = solve_with_report(&pos, &o, &AtomicBool::new(false));
            let what = format!("{sfen} ({defence:?})");
            match rep.result {
                MateResult::Mate(line) => {
                    check_mate_line_with(&pos, &line, defence)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert!(rep.shortest, "{what}: shortest not proven");
                    if !mate {
                        assert!(line.len() > plies, "{what}: no mate within {plies}");
                    } else if defence == Defence::NoFutileDrops {
                        assert_eq!(line.len(), plies, "{what}: mate length");
                    } else {
                        // Futile drops count under the rules: never shorter, maybe longer.
                        assert!(line.len() >= plies, "{what}: mate length");
                    }
                    assert_longest_resistance(&pos, &line, defence, &what);
                }
                MateResult::NoMate => assert!(!mate, "{what}: is a mate in {plies}"),
                MateResult::Timeout => panic!("{what}: timeout"),
            }
        }
    }
}

#[test]
fn pawn_drop_mate_is_not_a_solution() {
    // The only mating move would be P*9b: illegal, and nothing else mates.
    let (_, r) = solve_sfen("kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1", &opts());
    assert_eq!(r, MateResult::NoMate);
}

#[test]
fn nifu_drop_is_not_a_solution() {
    // Black already has a pawn on file 9: P*9b would mate but is nifu.
    let (_, r) = solve_sfen("kn7/1s7/9/1N7/9/9/9/9/P8 b P2r2b4g3s2n4l16p 1", &opts());
    assert_eq!(r, MateResult::NoMate);
}

#[test]
fn defender_cannot_interpose_a_nifu_pawn() {
    // R*1e checks the king on 1a down file 1; White holds only pawns and already has one on
    // file 1 (1g), so it cannot interpose: mate in one.
    let (pos, r) = solve_sfen("8k/6S2/7G1/9/9/9/8p/9/9 b 2R2B3G3S4N4L17p 1", &opts());
    let MateResult::Mate(line) = r else {
        panic!("{r:?}")
    };
    check_mate_line(&pos, &line).expect("mate");
    assert_eq!(line.len(), 1);
    // Without the pawn on file 1 the interposition is legal and R*1e no longer mates.
    let pos = Position::from_sfen("8k/6S2/7G1/9/9/9/7p1/9/9 b 2R2B3G3S4N4L17p 1").expect("sfen");
    let m = pos.parse_usi_move("R*1e").expect("legal");
    let mut p = pos.clone();
    p.do_move(m);
    assert!(!p.is_checkmate());
}

#[test]
fn defender_cannot_drop_a_dead_knight() {
    // The king on 1i is checked along rank 9; White holds only knights, which may not be
    // dropped on ranks 8 and 9: mate in one.
    let (pos, r) = solve_sfen("9/9/9/9/9/9/7GG/9/8k b 2R2B2G4S4L18P4n 1", &opts());
    let MateResult::Mate(line) = r else {
        panic!("{r:?}")
    };
    check_mate_line(&pos, &line).expect("mate");
    assert_eq!(line.len(), 1);
}

#[test]
fn perpetual_check_is_no_mate() {
    // From komori-n/mate-engine-test: the attacker can only check forever.
    let (_, r) = solve_sfen("6R+P1/8k/7sp/9/9/9/9/9/9 b r2b4g3s4n4l16p 1", &opts());
    assert_eq!(r, MateResult::NoMate);
}

#[test]
fn stop_flag_and_node_limit_give_timeout() {
    let pos = Position::from_sfen("9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1").expect("sfen");
    let stop = AtomicBool::new(true);
    assert_eq!(solve(&pos, &opts(), &stop), MateResult::Timeout);
    let o = DfpnOptions {
        max_nodes: Some(5),
        ..opts()
    };
    let rep = solve_with_report(&pos, &o, &AtomicBool::new(false));
    assert_eq!(rep.result, MateResult::Timeout);
}

#[test]
fn a_tiny_table_still_solves_a_long_mate() {
    // muso036 takes about 10^5 nodes: a 1 MiB table (32768 entries) fills up several times
    // over, so garbage collection and replacement must keep the proof intact.
    let sfen = "3r1g1n1/5+BP1G/3g3k1/3P2n2/3R5/3+b3Pp/7N1/9/9 b GP4sn4l13p 1";
    let o = DfpnOptions {
        hash_mb: 1,
        max_nodes: Some(10_000_000),
        time_limit: Some(Duration::from_secs(30)),
        defence: Defence::AllLegal,
        ..DfpnOptions::default()
    };
    let pos = Position::from_sfen(sfen).expect("valid sfen");
    let rep = solve_with_report(&pos, &o, &AtomicBool::new(false));
    let MateResult::Mate(line) = rep.result else {
        panic!("{:?} after {} nodes", rep.result, rep.nodes)
    };
    check_mate_line(&pos, &line).expect("a checkmate sequence");
}
