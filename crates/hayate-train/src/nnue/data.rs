//! Training positions from psv, hcpe and hcpe3 files, held in memory as [`Sample`]s.
//!
//! - psv (YaneuraOu `PackedSfenValue`, 40 bytes): score and result from the side to move.
//! - hcpe (38 bytes): eval from the side to move, result by colour.
//! - hcpe3 (one record per game): every position with searched candidates (dlshogi's mark of
//!   a training position), its eval, the game's result.
//!
//! Records are read whole first, then turned into features on all threads, in file order.
//! Corrupt records are counted and skipped.

use super::features::Sample;
use crate::error::TrainError;
use hayate_core::{Color, Move, Position};
use hayate_nn::dataset::result_value;
use hayate_records::{
    DataFormat, ErrorPolicy, GameResult, Hcpe, Hcpe3Reader, HcpeReader, Psv, PsvReader,
};
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

/// Samples read, with the count of records that could not be used.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    /// The samples, in file order.
    pub samples: Vec<Sample>,
    /// Records skipped: corrupt, illegal, without kings, or not kept by the [`Filter`].
    pub skipped: u64,
}

/// Maps `items` to samples on `threads` threads, keeping the order.
fn par_samples<T: Sync>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T, &mut Vec<Sample>) -> u64 + Sync,
    out: &mut Loaded,
) {
    if items.is_empty() {
        return;
    }
    let per = items.len().div_ceil(threads.max(1));
    let parts: Vec<(Vec<Sample>, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(per)
            .map(|part| {
                let f = &f;
                scope.spawn(move || {
                    let mut v = Vec::with_capacity(part.len());
                    let skipped = part.iter().map(|t| f(t, &mut v)).sum();
                    (v, skipped)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for (v, skipped) in parts {
        out.samples.extend(v);
        out.skipped += skipped;
    }
}

/// The result from `side`'s view as 1, 0, -1.
fn result_for(r: GameResult, side: Color) -> i8 {
    (result_value(r, side) * 2.0) as i8 - 1
}

/// Which positions become samples.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    /// Positions whose |score| is above this are skipped.
    pub max_score: i16,
    /// Skip positions in check and positions whose recorded best move captures: their score
    /// is the outcome of an exchange under way, which no static evaluation can see (the
    /// "smart FEN skipping" of nnue-pytorch; YaneuraOu's learner moves to the quiescence
    /// leaf instead).
    pub quiet_only: bool,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            max_score: 32000,
            quiet_only: false,
        }
    }
}

impl Filter {
    /// Whether a position with this score and best move is kept.
    fn keeps(&self, pos: &Position, score: i16, best: Option<Move>) -> bool {
        score.unsigned_abs() <= self.max_score.unsigned_abs()
            && !(self.quiet_only && (pos.in_check() || best.is_some_and(|m| m.is_capture())))
    }
}

/// Pushes the sample of a position the filter keeps; returns the number skipped (0 or 1).
fn push(
    pos: Option<&Position>,
    score: i16,
    best: impl FnOnce(&Position) -> Option<Move>,
    result: impl FnOnce(Color) -> i8,
    filter: Filter,
    out: &mut Vec<Sample>,
) -> u64 {
    let sample = pos
        .filter(|p| filter.keeps(p, score, best(p)))
        .and_then(|p| Sample::new(p, score, result(p.side_to_move())));
    match sample {
        Some(s) => {
            out.push(s);
            0
        }
        None => 1,
    }
}

/// Reads one file into `out`, the positions `filter` keeps.
///
/// # Errors
/// When the file cannot be opened, or an hcpe3 file's framing breaks.
pub fn load_file(
    path: &Path,
    format: DataFormat,
    filter: Filter,
    threads: usize,
    out: &mut Loaded,
) -> Result<(), TrainError> {
    if format == DataFormat::Hcp {
        return Err(TrainError::Config(format!(
            "{}: hcp holds positions only (no score or result to learn)",
            path.display()
        )));
    }
    let file = File::open(path).map_err(|e| TrainError::io(path, e))?;
    let reader = BufReader::with_capacity(1 << 20, file);
    match format {
        DataFormat::Psv => {
            let mut r = PsvReader::new(reader, ErrorPolicy::Skip);
            let recs: Vec<Psv> = r.by_ref().filter_map(Result::ok).collect();
            out.skipped += r.rejected();
            par_samples(
                &recs,
                threads,
                |p, v| {
                    push(
                        p.position().ok().as_ref(),
                        p.score,
                        |pos| p.best_move(pos),
                        |_| p.game_result,
                        filter,
                        v,
                    )
                },
                out,
            );
        }
        DataFormat::Hcpe => {
            let mut r = HcpeReader::new(reader, ErrorPolicy::Skip);
            let recs: Vec<Hcpe> = r.by_ref().filter_map(Result::ok).collect();
            out.skipped += r.rejected();
            par_samples(
                &recs,
                threads,
                |h, v| {
                    let res = h.game_result();
                    push(
                        h.position().ok().as_ref(),
                        h.eval,
                        |pos| h.best_move(pos),
                        |c| result_for(res, c),
                        filter,
                        v,
                    )
                },
                out,
            );
        }
        DataFormat::Hcpe3 => {
            let mut r = Hcpe3Reader::new(reader, ErrorPolicy::Skip);
            let mut games = Vec::new();
            for g in r.by_ref() {
                games.push(g.map_err(|e| TrainError::Config(format!("{}: {e}", path.display())))?);
            }
            out.skipped += r.rejected();
            par_samples(
                &games,
                threads,
                |g, v| {
                    let res = g.game_result();
                    let mut skipped = 0;
                    let replay = g.replay(|pos, info, _| {
                        if !info.candidates.is_empty() {
                            skipped += push(
                                Some(pos),
                                info.eval,
                                |pos| info.move16.to_move(pos),
                                |c| result_for(res, c),
                                filter,
                                v,
                            );
                        }
                    });
                    skipped + u64::from(replay.is_err())
                },
                out,
            );
        }
        // Refused above.
        DataFormat::Hcp => {}
    }
    Ok(())
}

/// Splits off a seeded random `fraction` of the samples as validation: (train, validation).
pub fn split_validation(
    samples: Vec<Sample>,
    fraction: f64,
    seed: u64,
) -> (Vec<Sample>, Vec<Sample>) {
    let n_val = ((samples.len() as f64) * fraction.clamp(0.0, 1.0)).round() as usize;
    let order = crate::data::permutation(samples.len(), seed ^ 0x5641_4C49_4441_5445);
    let mut is_val = vec![false; samples.len()];
    for &i in &order[..n_val] {
        is_val[i] = true;
    }
    let (mut train, mut val) = (Vec::new(), Vec::with_capacity(n_val));
    for (s, v) in samples.into_iter().zip(is_val) {
        if v { val.push(s) } else { train.push(s) }
    }
    (train, val)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for m in moves {
            let mv = pos.parse_usi_move(m).expect("legal");
            pos.do_move(mv);
        }
        pos
    }

    #[test]
    fn quiet_filter_skips_captures_and_checks_only() {
        let quiet = Filter {
            max_score: 1000,
            quiet_only: true,
        };
        let all = Filter {
            quiet_only: false,
            ..quiet
        };
        let pos = after(&["7g7f", "3c3d"]);
        let capture = pos.parse_usi_move("8h2b+").ok();
        let push = pos.parse_usi_move("2g2f").ok();
        assert!(!quiet.keeps(&pos, 0, capture));
        assert!(all.keeps(&pos, 0, capture));
        assert!(quiet.keeps(&pos, 0, push));
        assert!(quiet.keeps(&pos, 0, None));
        assert!(
            !quiet.keeps(&pos, 1001, push),
            "the score limit still holds"
        );
        // White's king on 5a is checked by the rook on 5c.
        let in_check = Position::from_sfen("4k4/9/4R4/9/9/9/9/9/4K4 w - 1").expect("sfen");
        assert!(in_check.in_check());
        let evasion = in_check.parse_usi_move("5a4a").ok();
        assert!(!quiet.keeps(&in_check, 0, evasion));
        assert!(all.keeps(&in_check, 0, evasion));
    }
}
