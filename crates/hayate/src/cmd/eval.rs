//! `hayate eval`: static evaluation of SFEN lines, one integer per line (side to move's view).

use anyhow::Context;
use hayate_core::Position;
use hayate_eval::{Evaluator, Kkpee9, Material, Nnue};
use std::io::{BufRead, BufWriter, Write};
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
    /// A file of SFEN lines (default: stdin). Blank lines are skipped.
    #[arg(long)]
    sfen_file: Option<PathBuf>,
}

/// Evaluates every line; a bad line is reported on stderr and skipped. Returns the bad count.
fn evaluate_lines<E: Evaluator>(e: &E, input: impl BufRead) -> anyhow::Result<usize> {
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut bad = 0;
    for (i, line) in input.lines().enumerate() {
        let line = line.with_context(|| format!("reading line {}", i + 1))?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        // Accept a bare SFEN or one after a `sfen` keyword.
        let sfen = text.strip_prefix("sfen ").unwrap_or(text);
        match Position::from_sfen(sfen) {
            Ok(pos) => writeln!(out, "{}", e.evaluate_once(&pos))?,
            Err(err) => {
                // Keep stdout and stderr in order for a reader watching both.
                out.flush()?;
                eprintln!("line {}: bad SFEN {sfen:?}: {err}", i + 1);
                bad += 1;
            }
        }
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
