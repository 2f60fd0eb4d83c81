//! `hayate dataset`: training-data tools.
//!
//! - `hayate dataset features --sfen-file F [--nyugyoku]`: one JSON line per position, as in
//!   `data/dl/dlshogi-features.jsonl` (`sfen`, `f1`, `f2`, `labels`, the labels in cshogi's move
//!   order): for the same SFEN lines the output is byte-identical; see `hayate_nn::jsonl`.
//! - `hayate dataset stats FILE...`: counts, result split, average candidates per position,
//!   duplicates over hcpe/hcpe3 files.

use anyhow::Context;
use hayate_nn::dataset::{DatasetStats, SampleFormat};
use hayate_nn::jsonl::{features_json_line, parse_position_line};
use hayate_records::DataFormat;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

/// Arguments of `hayate dataset`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// dlshogi features and policy labels of positions, one JSON line each.
    Features {
        /// A file of positions, one per line: SFEN, or `startpos`/`sfen ...` with `moves`
        /// (default: stdin). Blank lines and `#` comments are skipped.
        #[arg(long)]
        sfen_file: Option<PathBuf>,
        /// Add the entering-king planes (input2 of 119 planes).
        #[arg(long)]
        nyugyoku: bool,
    },
    /// Statistics of hcpe/hcpe3 files.
    Stats {
        /// The files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The format of every file, hcpe or hcpe3 (default: told by each file's name or size).
        #[arg(long)]
        format: Option<DataFormat>,
    },
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    match a.command {
        Command::Features {
            sfen_file,
            nyugyoku,
        } => features(sfen_file, nyugyoku),
        Command::Stats { files, format } => stats(files, format),
    }
}

/// Prints a line per position; a bad line is reported on stderr and skipped, and the command
/// fails at the end if there was one.
fn features(sfen_file: Option<PathBuf>, nyugyoku: bool) -> anyhow::Result<()> {
    let input: Box<dyn BufRead> = match &sfen_file {
        Some(p) => Box::new(BufReader::new(
            std::fs::File::open(p).with_context(|| format!("opening {}", p.display()))?,
        )),
        None => Box::new(BufReader::new(std::io::stdin())),
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut bad = 0usize;
    for (i, line) in input.lines().enumerate() {
        let line = line.with_context(|| format!("reading line {}", i + 1))?;
        match parse_position_line(&line) {
            Ok(Some((sfen, pos))) => {
                let written = writeln!(out, "{}", features_json_line(&sfen, &pos, nyugyoku));
                if let Err(e) = written {
                    return quiet_broken_pipe(Err(e));
                }
            }
            Ok(None) => {}
            Err(e) => {
                eprintln!("line {}: {e}", i + 1);
                bad += 1;
            }
        }
    }
    quiet_broken_pipe(out.flush())?;
    anyhow::ensure!(bad == 0, "{bad} line(s) could not be read");
    Ok(())
}

/// Prints `key value` lines over all files; corrupt records are reported on stderr (the first
/// 20 per file) and counted.
fn stats(files: Vec<PathBuf>, format: Option<DataFormat>) -> anyhow::Result<()> {
    let mut stats = DatasetStats::new();
    for path in &files {
        let fmt = match format {
            Some(f) => SampleFormat::try_from(f)
                .map_err(|f| anyhow::anyhow!("dataset stats reads hcpe or hcpe3, not {f}"))?,
            None => SampleFormat::detect(path)?,
        };
        let file =
            std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
        let mut shown = 0;
        stats.add(BufReader::with_capacity(1 << 20, file), fmt, &mut |e| {
            if shown < 20 {
                eprintln!("{}: {e}", path.display());
            }
            shown += 1;
        });
    }
    let mut out = std::io::stdout().lock();
    quiet_broken_pipe(writeln!(out, "files {}\n{}", files.len(), stats.report()))
}

/// A closed pipe on stdout (`| head`) ends the output quietly.
fn quiet_broken_pipe(r: std::io::Result<()>) -> anyhow::Result<()> {
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}
