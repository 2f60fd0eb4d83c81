//! The output directory: immutable shards `shard-NNNNNN.<ext>`, each written under
//! `shard-NNNNNN.<ext>.tmp` and renamed when whole, so a killed run leaves at most one partial
//! temporary file per thread, which the next run deletes and writes again.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The path of shard `index`.
pub fn shard_path(dir: &Path, index: u64, ext: &str) -> PathBuf {
    dir.join(format!("shard-{index:06}.{ext}"))
}

fn temp_path(dir: &Path, index: u64, ext: &str) -> PathBuf {
    dir.join(format!("shard-{index:06}.{ext}.tmp"))
}

/// A shard being written: records go to the temporary file; [`ShardWriter::finish`] renames it.
pub struct ShardWriter {
    file: io::BufWriter<File>,
    temp: PathBuf,
    path: PathBuf,
}

impl ShardWriter {
    /// Starts shard `index`, replacing a partial temporary file left by a killed run.
    ///
    /// # Errors
    /// The I/O error of creating the file.
    pub fn create(dir: &Path, index: u64, ext: &str) -> io::Result<ShardWriter> {
        let temp = temp_path(dir, index, ext);
        let file = io::BufWriter::new(File::create(&temp)?);
        Ok(ShardWriter {
            file,
            temp,
            path: shard_path(dir, index, ext),
        })
    }

    /// Appends encoded records.
    ///
    /// # Errors
    /// The I/O error of writing.
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.file.write_all(bytes)
    }

    /// Flushes, syncs and renames the shard to its final name.
    ///
    /// # Errors
    /// The I/O error of flushing or renaming.
    pub fn finish(self) -> io::Result<PathBuf> {
        let file = self.file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.temp, &self.path)?;
        Ok(self.path)
    }
}

/// Writes `path` whole or not at all: a temporary file beside it, synced, then renamed.
///
/// # Errors
/// The I/O error of writing or renaming.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut temp = path.as_os_str().to_owned();
    temp.push(".tmp");
    let mut f = File::create(&temp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    std::fs::rename(&temp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_appears_only_when_finished() {
        let dir = std::env::temp_dir().join(format!("hayate-shard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut w = ShardWriter::create(&dir, 7, "psv").unwrap();
        w.write(&[1, 2, 3]).unwrap();
        assert!(!shard_path(&dir, 7, "psv").exists());
        let p = w.finish().unwrap();
        assert_eq!(p.file_name().unwrap(), "shard-000007.psv");
        assert_eq!(std::fs::read(&p).unwrap(), [1, 2, 3]);
        assert!(!temp_path(&dir, 7, "psv").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
