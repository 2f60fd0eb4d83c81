//! Test helpers: the shared mate problem files and positions from random games.

use hayate_core::Position;

/// The directory of the shared mate data, beside the checkout.
pub(crate) const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/mate");

/// One line of `exact-short.tsv`: the position, whether it is a mate, and the plies.
pub(crate) struct ShortProblem {
    pub sfen: String,
    pub mate: bool,
    pub plies: u32,
}

/// Every problem of `exact-short.tsv`.
pub(crate) fn exact_short() -> Vec<ShortProblem> {
    let path = format!("{DATA_DIR}/exact-short.tsv");
    let text = std::fs::read_to_string(&path)
        .expect("shared/data/mate/exact-short.tsv beside the checkout");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "bad line {l:?}");
            ShortProblem {
                sfen: f[0].to_string(),
                mate: match f[1] {
                    "mate" => true,
                    "nomate" => false,
                    other => panic!("bad result {other:?}"),
                },
                plies: f[2].parse().expect("plies"),
            }
        })
        .collect()
}

/// Every SFEN of both shared files.
pub(crate) fn all_sfens() -> Vec<String> {
    let mut v: Vec<String> = exact_short().into_iter().map(|p| p.sfen).collect();
    let path = format!("{DATA_DIR}/muso.tsv");
    let text =
        std::fs::read_to_string(&path).expect("shared/data/mate/muso.tsv beside the checkout");
    for l in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        if let Some(s) = l.split('\t').nth(1) {
            v.push(s.to_string());
        }
    }
    v
}

/// Calls `f` on about `n` positions of random games started from the start position and from
/// the problem positions (a fixed generator, so runs repeat).
pub(crate) fn random_walk_positions(n: usize, mut f: impl FnMut(&mut Position)) {
    let mut starts: Vec<Position> = vec![Position::startpos()];
    for s in all_sfens() {
        starts.push(Position::from_sfen(&s).expect("valid sfen"));
    }
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut done = 0;
    'outer: loop {
        for start in &starts {
            let mut pos = start.clone();
            for _ in 0..60 {
                f(&mut pos);
                done += 1;
                if done >= n {
                    break 'outer;
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer checks and captures now and then, so that mating nets show up.
                let r = next() as usize;
                let m = if r.is_multiple_of(3) {
                    moves
                        .iter()
                        .copied()
                        .find(|&m| pos.gives_check(m))
                        .unwrap_or(moves[r / 3 % moves.len()])
                } else {
                    moves[r / 3 % moves.len()]
                };
                pos.do_move(m);
            }
        }
    }
}
