//! `hayate eval`: static evaluation of SFEN lines, one output line per input line (side to
//! move's view): an integer, an empty line for an empty line, or an error marker.

use anyhow::Context;
use hayate_core::Position;
use hayate_eval::{Evaluator, Kkpee9, Material, Nnue};
use std::io::{BufRead, BufWriter, Write};

/// What a line that cannot be evaluated gives, followed by the reason.
pub const ERROR_MARKER: &str = "error:";
use std::path::PathBuf;

/// Which evaluation to run.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Which {
    /// Piece values only.
    Material,
    /// The KKPEE9 effect tables (built at start-up, ≈306 MB).
    Kkpee9,
    /// An NNUE HalfKP `nn.bin` (needs --nnue).
    Nnue,
}

/// Arguments of `hayate eval`.
#[derive(clap::Args)]
pub struct Args {
    /// The evaluation.
    #[arg(long, value_enum, default_value = "kkpee9")]
    evaluator: Which,
    /// The `nn.bin` file for `--evaluator nnue`.
    #[arg(long)]
    nnue: Option<PathBuf>,
    /// A file of SFEN lines (default: stdin), bare or after `sfen `. Each input line gives one
    /// output line: the evaluation, an empty line for an empty one, or `error: <reason>` for a
    /// line that is not a valid position (or not UTF-8); the exit status is then non-zero.
    #[arg(long)]
    sfen_file: Option<PathBuf>,
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

/// Runs the command; the exit status is non-zero if any line was bad.
pub fn run(a: Args) -> anyhow::Result<()> {
    let file = a.sfen_file.as_ref();
    let bad = match a.evaluator {
        Which::Material => evaluate_input(&Material, file)?,
        Which::Kkpee9 => evaluate_input(&Kkpee9::new(), file)?,
        Which::Nnue => {
            let path = a
                .nnue
                .as_ref()
                .context("--evaluator nnue needs --nnue PATH (an nn.bin file)")?;
            evaluate_input(&Nnue::load(path)?, file)?
        }
    };
    if bad > 0 {
        anyhow::bail!("{bad} bad line(s)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
