//! Network files followed while a run plays, so that long-running workers pick up new nets:
//! an NNUE file between games ([`FollowedNnue`]), an ONNX model between network calls
//! ([`FollowedModel`], the MCTS player's backend).
//!
//! A training loop publishes each net under its content hash (`models/<sha256>.bin`, never
//! rewritten) and then points `current` at it by an atomic rename (a symlink, or a plain file
//! renamed over the old one). Workers are started with `--nnue RUN/current`; before every game
//! each thread asks [`FollowedNnue::current`], which looks at the file (the symlink's target,
//! its length and modification time; at most once per [`FollowedNnue::DEFAULT_INTERVAL`] per
//! process, so a thousand nodes do not stat a shared file system between every game) and loads
//! it again only when that changed. A file that
//! does not load (half copied by a careless publisher, deleted) is skipped: the thread keeps
//! the net it has and tries again when the file changes.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use hayate_eval::Nnue;
use hayate_eval::nnue::{NnueError, NnueFault};
use hayate_infer::{Backend, BackendError, Batch, NetKind};

/// What identifies one version of the followed file: the path it resolves to (the content
/// hashed name behind a `current` symlink), its length and its modification time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// The file the path resolves to (symlinks followed).
    pub target: PathBuf,
    /// Its length in bytes.
    pub len: u64,
    /// Its modification time, where the file system has one.
    pub modified: Option<SystemTime>,
}

impl Stamp {
    /// The stamp of `path` now.
    ///
    /// # Errors
    /// The I/O error of resolving or reading the metadata of `path`.
    pub fn of(path: &Path) -> std::io::Result<Stamp> {
        let target = std::fs::canonicalize(path)?;
        let meta = std::fs::metadata(&target)?;
        Ok(Stamp {
            target,
            len: meta.len(),
            modified: meta.modified().ok(),
        })
    }
}

/// When to load a followed file again: it is looked at (its [`Stamp`]) at most once per
/// `interval`, and a version that failed to load is not tried again until the file changes.
struct Watch {
    path: PathBuf,
    stamp: Stamp,
    /// The last version that failed to load.
    bad: Option<Stamp>,
    /// When the file was last looked at.
    checked: Instant,
    interval: Duration,
}

impl Watch {
    fn new(path: PathBuf, stamp: Stamp, interval: Duration) -> Watch {
        Watch {
            path,
            stamp,
            bad: None,
            checked: Instant::now(),
            interval,
        }
    }

    /// Loads the file with `load` when it has changed since the version held; `None` when it
    /// has not, was not looked at yet, or does not load.
    fn reload<T, E>(&mut self, load: impl FnOnce(&Path) -> Result<T, E>) -> Option<T> {
        if self.checked.elapsed() < self.interval {
            return None;
        }
        self.checked = Instant::now();
        let now = Stamp::of(&self.path).ok()?;
        if now == self.stamp || self.bad.as_ref() == Some(&now) {
            return None;
        }
        match load(&now.target) {
            Ok(x) => {
                self.stamp = now;
                self.bad = None;
                Some(x)
            }
            Err(_) => {
                self.bad = Some(now);
                None
            }
        }
    }
}

struct Loaded {
    watch: Watch,
    net: Nnue,
}

/// An NNUE file re-read between games when it changes; shared by all threads of a run, so a
/// new net is loaded once.
pub struct FollowedNnue {
    path: PathBuf,
    loaded: Mutex<Loaded>,
    changes: AtomicU64,
}

/// The least time between two looks at a followed file.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(5);

impl std::fmt::Debug for FollowedNnue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FollowedNnue")
            .field("path", &self.path)
            .field("changes", &self.changes())
            .finish_non_exhaustive()
    }
}

impl FollowedNnue {
    /// The least time between two looks at the file.
    pub const DEFAULT_INTERVAL: Duration = DEFAULT_INTERVAL;

    /// Loads the net `path` resolves to now; the file is looked at again at most once per
    /// [`FollowedNnue::DEFAULT_INTERVAL`].
    ///
    /// # Errors
    /// The file cannot be resolved or is not a HalfKP 256x2-32-32 `nn.bin`.
    pub fn open(path: impl AsRef<Path>) -> Result<FollowedNnue, NnueError> {
        let path = path.as_ref().to_path_buf();
        let stamp = Stamp::of(&path).map_err(|e| NnueError {
            path: path.clone(),
            fault: NnueFault::Io(e),
        })?;
        let net = Nnue::load(&stamp.target)?;
        Ok(FollowedNnue {
            path: path.clone(),
            loaded: Mutex::new(Loaded {
                watch: Watch::new(path, stamp, DEFAULT_INTERVAL),
                net,
            }),
            changes: AtomicU64::new(0),
        })
    }

    /// The same, looking at the file at most once per `interval` (zero: before every game).
    pub fn with_interval(self, interval: Duration) -> FollowedNnue {
        let mut loaded = self.loaded.into_inner().unwrap_or_else(|p| p.into_inner());
        loaded.watch.interval = interval;
        FollowedNnue {
            loaded: Mutex::new(loaded),
            ..self
        }
    }

    /// The followed path (e.g. `RUN/current`).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many times a changed file was loaded since [`FollowedNnue::open`].
    pub fn changes(&self) -> u64 {
        self.changes.load(Ordering::Relaxed)
    }

    /// The net to play the next game with and the version it came from: the file is loaded
    /// again when its stamp changed and the new file loads; otherwise the net already held.
    pub fn current(&self) -> (Stamp, Nnue) {
        let mut l = match self.loaded.lock() {
            Ok(l) => l,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(net) = l.watch.reload(|p| Nnue::load(p)) {
            l.net = net;
            self.changes.fetch_add(1, Ordering::Relaxed);
        }
        (l.watch.stamp.clone(), l.net.clone())
    }
}

/// What makes a backend from a model file.
pub type BackendLoader = Box<dyn Fn(&Path) -> Result<Box<dyn Backend>, BackendError> + Send>;

/// An ONNX model followed by the backend that runs it: before a network call (at most once per
/// interval) the file is looked at, and when it changed and the new file loads, the calls from
/// then on use it. `version` counts the changes, so that searchers can drop the evaluations
/// they cached from the old network (games under way finish with the new one).
pub struct FollowedModel {
    inner: Box<dyn Backend>,
    watch: Watch,
    load: BackendLoader,
    version: Arc<AtomicU64>,
}

impl FollowedModel {
    /// Follows `path` with backends made by `load` (loaded once now).
    ///
    /// # Errors
    /// The file cannot be resolved or `load` fails.
    pub fn open(
        path: impl AsRef<Path>,
        interval: Duration,
        load: BackendLoader,
    ) -> Result<FollowedModel, BackendError> {
        let path = path.as_ref().to_path_buf();
        let stamp = Stamp::of(&path).map_err(|e| BackendError::Load {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let inner = load(&stamp.target)?;
        Ok(FollowedModel {
            inner,
            watch: Watch::new(path, stamp, interval),
            load,
            version: Arc::new(AtomicU64::new(0)),
        })
    }

    /// The count of changes, shared with whoever wants to know.
    pub fn version(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.version)
    }
}

impl Backend for FollowedModel {
    /// The first network's (a followed file is expected to keep its family).
    fn kind(&self) -> NetKind {
        self.inner.kind()
    }

    fn name(&self) -> String {
        format!(
            "{} (following {})",
            self.inner.name(),
            self.watch.path.display()
        )
    }

    fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError> {
        if let Some(b) = self.watch.reload(|p| (self.load)(p)) {
            self.inner = b;
            self.version.fetch_add(1, Ordering::Release);
        }
        self.inner.evaluate(batch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate_core::Position;
    use hayate_infer::RandomBackend;

    #[test]
    fn a_followed_model_switches_networks_when_its_file_changes() {
        let dir = std::env::temp_dir().join(format!("hayate-follow-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b, bad) = (dir.join("a.onnx"), dir.join("b.onnx"), dir.join("bad.onnx"));
        std::fs::write(&a, b"1").unwrap();
        std::fs::write(&b, b"22").unwrap();
        std::fs::write(&bad, b"").unwrap();
        let link = dir.join("current.onnx");
        let point = |to: &Path| {
            let tmp = dir.join("tmp");
            let _ = std::fs::remove_file(&tmp);
            std::os::unix::fs::symlink(to, &tmp).unwrap();
            std::fs::rename(&tmp, &link).unwrap();
        };
        point(&a);
        // A "network" per file: the random backend seeded by the file's length; empty files
        // do not load.
        let load = |p: &Path| -> Result<Box<dyn Backend>, BackendError> {
            match std::fs::metadata(p).map(|m| m.len()).unwrap_or(0) {
                0 => Err(BackendError::Load {
                    path: p.display().to_string(),
                    message: "empty".into(),
                }),
                n => Ok(Box::new(RandomBackend::new(n))),
            }
        };
        let mut f = FollowedModel::open(&link, Duration::ZERO, Box::new(load)).unwrap();
        let version = f.version();
        let value = |f: &mut FollowedModel| {
            let mut batch = Batch::new(1);
            batch.push(&Position::startpos());
            f.evaluate(&mut batch).unwrap();
            batch.value_of(0)
        };
        let va = value(&mut f);
        assert_eq!(value(&mut f), va);
        point(&bad);
        assert_eq!(value(&mut f), va, "a file that does not load is skipped");
        assert_eq!(version.load(Ordering::Acquire), 0);
        point(&b);
        let vb = value(&mut f);
        assert_ne!(vb, va, "the new network answers");
        assert_eq!(version.load(Ordering::Acquire), 1);
        assert!(f.name().contains("current.onnx"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
