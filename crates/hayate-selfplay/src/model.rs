//! An NNUE file followed between games, so that long-running workers pick up new nets.
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
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use hayate_eval::Nnue;
use hayate_eval::nnue::{NnueError, NnueFault};

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

struct Loaded {
    stamp: Stamp,
    net: Nnue,
    /// The last version that failed to load (not tried again until the file changes).
    bad: Option<Stamp>,
    /// When the file was last looked at.
    checked: Instant,
}

/// An NNUE file re-read between games when it changes; shared by all threads of a run, so a
/// new net is loaded once.
pub struct FollowedNnue {
    path: PathBuf,
    loaded: Mutex<Loaded>,
    changes: AtomicU64,
    interval: Duration,
}

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
    pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(5);

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
            path,
            loaded: Mutex::new(Loaded {
                stamp,
                net,
                bad: None,
                checked: Instant::now(),
            }),
            changes: AtomicU64::new(0),
            interval: Self::DEFAULT_INTERVAL,
        })
    }

    /// The same, looking at the file at most once per `interval` (zero: before every game).
    pub fn with_interval(mut self, interval: Duration) -> FollowedNnue {
        self.interval = interval;
        self
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
        if l.checked.elapsed() < self.interval {
            return (l.stamp.clone(), l.net.clone());
        }
        l.checked = Instant::now();
        if let Ok(now) = Stamp::of(&self.path)
            && now != l.stamp
            && l.bad.as_ref() != Some(&now)
        {
            match Nnue::load(&now.target) {
                Ok(net) => {
                    l.net = net;
                    l.stamp = now;
                    l.bad = None;
                    self.changes.fetch_add(1, Ordering::Relaxed);
                }
                Err(_) => l.bad = Some(now),
            }
        }
        (l.stamp.clone(), l.net.clone())
    }
}
