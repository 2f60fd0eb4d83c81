//! `hayate convert IN... OUT`: game records (CSA, KIF, KI2, JKF, USI lines) and training data
//! (hcpe, hcpe3, psv, hcp) from one format to another, chosen by extension or `--from`/`--to`.
//!
//! A directory input is searched recursively for files of a known (or the `--from`) format, so a
//! folder of records becomes one data file. Bad files and corrupt records are counted and
//! skipped (`--strict` stops at the first); games without a result are skipped for training
//! outputs. The last line gives the counts.

use anyhow::{Context, bail};
use hayate_records::convert::{
    ConvertError, game_to_hcpe, game_to_hcpe3, game_to_psv, hcpe_to_psv, hcpe3_to_game,
    hcpe3_to_hcpe, psv_to_hcpe,
};
use hayate_records::{
    ErrorPolicy, FixedReader, GameFormat, GameRecord, Hcp, Hcpe, Hcpe3Game, Hcpe3Reader, Psv,
    Record, RecordWriter, TextEncoding,
};
use std::fs::File;
use std::io::{BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
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

/// A format of either kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Game(GameFormat, TextEncoding),
    Hcpe,
    Hcpe3,
    Psv,
    Hcp,
}

impl Format {
    fn from_name(name: &str) -> Option<Format> {
        if let Some((f, e)) = GameFormat::from_name(name) {
            return Some(Format::Game(f, e));
        }
        Some(match name.to_ascii_lowercase().as_str() {
            "hcpe" => Format::Hcpe,
            "hcpe3" => Format::Hcpe3,
            "psv" | "bin" => Format::Psv,
            "hcp" => Format::Hcp,
            _ => return None,
        })
    }

    fn of_path(p: &Path) -> Option<Format> {
        Format::from_name(p.extension()?.to_str()?)
    }

    /// Whether items of this input format convert to `out`: single positions cannot become
    /// games, and bare positions carry no move.
    fn converts_to(self, out: Format) -> bool {
        match (self, out) {
            (Format::Game(..) | Format::Hcpe3, Format::Game(..) | Format::Hcpe3) => true,
            (_, Format::Game(..) | Format::Hcpe3) => false,
            (Format::Hcp, Format::Hcpe | Format::Psv) => false,
            (Format::Hcpe3, Format::Hcp) => false,
            _ => true,
        }
    }
}

/// Counts shown at the end.
#[derive(Default)]
struct Counts {
    files: u64,
    skipped_files: u64,
    games: u64,
    positions: u64,
    rejected: u64,
    no_result: u64,
}

/// Where converted items go.
enum Sink {
    Hcpe(RecordWriter<File>),
    Hcpe3(RecordWriter<File>),
    Psv(RecordWriter<File>),
    Hcp(RecordWriter<File>),
    /// Game records are kept and written at the end (one file, a CSA multi-record file, or a
    /// directory of files).
    Games(GameFormat, TextEncoding, Vec<(String, GameRecord)>),
}

/// One item read from an input.
enum Item {
    Game(String, GameRecord),
    Hcpe3(String, Hcpe3Game),
    Hcpe(Hcpe),
    Psv(Psv),
    Hcp(Hcp),
}

struct Converter {
    sink: Sink,
    counts: Counts,
    strict: bool,
    first_errors: Vec<String>,
}

impl Converter {
    fn reject(&mut self, what: String) -> anyhow::Result<()> {
        if self.strict {
            bail!("{what}");
        }
        self.counts.rejected += 1;
        if self.first_errors.len() < 10 {
            self.first_errors.push(what);
        }
        Ok(())
    }

    fn write_all<T: Record>(w: &mut RecordWriter<File>, items: &[T]) -> anyhow::Result<u64> {
        for it in items {
            w.write(it)?;
        }
        Ok(items.len() as u64)
    }

    /// Converts one item into the sink.
    fn push(&mut self, item: Item, origin: &str) -> anyhow::Result<()> {
        let result: Result<u64, ConvertError> = match (&mut self.sink, item) {
            (Sink::Games(_, _, games), Item::Game(name, g)) => {
                self.counts.positions += g.moves.len() as u64;
                games.push((name, g));
                Ok(0)
            }
            (Sink::Games(_, _, games), Item::Hcpe3(label, g)) => hcpe3_to_game(&g).map(|rec| {
                self.counts.positions += rec.moves.len() as u64;
                games.push((label, rec));
                0
            }),
            (Sink::Hcpe(w), Item::Game(_, g)) => {
                let mut v = Vec::new();
                match game_to_hcpe(&g, &mut v) {
                    Ok(_) => Ok(Self::write_all(w, &v)?),
                    Err(e) => Err(e),
                }
            }
            (Sink::Psv(w), Item::Game(_, g)) => {
                let mut v = Vec::new();
                match game_to_psv(&g, &mut v) {
                    Ok(_) => Ok(Self::write_all(w, &v)?),
                    Err(e) => Err(e),
                }
            }
            (Sink::Hcpe3(w), Item::Game(_, g)) => match game_to_hcpe3(&g) {
                Ok(g3) => {
                    w.write(&g3)?;
                    Ok(g3.moves.len() as u64)
                }
                Err(e) => Err(e),
            },
            (Sink::Hcpe3(w), Item::Hcpe3(_, g)) => {
                w.write(&g)?;
                Ok(g.moves.len() as u64)
            }
            (Sink::Hcpe(w), Item::Hcpe3(_, g)) => {
                let mut v = Vec::new();
                match hcpe3_to_hcpe(&g, &mut v) {
                    Ok(_) => Ok(Self::write_all(w, &v)?),
                    Err(e) => Err(e),
                }
            }
            (Sink::Psv(w), Item::Hcpe3(_, g)) => {
                let mut v = Vec::new();
                match hcpe3_to_hcpe(&g, &mut v)
                    .and_then(|_| v.iter().map(hcpe_to_psv).collect::<Result<Vec<_>, _>>())
                {
                    Ok(p) => Ok(Self::write_all(w, &p)?),
                    Err(e) => Err(e),
                }
            }
            (Sink::Hcpe(w), Item::Hcpe(h)) => {
                w.write(&h)?;
                Ok(1)
            }
            (Sink::Psv(w), Item::Hcpe(h)) => match hcpe_to_psv(&h) {
                Ok(p) => {
                    w.write(&p)?;
                    Ok(1)
                }
                Err(e) => Err(e),
            },
            (Sink::Psv(w), Item::Psv(p)) => {
                w.write(&p)?;
                Ok(1)
            }
            (Sink::Hcpe(w), Item::Psv(p)) => match psv_to_hcpe(&p) {
                Ok(h) => {
                    w.write(&h)?;
                    Ok(1)
                }
                Err(e) => Err(e),
            },
            (Sink::Hcp(w), Item::Hcpe(h)) => {
                w.write(&h.hcp)?;
                Ok(1)
            }
            (Sink::Hcp(w), Item::Hcp(h)) => {
                w.write(&h)?;
                Ok(1)
            }
            (Sink::Hcp(w), Item::Psv(p)) => match p.position() {
                Ok(pos) => match Hcp::from_position(&pos) {
                    Ok(h) => {
                        w.write(&h)?;
                        Ok(1)
                    }
                    Err(e) => Err(e.into()),
                },
                Err(e) => Err(e.into()),
            },
            (Sink::Hcp(w), Item::Game(_, g)) => {
                let mut v = Vec::with_capacity(g.moves.len());
                let packed = g
                    .start_position()
                    .map_err(ConvertError::from)
                    .and_then(|mut pos| {
                        for e in &g.moves {
                            v.push(Hcp::from_position(&pos)?);
                            pos.do_move(e.mv);
                        }
                        Ok(())
                    });
                match packed {
                    Ok(()) => Ok(Self::write_all(w, &v)?),
                    Err(e) => Err(e),
                }
            }
            _ => bail!("{origin}: this conversion is not supported"),
        };
        match result {
            Ok(n) => {
                self.counts.positions += n;
                Ok(())
            }
            Err(ConvertError::NoResult) => {
                self.counts.no_result += 1;
                Ok(())
            }
            Err(e) => self.reject(format!("{origin}: {e}")),
        }
    }
}

/// Files under `p` (recursively) that `accept` takes, in sorted order.
fn collect_files(
    p: &Path,
    accept: &dyn Fn(&Path) -> bool,
    out: &mut Vec<PathBuf>,
) -> anyhow::Result<()> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .with_context(|| format!("reading {}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            collect_files(&e, accept, out)?;
        }
    } else if accept(p) {
        out.push(p.to_path_buf());
    }
    Ok(())
}

struct Progress {
    enabled: bool,
    last: Instant,
}

impl Progress {
    fn tick(&mut self, done: usize, total: usize, c: &Counts) {
        if self.enabled && self.last.elapsed().as_millis() >= 200 {
            self.last = Instant::now();
            eprint!(
                "\r{done}/{total} files, {} games, {} positions, {} rejected   ",
                c.games, c.positions, c.rejected
            );
            let _ = std::io::stderr().flush();
        }
    }
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let Some((out, inputs)) = a.paths.split_last() else {
        bail!("give input paths and an output path");
    };
    let from = match &a.from {
        Some(n) => Some(Format::from_name(n).with_context(|| format!("unknown format {n:?}"))?),
        None => None,
    };
    let out_is_dir = out.is_dir() || out.to_string_lossy().ends_with('/');
    let to = match &a.to {
        Some(n) => Format::from_name(n).with_context(|| format!("unknown format {n:?}"))?,
        None => Format::of_path(out).with_context(|| {
            format!(
                "cannot tell the output format of {}: use --to",
                out.display()
            )
        })?,
    };
    let create = || File::create(out).with_context(|| format!("creating {}", out.display()));
    let sink = match to {
        Format::Game(f, e) => Sink::Games(f, e, Vec::new()),
        Format::Hcpe => Sink::Hcpe(RecordWriter::new(create()?)),
        Format::Hcpe3 => Sink::Hcpe3(RecordWriter::new(create()?)),
        Format::Psv => Sink::Psv(RecordWriter::new(create()?)),
        Format::Hcp => Sink::Hcp(RecordWriter::new(create()?)),
    };
    let accept = |p: &Path| match from {
        Some(_) => true,
        None => Format::of_path(p).is_some(),
    };
    let mut files = Vec::new();
    for i in inputs {
        if !i.exists() {
            bail!("{} does not exist", i.display());
        }
        collect_files(i, &accept, &mut files)?;
    }
    let mut conv = Converter {
        sink,
        counts: Counts::default(),
        strict: a.strict,
        first_errors: Vec::new(),
    };
    let mut progress = Progress {
        enabled: !a.quiet && std::io::stderr().is_terminal(),
        last: Instant::now(),
    };
    let policy = if a.strict {
        ErrorPolicy::Stop
    } else {
        ErrorPolicy::Skip
    };
    let total = files.len();
    for (fi, path) in files.iter().enumerate() {
        let name = path.display().to_string();
        let Some(fmt) = from.or_else(|| Format::of_path(path)) else {
            continue;
        };
        if !fmt.converts_to(to) {
            if from.is_some() || inputs.iter().any(|i| i == path) {
                bail!("{name}: cannot convert {fmt:?} to {to:?}");
            }
            conv.counts.skipped_files += 1;
            continue;
        }
        conv.counts.files += 1;
        let open = || -> anyhow::Result<BufReader<File>> {
            Ok(BufReader::with_capacity(
                1 << 20,
                File::open(path).with_context(|| format!("opening {name}"))?,
            ))
        };
        match fmt {
            Format::Game(gf, _) => {
                let bytes = std::fs::read(path).with_context(|| format!("reading {name}"))?;
                match gf.parse(&bytes) {
                    Ok(games) => {
                        let stem = path
                            .file_stem()
                            .map(|s| s.to_string_lossy().into_owned())
                            .unwrap_or_else(|| "game".into());
                        let many = games.len() > 1;
                        for (gi, g) in games.into_iter().enumerate() {
                            conv.counts.games += 1;
                            let label = if many {
                                format!("{stem}_{gi}")
                            } else {
                                stem.clone()
                            };
                            conv.push(Item::Game(label, g), &name)?;
                        }
                    }
                    Err(e) => conv.reject(format!("{name}: {e}"))?,
                }
            }
            Format::Hcpe3 => {
                let mut r = Hcpe3Reader::new(open()?, policy);
                for (gi, g) in r.by_ref().enumerate() {
                    match g {
                        Ok(g) => {
                            conv.counts.games += 1;
                            let stem = path
                                .file_stem()
                                .map(|s| s.to_string_lossy().into_owned())
                                .unwrap_or_else(|| "game".into());
                            conv.push(
                                Item::Hcpe3(format!("{stem}_{gi}"), g),
                                &format!("{name}#{gi}"),
                            )?;
                        }
                        Err(e) => conv.reject(format!("{name}: {e}"))?,
                    }
                    progress.tick(fi, total, &conv.counts);
                }
                conv.counts.rejected += r.rejected();
                conv.first_errors.extend(
                    r.rejected_errors()
                        .iter()
                        .take(3)
                        .map(|e| format!("{name}: {e}")),
                );
            }
            Format::Hcpe => read_fixed::<Hcpe>(&mut conv, open()?, policy, &name, Item::Hcpe)?,
            Format::Psv => read_fixed::<Psv>(&mut conv, open()?, policy, &name, Item::Psv)?,
            Format::Hcp => read_fixed::<Hcp>(&mut conv, open()?, policy, &name, Item::Hcp)?,
        }
        progress.tick(fi + 1, total, &conv.counts);
    }
    if progress.enabled {
        eprintln!();
    }
    let Converter {
        sink,
        counts,
        first_errors,
        ..
    } = conv;
    match sink {
        Sink::Hcpe(w) | Sink::Hcpe3(w) | Sink::Psv(w) | Sink::Hcp(w) => {
            w.finish()
                .with_context(|| format!("writing {}", out.display()))?;
        }
        Sink::Games(f, enc, games) => write_games(out, out_is_dir, f, enc, &games)?,
    }
    for e in &first_errors {
        eprintln!("rejected: {e}");
    }
    println!(
        "files {} games {} positions {} rejected {} no-result {} skipped-files {}",
        counts.files,
        counts.games,
        counts.positions,
        counts.rejected,
        counts.no_result,
        counts.skipped_files
    );
    Ok(())
}

fn read_fixed<T: hayate_records::FixedRecord>(
    conv: &mut Converter,
    r: BufReader<File>,
    policy: ErrorPolicy,
    name: &str,
    wrap: fn(T) -> Item,
) -> anyhow::Result<()> {
    let mut reader = FixedReader::<_, T>::new(r, policy);
    for rec in reader.by_ref() {
        match rec {
            Ok(x) => conv.push(wrap(x), name)?,
            Err(e) => conv.reject(format!("{name}: {e}"))?,
        }
    }
    conv.counts.rejected += reader.rejected();
    conv.first_errors.extend(
        reader
            .rejected_errors()
            .iter()
            .take(3)
            .map(|e| format!("{name}: {e}")),
    );
    Ok(())
}

fn extension(f: GameFormat, enc: TextEncoding) -> &'static str {
    match (f, enc) {
        (GameFormat::Csa, _) => "csa",
        (GameFormat::Kif, TextEncoding::ShiftJis) => "kif",
        (GameFormat::Kif, TextEncoding::Utf8) => "kifu",
        (GameFormat::Ki2, TextEncoding::ShiftJis) => "ki2",
        (GameFormat::Ki2, TextEncoding::Utf8) => "ki2u",
        (GameFormat::Jkf, _) => "jkf",
        (GameFormat::Usi, _) => "sfen",
    }
}

fn write_games(
    out: &Path,
    out_is_dir: bool,
    f: GameFormat,
    enc: TextEncoding,
    games: &[(String, GameRecord)],
) -> anyhow::Result<()> {
    if out_is_dir {
        std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
        let mut used = std::collections::HashSet::new();
        for (name, g) in games {
            let mut file = format!("{name}.{}", extension(f, enc));
            let mut k = 1;
            while !used.insert(file.clone()) {
                file = format!("{name}_{k}.{}", extension(f, enc));
                k += 1;
            }
            std::fs::write(out.join(&file), f.write_bytes(g, enc)?)
                .with_context(|| format!("writing {file}"))?;
        }
        return Ok(());
    }
    let bytes = match (f, games) {
        (_, [(_, g)]) => f.write_bytes(g, enc)?,
        (GameFormat::Csa, _) => {
            let mut texts = Vec::with_capacity(games.len());
            for (_, g) in games {
                texts.push(f.write(g)?);
            }
            hayate_records::game::text::encode(&texts.join("/\n"), enc)
        }
        (GameFormat::Usi, _) => {
            let mut text = String::new();
            for (_, g) in games {
                text.push_str(&f.write(g)?);
            }
            text.into_bytes()
        }
        (_, []) => bail!("no game to write"),
        _ => bail!(
            "{} games: only CSA and USI lines hold several per file; give a directory as the output",
            games.len()
        ),
    };
    std::fs::write(out, bytes).with_context(|| format!("writing {}", out.display()))?;
    Ok(())
}
