//! The check generator (`Stage::Checks`) against the slow way (every legal move filtered by
//! `gives_check`), on the perft positions and along random games from them.

mod common;

use hayate_core::{MoveList, Position, Stage};

fn perft_positions() -> Vec<Position> {
    let v = common::perft_json();
    let mut out = vec![Position::startpos()];
    for case in v.as_object().expect("object").values() {
        if let Some(sfen) = case.get("sfen").and_then(|s| s.as_str()) {
            out.push(Position::from_sfen(sfen).expect("valid sfen"));
        }
    }
    out
}

fn sorted(l: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut v: Vec<u32> = l.collect();
    v.sort_unstable();
    v
}

fn assert_checks_exact(pos: &Position) -> usize {
    let mut l = MoveList::new();
    pos.generate(Stage::Checks, &mut l);
    let got = sorted(l.iter().map(|m| m.raw()));
    let legal = pos.legal_moves();
    let want = sorted(
        legal
            .iter()
            .filter(|&&m| pos.gives_check(m))
            .map(|m| m.raw()),
    );
    assert_eq!(got, want, "{}", pos.to_sfen());
    got.len()
}

#[test]
fn checks_are_exactly_the_legal_moves_that_give_check() {
    let starts = perft_positions();
    assert!(starts.len() > 3);
    // A fixed xorshift walk, 60 plies from each start, until 6,000 positions are checked.
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let (mut done, mut checks, mut in_check) = (0, 0, 0);
    'outer: loop {
        for start in &starts {
            let mut pos = start.clone();
            for _ in 0..60 {
                checks += assert_checks_exact(&pos);
                in_check += usize::from(pos.in_check());
                done += 1;
                if done >= 6000 {
                    break 'outer;
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos.do_move(moves[(rng % moves.len() as u64) as usize]);
            }
        }
    }
    // The walk must have met checks, and positions in check, to prove anything.
    assert!(checks > 1000, "{checks} checks");
    assert!(in_check > 50, "{in_check} positions in check");
}
