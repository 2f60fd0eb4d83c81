//! The results file: one JSON object per finished game, appended and flushed to disk as soon as
//! the game ends, so a run that is killed loses at most the games in flight. On restart the file
//! is read back, a torn last line (a kill in the middle of a write) is cut off, and the games
//! already there are not played again.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::game::{EndReason, GameResult};

/// One finished game as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEntry {
    /// The game's number in the schedule (0-based).
    pub id: u64,
    /// Black's engine name.
    pub black: String,
    /// White's engine name.
    pub white: String,
    /// Index of the opening in the openings list.
    pub opening: usize,
    /// Who won.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: EndReason,
    /// Plies in the record.
    pub plies: usize,
    /// The CSA record, relative to the results file's folder.
    pub record: String,
    /// Anything people should know (engine errors, the illegal move).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// What went wrong with the results file.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// Reading or writing failed.
    #[error("results file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A complete line that is not a game entry (not a torn write: the file is not ours).
    #[error("results file {path}, line {line}: not a game entry: {message}")]
    BadLine {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The parser's message.
        message: String,
    },
}

/// The games of the results file at `path`, read only: a torn last line (a match still writing
/// it, or one killed) is left out and left in place. For reading a run while it plays.
///
/// # Errors
/// [`ResultsError`] when the file cannot be read or a line other than the last does not parse.
pub fn read_entries(path: &Path) -> Result<Vec<GameEntry>, ResultsError> {
    let bytes = std::fs::read(path).map_err(|source| ResultsError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(parse_entries(path, &bytes)?.0)
}

/// The complete lines' games and the length of the good prefix (what follows it is a torn
/// last line).
fn parse_entries(path: &Path, bytes: &[u8]) -> Result<(Vec<GameEntry>, usize), ResultsError> {
    let mut entries = Vec::new();
    let mut good_len = 0usize;
    let mut start = 0usize;
    let mut line_no = 0usize;
    while start < bytes.len() {
        line_no += 1;
        let (end, complete) = match bytes[start..].iter().position(|&b| b == b'\n') {
            Some(k) => (start + k, true),
            None => (bytes.len(), false),
        };
        let text = String::from_utf8_lossy(&bytes[start..end]);
        let text = text.trim();
        let next = if complete { end + 1 } else { end };
        if text.is_empty() {
            if complete {
                good_len = next;
            }
            start = next;
            continue;
        }
        match serde_json::from_str::<GameEntry>(text) {
            Ok(e) if complete => {
                entries.push(e);
                good_len = next;
            }
            // The last line, torn by a kill: drop it.
            Ok(_) => {}
            Err(_) if next >= bytes.len() => {}
            Err(e) => {
                return Err(ResultsError::BadLine {
                    path: path.to_path_buf(),
                    line: line_no,
                    message: e.to_string(),
                });
            }
        }
        start = next;
    }
    Ok((entries, good_len))
}

/// An open results file: the games read back and a handle to append new ones.
pub struct ResultsFile {
    path: PathBuf,
    file: File,
    /// Games already in the file (in file order).
    pub entries: Vec<GameEntry>,
    /// Bytes of a torn last line that were cut off on opening (0 when the file was clean).
    pub truncated_bytes: u64,
}

impl ResultsFile {
    /// Opens (or creates) a results file and reads the games in it. A last line without its
    /// newline, or one that does not parse, is a torn write and is cut off; any other line that
    /// does not parse is an error.
    ///
    /// # Errors
    /// [`ResultsError`] on I/O failure or a foreign line.
    pub fn open(path: &Path) -> Result<ResultsFile, ResultsError> {
        let io = |source| ResultsError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let (entries, good_len) = parse_entries(path, &bytes)?;
        let truncated_bytes = (bytes.len() - good_len) as u64;
        if truncated_bytes > 0 {
            file.set_len(good_len as u64).map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok(ResultsFile {
            path: path.to_path_buf(),
            file,
            entries,
            truncated_bytes,
        })
    }

    /// Appends one game and flushes it to disk.
    ///
    /// # Errors
    /// [`ResultsError::Io`] when the write fails.
    pub fn append(&mut self, e: &GameEntry) -> Result<(), ResultsError> {
        let io = |source| ResultsError::Io {
            path: self.path.clone(),
            source,
        };
        let mut line =
            serde_json::to_string(e).map_err(|err| io(std::io::Error::other(err.to_string())))?;
        line.push('\n');
        // One write call per line so a kill tears at most this line.
        self.file.write_all(line.as_bytes()).map_err(io)?;
        self.file.sync_data().map_err(io)?;
        self.entries.push(e.clone());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: u64) -> GameEntry {
        GameEntry {
            id,
            black: "a".into(),
            white: "b".into(),
            opening: 0,
            result: GameResult::Draw,
            reason: EndReason::Repetition,
            plies: 10,
            record: format!("games/{id}.csa"),
            detail: String::new(),
        }
    }

    #[test]
    fn append_reopen_and_cut_a_torn_line() {
        let dir = std::env::temp_dir().join(format!("hayate-arena-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("r.jsonl");
        let _ = std::fs::remove_file(&p);
        {
            let mut f = ResultsFile::open(&p).unwrap();
            assert!(f.entries.is_empty());
            f.append(&entry(0)).unwrap();
            f.append(&entry(1)).unwrap();
        }
        // A kill in the middle of the third write.
        let mut raw = std::fs::read(&p).unwrap();
        raw.extend_from_slice(br#"{"id":2,"black":"a","whi"#);
        std::fs::write(&p, &raw).unwrap();
        {
            let mut f = ResultsFile::open(&p).unwrap();
            assert_eq!(f.entries.len(), 2);
            assert_eq!(f.truncated_bytes, 24);
            f.append(&entry(2)).unwrap();
        }
        let f = ResultsFile::open(&p).unwrap();
        assert_eq!(
            f.entries.iter().map(|e| e.id).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert_eq!(f.truncated_bytes, 0);
        // A foreign line in the middle is an error, not silently dropped.
        std::fs::write(&p, "garbage\n{}\n").unwrap();
        assert!(matches!(
            ResultsFile::open(&p),
            Err(ResultsError::BadLine { line: 1, .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
