//! `hayate eval`: static evaluation of SFEN lines, one output line per input line (side to
//! move's view): an integer, an empty line for an empty line, or an error marker. With `--psv`
//! it evaluates the positions of psv files instead and prints how far the evaluation lies from
//! the records' scores: how close a trained net is to its labels, on data it never saw.

use super::error_stats;
use anyhow::Context;
use hayate_core::Position;
use hayate_eval::{EvalKind, Evaluator, with_eval};
use hayate_records::{ErrorPolicy, FixedReader, Psv};
use std::io::{BufRead, BufWriter, Write};

/// What a line that cannot be evaluated gives, followed by the reason.
pub const ERROR_MARKER: &str = "error:";
use std::path::PathBuf;

/// Arguments of `hayate eval`.
#[derive(clap::Args)]
pub struct Args {
    /// The evaluation.
    #[arg(long, default_value_t)]
    evaluator: EvalKind,
    /// The `nn.bin` file for `--evaluator nnue`.
    #[arg(long)]
    nnue: Option<PathBuf>,
    /// A file of SFEN lines (default: stdin), bare or after `sfen `. Each input line gives one
    /// output line: the evaluation, an empty line for an empty one, or `error: <reason>` for a
    /// line that is not a valid position (or not UTF-8); the exit status is then non-zero.
    #[arg(long, conflicts_with = "psv")]
    sfen_file: Option<PathBuf>,
    /// Evaluate the positions of these psv files instead of SFEN lines and print the
    /// distribution of evaluation minus the record's score (side to move's view) and their
    /// correlation.
    #[arg(long, num_args = 1..)]
    psv: Vec<PathBuf>,
    /// With --psv: skip records whose |score| is above this (as `hayate train nnue`).
    #[arg(long, requires = "psv")]
    max_score: Option<i32>,
}

/// The output line for one input line.
fn evaluate_line<E: Evaluator>(e: &E, line: Result<String, hayate_usi::LineError>) -> String {
    let line = match line {
        Ok(l) => l,
        Err(err) => return format!("{ERROR_MARKER} {err}"),
    };
    let text = line.trim();
    if text.is_empty() {
        return String::new();
    }
    // Accept a bare SFEN or one after a `sfen` keyword.
    let sfen = text.strip_prefix("sfen ").unwrap_or(text);
    match Position::from_sfen(sfen) {
        Ok(pos) => e.evaluate_once(&pos).to_string(),
        Err(err) => format!("{ERROR_MARKER} bad SFEN {sfen:?}: {err}"),
    }
}

/// Evaluates every line, one output line each (so outputs line up with inputs). Returns the
/// number of bad lines.
fn evaluate_lines<E: Evaluator>(e: &E, mut input: impl BufRead) -> anyhow::Result<usize> {
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut bad = 0;
    while let Some(line) = hayate_usi::read_line(&mut input) {
        let answer = evaluate_line(e, line);
        bad += usize::from(answer.starts_with(ERROR_MARKER));
        writeln!(out, "{answer}")?;
    }
    out.flush()?;
    Ok(bad)
}

fn evaluate_input<E: Evaluator>(e: &E, file: Option<&PathBuf>) -> anyhow::Result<usize> {
    match file {
        Some(path) => {
            let f = std::fs::File::open(path)
                .with_context(|| format!("cannot open {}", path.display()))?;
            evaluate_lines(e, std::io::BufReader::new(f))
        }
        None => evaluate_lines(e, std::io::stdin().lock()),
    }
}

/// The pair (evaluation, score) of every psv record with |score| at most `max_score`, the
/// number of records skipped for their score and the number of corrupt records skipped.
struct Comparison {
    pairs: Vec<(f64, f64)>,
    skipped: usize,
    rejected: u64,
}

impl Comparison {
    /// Evaluation minus score, per record.
    fn errors(&self) -> Vec<f32> {
        self.pairs.iter().map(|&(v, s)| (v - s) as f32).collect()
    }
}

fn compare_psv<E: Evaluator>(
    e: &E,
    files: &[PathBuf],
    max_score: Option<i32>,
) -> anyhow::Result<Comparison> {
    let mut c = Comparison {
        pairs: Vec::new(),
        skipped: 0,
        rejected: 0,
    };
    for path in files {
        let f =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let mut reader = FixedReader::<_, Psv>::new(std::io::BufReader::new(f), ErrorPolicy::Skip);
        for record in reader.by_ref() {
            let record = match record {
                Ok(r) => r,
                Err(e) => {
                    // A cut-off last record or a read failure: say so, keep what was read.
                    eprintln!("{}: {e}; the rest of the file is skipped", path.display());
                    break;
                }
            };
            let score = i32::from(record.score);
            if max_score.is_some_and(|m| score.abs() > m) {
                c.skipped += 1;
                continue;
            }
            let pos = record
                .position()
                .with_context(|| format!("a record of {}", path.display()))?;
            c.pairs
                .push((f64::from(e.evaluate_once(&pos)), f64::from(score)));
        }
        c.rejected += reader.rejected();
    }
    Ok(c)
}

/// Prints the comparison of `e` with the scores of the psv `files`.
fn report_psv<E: Evaluator>(e: &E, a: &Args) -> anyhow::Result<usize> {
    let c = compare_psv(e, &a.psv, a.max_score)?;
    println!(
        "{} positions ({} skipped by --max-score, {} corrupt records skipped)",
        c.pairs.len(),
        c.skipped,
        c.rejected
    );
    if let Some(s) = error_stats::summary(&mut c.errors()) {
        println!("evaluation minus score: {s}");
    }
    if let Some(r) = error_stats::correlation(&c.pairs) {
        println!("correlation {r:.4}");
    }
    Ok(0)
}

/// Evaluates SFEN lines, or compares with psv scores; the number of bad lines.
fn evaluate_with<E: Evaluator>(e: &E, a: &Args) -> anyhow::Result<usize> {
    if a.psv.is_empty() {
        evaluate_input(e, a.sfen_file.as_ref())
    } else {
        report_psv(e, a)
    }
}

/// Runs the command; the exit status is non-zero if any line was bad.
pub fn run(a: Args) -> anyhow::Result<()> {
    let path = match (a.evaluator.needs_file(), &a.nnue) {
        (true, None) => anyhow::bail!("--evaluator nnue needs --nnue PATH (an nn.bin file)"),
        (_, p) => p.clone().unwrap_or_default(),
    };
    let eval = a.evaluator.load(&path)?;
    let bad = with_eval!(&eval, e => evaluate_with(e, &a)?);
    if bad > 0 {
        anyhow::bail!("{bad} bad line(s)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate_eval::Material;
    use hayate_records::{PackedSfen, PsvMove16, Record};

    #[test]
    fn psv_scores_are_compared_with_the_evaluation() {
        // Three positions scored by Material plus 10, 0 and -20; a fourth scored 5,000.
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5",
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w Bb 6",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        ];
        let mut bytes = Vec::new();
        for (sfen, offset) in sfens.iter().zip([10, 0, -20, 5000]) {
            let pos = Position::from_sfen(sfen).unwrap();
            let score = if offset == 5000 {
                5000
            } else {
                Material.evaluate_once(&pos) + offset
            };
            Psv {
                sfen: PackedSfen::from_position(&pos).unwrap(),
                score: score as i16,
                mv: PsvMove16(0),
                game_ply: 1,
                game_result: 0,
                padding: 0,
            }
            .encode(&mut bytes);
        }
        let path = std::env::temp_dir().join(format!("hayate-eval-psv-{}.psv", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let c = compare_psv(&Material, std::slice::from_ref(&path), Some(3000)).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(c.errors(), [-10.0, 0.0, 20.0]);
        assert_eq!((c.skipped, c.rejected), (1, 0));
        assert_eq!(c.pairs[1].0, c.pairs[1].1);
    }

    #[test]
    fn every_input_line_gives_one_output_line() {
        let input: &[u8] = b"4k4/9/9/9/9/9/9/9/4K4 b G 1\n\nnot a sfen\n\xff\xfe\n9/9/9/9/9/9/9/9/9 b - 1\r\nsfen 4k4/9/9/9/9/9/9/9/4K4 w - 1";
        let mut input = input;
        let mut got = Vec::new();
        while let Some(line) = hayate_usi::read_line(&mut input) {
            got.push(evaluate_line(&Material, line));
        }
        assert_eq!(got.len(), 6, "{got:?}");
        assert_eq!(
            got[0],
            Material
                .evaluate_once(&Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap())
                .to_string()
        );
        assert_eq!(got[1], "");
        assert!(got[2].starts_with(ERROR_MARKER), "{}", got[2]);
        assert!(
            got[3].starts_with(ERROR_MARKER) && got[3].contains("UTF-8"),
            "{}",
            got[3]
        );
        assert!(
            got[4].starts_with(ERROR_MARKER) && got[4].contains("king"),
            "{}",
            got[4]
        );
        assert_eq!(got[5], "0");
    }
}
