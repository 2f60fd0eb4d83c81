//! `hayate convert IN... OUT`: game records (CSA, KIF, KI2, JKF, USI lines) and training data
//! (hcpe, hcpe3, psv, hcp) from one format to another, chosen by extension or `--from`/`--to`.
//! The conversion is `hayate_records::convert::Job`; this parses the arguments, shows progress
//! and prints the counts (last line). Exit status 1 when nothing was converted.

use anyhow::{Context, bail};
use hayate_records::convert::{Counts, FileFormat, Job};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `hayate convert`.
#[derive(clap::Args)]
pub struct Args {
    /// Input files or directories, then the output file (or directory, for one game record per
    /// file).
    #[arg(required = true, num_args = 2..)]
    paths: Vec<PathBuf>,
    /// Input format (csa, kif, kifu, ki2, ki2u, jkf, sfen, hcpe, hcpe3, psv, hcp); default: by
    /// extension.
    #[arg(long)]
    from: Option<String>,
    /// Output format (as --from); default: by the output's extension.
    #[arg(long)]
    to: Option<String>,
    /// Stop at the first bad file or record instead of counting and skipping it.
    #[arg(long)]
    strict: bool,
    /// No progress line.
    #[arg(long)]
    quiet: bool,
}

fn format_named(name: &str) -> anyhow::Result<FileFormat> {
    FileFormat::from_name(name).with_context(|| format!("unknown format {name:?}"))
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let Some((out, inputs)) = a.paths.split_last() else {
        bail!("give input paths and an output path");
    };
    let from = a.from.as_deref().map(format_named).transpose()?;
    let to = match &a.to {
        Some(n) => format_named(n)?,
        None => FileFormat::of_path(out).with_context(|| {
            format!(
                "cannot tell the output format of {}: use --to",
                out.display()
            )
        })?,
    };
    let job = Job {
        inputs: inputs.to_vec(),
        output: out.clone(),
        from,
        to,
        strict: a.strict,
    };
    let show = !a.quiet && std::io::stderr().is_terminal();
    let mut last = Instant::now();
    let mut progress = |done: usize, total: usize, c: &Counts| {
        if show && last.elapsed().as_millis() >= 200 {
            last = Instant::now();
            eprint!(
                "\r{done}/{total} files, {} games, {} positions, {} rejected   ",
                c.games, c.positions, c.rejected
            );
            let _ = std::io::stderr().flush();
        }
    };
    let report = job.run(&mut progress);
    if show {
        eprintln!();
    }
    let report = report?;
    for e in &report.first_errors {
        eprintln!("rejected: {e}");
    }
    let c = &report.counts;
    println!(
        "files {} games {} positions {} rejected {} no-result {} skipped-files {}",
        c.files, c.games, c.positions, c.rejected, c.no_result, c.skipped_files
    );
    if c.written == 0 {
        bail!("nothing converted: {} not written", out.display());
    }
    Ok(())
}
