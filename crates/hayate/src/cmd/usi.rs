//! The USI loop (handshake only until the search lands).

use std::io::{BufRead, Write};

/// Reads USI commands from stdin until `quit` or end of input.
pub fn run() -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let line = line?;
        match line.split_whitespace().next() {
            Some("usi") => {
                writeln!(out, "id name Hayate {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the Hayate developers")?;
                writeln!(out, "usiok")?;
            }
            Some("isready") => writeln!(out, "readyok")?,
            Some("quit") => break,
            _ => {}
        }
        out.flush()?;
    }
    Ok(())
}
