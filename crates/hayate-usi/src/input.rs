//! Lines from the GUI as bytes: USI is ASCII, but a GUI on Japanese Windows sends option values
//! (paths) in Shift_JIS, and a broken pipe can send anything. A line that is neither UTF-8 nor
//! (for `setoption`) Shift_JIS is an error for that line only, except a `go`: the GUI waits for
//! its answer, so its bad bytes become U+FFFD and the words holding them are reported and
//! ignored by the `go` parser, which searches with the rest.

use std::io::BufRead;

/// The longest line kept (16 MiB: a `position` with thousands of moves is far shorter); the
/// rest of a longer line is read and dropped.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// A line that could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Neither UTF-8 nor, for `setoption`, Shift_JIS; `at` is the first bad byte's offset.
    Undecodable {
        /// Byte offset of the first byte that is not UTF-8.
        at: usize,
        /// The line's length in bytes.
        len: usize,
    },
    /// Longer than [`MAX_LINE_BYTES`].
    TooLong(usize),
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::Undecodable { at, len } => write!(
                f,
                "a line of {len} bytes is not UTF-8 (bad byte at {at}) nor Shift_JIS; ignored"
            ),
            LineError::TooLong(n) => write!(f, "a line of {n} bytes is too long; ignored"),
        }
    }
}

impl std::error::Error for LineError {}

/// Decodes one line (without its `\n`; a trailing `\r` is dropped): UTF-8, else Shift_JIS for
/// a `setoption` line (its value is a Windows path in the GUI's code page), else, for a `go`
/// line, UTF-8 with each bad byte replaced by U+FFFD (every `go` must be answered).
///
/// # Errors
/// [`LineError::Undecodable`] when neither applies.
pub fn decode_line(bytes: &[u8]) -> Result<String, LineError> {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => {
            let undecodable = LineError::Undecodable {
                at: e.valid_up_to(),
                len: bytes.len(),
            };
            let command = bytes.trim_ascii_start();
            let word_end = command
                .iter()
                .position(|b| b.is_ascii_whitespace())
                .unwrap_or(command.len());
            if &command[..word_end] == b"go" {
                return Ok(String::from_utf8_lossy(bytes).into_owned());
            }
            if !command.starts_with(b"setoption") {
                return Err(undecodable);
            }
            encoding_rs::SHIFT_JIS
                .decode_without_bom_handling_and_without_replacement(bytes)
                .map(|s| s.into_owned())
                .ok_or(undecodable)
        }
    }
}

/// Reads the next line from `input` as bytes and decodes it. `None` at end of input (or when
/// the input fails: for a USI loop the GUI is gone either way).
pub fn read_line(input: &mut impl BufRead) -> Option<Result<String, LineError>> {
    let mut buf = Vec::new();
    let mut total = 0usize;
    loop {
        let (done, used) = {
            let chunk = match input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            };
            if chunk.is_empty() {
                // End of input: a last line without `\n` still counts.
                if total == 0 {
                    return None;
                }
                (true, 0)
            } else {
                let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
                    Some(i) => (&chunk[..i], true),
                    None => (chunk, false),
                };
                if buf.len() + part.len() <= MAX_LINE_BYTES {
                    buf.extend_from_slice(part);
                }
                total += part.len();
                (done, part.len() + usize::from(done))
            }
        };
        input.consume(used);
        if done {
            break;
        }
    }
    if total > MAX_LINE_BYTES {
        return Some(Err(LineError::TooLong(total)));
    }
    Some(decode_line(&buf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_lines_pass_and_cr_is_dropped() {
        assert_eq!(decode_line(b"isready\r"), Ok("isready".into()));
        assert_eq!(
            decode_line("setoption name EvalDir value 評価関数".as_bytes()),
            Ok("setoption name EvalDir value 評価関数".into())
        );
    }

    #[test]
    fn a_shift_jis_path_in_setoption_is_decoded() {
        // "C:\将棋\評価関数" in Shift_JIS, as a GUI on Japanese Windows sends it.
        let (sjis, _, bad) =
            encoding_rs::SHIFT_JIS.encode("setoption name EvalDir value C:\\将棋\\評価関数");
        assert!(!bad);
        assert!(std::str::from_utf8(&sjis).is_err());
        assert_eq!(
            decode_line(&sjis),
            Ok("setoption name EvalDir value C:\\将棋\\評価関数".into())
        );
    }

    #[test]
    fn undecodable_bytes_are_an_error_for_that_line_only() {
        assert_eq!(
            decode_line(b"\xff\xfe"),
            Err(LineError::Undecodable { at: 0, len: 2 })
        );
        assert!(decode_line(b"setoption name X value \xff\xfe").is_err());
        // Not a setoption: no Shift_JIS guess.
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("position 将棋");
        assert!(decode_line(&sjis).is_err());
        let mut input: &[u8] = b"usi\n\xff\xfe\nisready\r\nlast";
        let lines: Vec<_> = std::iter::from_fn(|| read_line(&mut input)).collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], Ok("usi".into()));
        assert!(lines[1].is_err());
        assert_eq!(lines[2], Ok("isready".into()));
        assert_eq!(lines[3], Ok("last".into()));
    }

    #[test]
    fn a_go_line_with_bad_bytes_is_kept_with_them_replaced() {
        // The garbled `go` lines a byte-level fuzz found unanswered (issue 66).
        assert_eq!(
            decode_line(b"go depth\xa1 3"),
            Ok("go depth\u{fffd} 3".into())
        );
        assert_eq!(
            decode_line(b"  go inf\xa4\xd9nite\r"),
            Ok("  go inf\u{fffd}\u{fffd}nite".into())
        );
        assert_eq!(
            decode_line(b"go mate 1\xf300"),
            Ok("go mate 1\u{fffd}00".into())
        );
        // Only the `go` command: a word that merely starts with it is not one.
        assert!(decode_line(b"gogo \xff").is_err());
        assert!(decode_line(b"g\xffo depth 1").is_err());
    }

    #[test]
    fn an_overlong_line_is_refused_and_the_next_one_read() {
        let mut text = vec![b'x'; MAX_LINE_BYTES + 10];
        text.extend_from_slice(b"\nquit\n");
        let mut input: &[u8] = &text;
        assert_eq!(
            read_line(&mut input),
            Some(Err(LineError::TooLong(MAX_LINE_BYTES + 10)))
        );
        assert_eq!(read_line(&mut input), Some(Ok("quit".into())));
        assert_eq!(read_line(&mut input), None);
    }
}
