//! A whole conversion, as `hayate convert` runs it: input files and folders (searched
//! recursively for files of a known format) into one output file, or a folder of game records.
//!
//! Bad files and records are counted and skipped (`strict` stops at the first); games without a
//! result are skipped for training outputs. Refused before anything is written: an input that
//! does not exist, a file whose format is unknown, a pair of formats that does not convert, an
//! output that is one of the inputs. The output is written through a temporary file and renamed
//! at the end, and only when something was converted ([`Counts::written`] > 0).

use super::FileFormat;
use super::item::ConvertError;
use super::route::{Batch, Item};
use crate::game::text;
use crate::{
    ErrorPolicy, FixedReader, FixedRecord, GameFormat, GameRecord, Hcp, Hcpe, Hcpe3Reader, Psv,
    Record, RecordError, RecordWriter, TextEncoding,
};
use std::fs::File;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};

/// What to convert.
#[derive(Clone, Debug)]
pub struct Job {
    /// Input files and folders.
    pub inputs: Vec<PathBuf>,
    /// The output file, or folder (an existing one, or a path ending in `/`) for one game
    /// record per file.
    pub output: PathBuf,
    /// The inputs' format; `None`: each file's by its extension.
    pub from: Option<FileFormat>,
    /// The output's format.
    pub to: FileFormat,
    /// Stop at the first bad file or record.
    pub strict: bool,
}

/// What a conversion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Input files read.
    pub files: u64,
    /// Files in input folders of a format that does not convert to the output.
    pub skipped_files: u64,
    /// Games read.
    pub games: u64,
    /// Positions converted (moves of games written as records).
    pub positions: u64,
    /// Files and records that could not be read or converted.
    pub rejected: u64,
    /// Games skipped for lack of a result.
    pub no_result: u64,
    /// Items in the output: records of a data file, games of a record output.
    pub written: u64,
}

/// The counts and the first errors of a finished conversion.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// What was done.
    pub counts: Counts,
    /// The first few rejections, as `file: why`.
    pub first_errors: Vec<String>,
}

/// Why a conversion stopped.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// An input path does not exist.
    #[error("{} does not exist", .0.display())]
    Missing(PathBuf),
    /// An input file's extension names no known format (and none was given).
    #[error("cannot tell the format of {} from its extension", .0.display())]
    UnknownFormat(PathBuf),
    /// An input's format does not convert to the output's.
    #[error("{}: cannot convert {from:?} to {to:?}", path.display())]
    Unsupported {
        /// The input.
        path: PathBuf,
        /// Its format.
        from: FileFormat,
        /// The output's format.
        to: FileFormat,
    },
    /// The output is one of the inputs (writing it would destroy what is being read).
    #[error("the output {} is also an input", .0.display())]
    OutputIsInput(PathBuf),
    /// A bad file or record, in strict mode.
    #[error("{0}")]
    Rejected(String),
    /// Several games for a single-game format.
    #[error("{0} games: only CSA and USI lines hold several per file; give a folder as the output")]
    ManyGames(usize),
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// A game record could not be written (its start position is invalid).
    #[error("writing a game: {0}")]
    Write(#[from] hayate_core::SfenError),
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> JobError + '_ {
    move |source| JobError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Job {
    /// Runs the conversion; `progress(done, total, counts)` is called after each input file.
    ///
    /// # Errors
    /// A [`JobError`] for what is refused before the start (see the module notes), a failed
    /// read or write, and in strict mode the first bad file or record. The output is then not
    /// written.
    pub fn run(&self, progress: &mut dyn FnMut(usize, usize, &Counts)) -> Result<Report, JobError> {
        let mut counts = Counts::default();
        let files = self.input_files(&mut counts)?;
        self.refuse_output_among(&files)?;
        let mut conv = Converter {
            sink: Sink::open(self)?,
            to: self.to,
            counts,
            strict: self.strict,
            first_errors: Vec::new(),
        };
        for (done, (path, fmt)) in files.iter().enumerate() {
            conv.counts.files += 1;
            conv.read_file(path, *fmt)?;
            progress(done + 1, files.len(), &conv.counts);
        }
        conv.finish(self)
    }

    /// Every input file with its format, folders searched in sorted order.
    fn input_files(&self, counts: &mut Counts) -> Result<Vec<(PathBuf, FileFormat)>, JobError> {
        let mut out = Vec::new();
        for input in &self.inputs {
            if !input.exists() {
                return Err(JobError::Missing(input.clone()));
            }
            if !input.is_dir() {
                let fmt = self
                    .from
                    .or_else(|| FileFormat::of_path(input))
                    .ok_or_else(|| JobError::UnknownFormat(input.clone()))?;
                out.push((input.clone(), self.check_pair(input, fmt)?));
                continue;
            }
            let mut found = Vec::new();
            collect_files(input, &mut found)?;
            for p in found {
                let Some(fmt) = self.from.or_else(|| FileFormat::of_path(&p)) else {
                    continue;
                };
                if self.from.is_none() && !fmt.converts_to(self.to) {
                    counts.skipped_files += 1;
                    continue;
                }
                out.push((p.clone(), self.check_pair(&p, fmt)?));
            }
        }
        Ok(out)
    }

    fn check_pair(&self, path: &Path, from: FileFormat) -> Result<FileFormat, JobError> {
        if from.converts_to(self.to) {
            return Ok(from);
        }
        Err(JobError::Unsupported {
            path: path.to_path_buf(),
            from,
            to: self.to,
        })
    }

    /// Refuses an output that is an input path or one of the files found (same device and
    /// inode, so `./x.hcpe`, `x.hcpe` and links to it are all caught).
    fn refuse_output_among(&self, files: &[(PathBuf, FileFormat)]) -> Result<(), JobError> {
        let inputs = self.inputs.iter().chain(files.iter().map(|(p, _)| p));
        for p in inputs {
            if same_file(p, &self.output) {
                return Err(JobError::OutputIsInput(self.output.clone()));
            }
        }
        Ok(())
    }

    fn output_is_dir(&self) -> bool {
        self.output.is_dir() || self.output.to_string_lossy().ends_with('/')
    }
}

/// Whether two paths name the same existing file or folder.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
    }
}

/// Files under `p` (recursively), in sorted order.
fn collect_files(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), JobError> {
    if !p.is_dir() {
        out.push(p.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
        .map_err(io_error(p))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for e in entries {
        collect_files(&e, out)?;
    }
    Ok(())
}

/// A file written under a temporary name beside its destination, renamed there by
/// [`TempFile::persist`]; removed if dropped before.
struct TempFile {
    tmp: PathBuf,
    dest: PathBuf,
    persisted: bool,
}

impl TempFile {
    fn create(dest: &Path) -> Result<(TempFile, File), JobError> {
        let name = dest
            .file_name()
            .map_or("out".into(), |n| n.to_string_lossy());
        let tmp = dest.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
        let file = File::create(&tmp).map_err(io_error(&tmp))?;
        let t = TempFile {
            tmp,
            dest: dest.to_path_buf(),
            persisted: false,
        };
        Ok((t, file))
    }

    fn persist(mut self) -> Result<(), JobError> {
        std::fs::rename(&self.tmp, &self.dest).map_err(io_error(&self.dest))?;
        self.persisted = true;
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.persisted {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Writes `bytes` to `dest` through a temporary file.
fn write_atomic(dest: &Path, bytes: &[u8]) -> Result<(), JobError> {
    let (tmp, mut file) = TempFile::create(dest)?;
    io::Write::write_all(&mut file, bytes).map_err(io_error(dest))?;
    file.sync_all().map_err(io_error(dest))?;
    tmp.persist()
}

/// Where converted items go.
enum Sink {
    /// A data file, through a temporary file.
    Data(RecordWriter<File>, TempFile),
    /// Game records, kept and written at the end.
    Games(Vec<(String, GameRecord)>),
}

impl Sink {
    fn open(job: &Job) -> Result<Sink, JobError> {
        if let FileFormat::Game(..) = job.to {
            return Ok(Sink::Games(Vec::new()));
        }
        let (tmp, file) = TempFile::create(&job.output)?;
        Ok(Sink::Data(RecordWriter::new(file), tmp))
    }

    /// Takes one converted item; returns the positions it held.
    fn take(&mut self, batch: Batch) -> io::Result<u64> {
        match (self, batch) {
            (Sink::Games(games), Batch::Game(label, g)) => {
                let n = g.moves.len() as u64;
                games.push((label, g));
                Ok(n)
            }
            (Sink::Data(w, _), Batch::Hcpe(v)) => write_all(w, &v),
            (Sink::Data(w, _), Batch::Psv(v)) => write_all(w, &v),
            (Sink::Data(w, _), Batch::Hcp(v)) => write_all(w, &v),
            (Sink::Data(w, _), Batch::Hcpe3(g)) => w.write(&g).map(|()| g.moves.len() as u64),
            _ => Err(io::Error::other("the item does not fit the output")),
        }
    }
}

fn write_all<T: Record>(w: &mut RecordWriter<File>, items: &[T]) -> io::Result<u64> {
    for it in items {
        w.write(it)?;
    }
    Ok(items.len() as u64)
}

struct Converter {
    sink: Sink,
    to: FileFormat,
    counts: Counts,
    strict: bool,
    first_errors: Vec<String>,
}

/// Rejections kept for the report.
const FIRST_ERRORS: usize = 10;

impl Converter {
    fn reject(&mut self, what: String) -> Result<(), JobError> {
        if self.strict {
            return Err(JobError::Rejected(what));
        }
        self.counts.rejected += 1;
        if self.first_errors.len() < FIRST_ERRORS {
            self.first_errors.push(what);
        }
        Ok(())
    }

    /// Counts what a reader skipped on its own (non-strict mode).
    fn skipped(&mut self, name: &str, count: u64, errors: &[RecordError]) {
        self.counts.rejected += count;
        let room = FIRST_ERRORS.saturating_sub(self.first_errors.len());
        let shown = errors.iter().take(room.min(3));
        self.first_errors
            .extend(shown.map(|e| format!("{name}: {e}")));
    }

    /// Converts one item into the sink.
    fn push(&mut self, item: Item, origin: &str) -> Result<(), JobError> {
        match item.convert(self.to) {
            Ok(batch) => {
                let n = self.sink.take(batch).map_err(|e| JobError::Io {
                    path: origin.into(),
                    source: e,
                })?;
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

    fn read_file(&mut self, path: &Path, fmt: FileFormat) -> Result<(), JobError> {
        let name = path.display().to_string();
        let policy = if self.strict {
            ErrorPolicy::Stop
        } else {
            ErrorPolicy::Skip
        };
        let open = || -> Result<BufReader<File>, JobError> {
            let f = File::open(path).map_err(io_error(path))?;
            Ok(BufReader::with_capacity(1 << 20, f))
        };
        match fmt {
            FileFormat::Game(gf, _) => self.read_games(path, gf),
            FileFormat::Hcpe3 => {
                let stem = stem(path);
                let mut r = Hcpe3Reader::new(open()?, policy);
                for (gi, g) in r.by_ref().enumerate() {
                    match g {
                        Ok(g) => {
                            self.counts.games += 1;
                            let item = Item::Hcpe3(format!("{stem}_{gi}"), g);
                            self.push(item, &format!("{name}#{gi}"))?;
                        }
                        Err(e) => self.reject(format!("{name}: {e}"))?,
                    }
                }
                self.skipped(&name, r.rejected(), r.rejected_errors());
                Ok(())
            }
            FileFormat::Hcpe => self.read_fixed::<Hcpe>(open()?, policy, &name, Item::Hcpe),
            FileFormat::Psv => self.read_fixed::<Psv>(open()?, policy, &name, Item::Psv),
            FileFormat::Hcp => self.read_fixed::<Hcp>(open()?, policy, &name, Item::Hcp),
        }
    }

    /// A record file's games. A file of USI lines converted to positions only gives one
    /// position per line: the one its moves lead to (what a `position` command means).
    fn read_games(&mut self, path: &Path, gf: GameFormat) -> Result<(), JobError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(io_error(path))?;
        let games = match gf.parse(&bytes) {
            Ok(games) => games,
            Err(e) => return self.reject(format!("{name}: {e}")),
        };
        let stem = stem(path);
        let many = games.len() > 1;
        for (gi, g) in games.into_iter().enumerate() {
            self.counts.games += 1;
            if gf == GameFormat::Usi && self.to.holds_positions_only() {
                let packed = g
                    .final_position()
                    .map_err(ConvertError::from)
                    .and_then(|p| Ok(Hcp::from_position(&p)?));
                match packed {
                    Ok(h) => self.push(Item::Hcp(h), &name)?,
                    Err(e) => self.reject(format!("{name}: line {}: {e}", gi + 1))?,
                }
                continue;
            }
            let label = if many {
                format!("{stem}_{gi}")
            } else {
                stem.clone()
            };
            self.push(Item::Game(label, g), &name)?;
        }
        Ok(())
    }

    fn read_fixed<T: FixedRecord>(
        &mut self,
        r: BufReader<File>,
        policy: ErrorPolicy,
        name: &str,
        wrap: fn(T) -> Item,
    ) -> Result<(), JobError> {
        let mut reader = FixedReader::<_, T>::new(r, policy);
        for rec in reader.by_ref() {
            match rec {
                Ok(x) => self.push(wrap(x), name)?,
                Err(e) => self.reject(format!("{name}: {e}"))?,
            }
        }
        self.skipped(name, reader.rejected(), reader.rejected_errors());
        Ok(())
    }

    /// Writes the output if anything was converted.
    fn finish(self, job: &Job) -> Result<Report, JobError> {
        let mut counts = self.counts;
        match self.sink {
            Sink::Data(w, tmp) => {
                counts.written = w.records();
                let file = w.finish().map_err(io_error(&job.output))?;
                file.sync_all().map_err(io_error(&job.output))?;
                if counts.written > 0 {
                    tmp.persist()?;
                }
            }
            Sink::Games(games) => {
                counts.written = games.len() as u64;
                if let (FileFormat::Game(f, enc), false) = (job.to, games.is_empty()) {
                    write_games(job, f, enc, &games)?;
                }
            }
        }
        Ok(Report {
            counts,
            first_errors: self.first_errors,
        })
    }
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned())
}

/// Game records: one file per game in a folder, else one file (several games only in CSA,
/// separated by `/`, and USI lines).
fn write_games(
    job: &Job,
    f: GameFormat,
    enc: TextEncoding,
    games: &[(String, GameRecord)],
) -> Result<(), JobError> {
    let out = &job.output;
    let ext = job.to.extension();
    if job.output_is_dir() {
        std::fs::create_dir_all(out).map_err(io_error(out))?;
        let mut used = std::collections::HashSet::new();
        for (name, g) in games {
            let mut file = format!("{name}.{ext}");
            let mut k = 1;
            while !used.insert(file.clone()) {
                file = format!("{name}_{k}.{ext}");
                k += 1;
            }
            write_atomic(&out.join(&file), &f.write_bytes(g, enc)?)?;
        }
        return Ok(());
    }
    let bytes = match (f, games) {
        (_, [(_, g)]) => f.write_bytes(g, enc)?,
        (GameFormat::Csa | GameFormat::Usi, _) => {
            let texts = games
                .iter()
                .map(|(_, g)| f.write(g))
                .collect::<Result<Vec<_>, _>>()?;
            let sep = if f == GameFormat::Csa { "/\n" } else { "" };
            text::encode(&texts.join(sep), enc)
        }
        _ => return Err(JobError::ManyGames(games.len())),
    };
    write_atomic(out, &bytes)
}
