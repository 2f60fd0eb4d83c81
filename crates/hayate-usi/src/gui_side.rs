//! GUI side: what an engine prints, parsed (for the arena and tests).

/// One line from an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name ...` / `id author ...`
    Id(String, String),
    /// `option name N type ...`
    Option(String),
    /// `usiok`
    UsiOk,
    /// `readyok`
    ReadyOk,
    /// `bestmove M [ponder P]` (M may be `resign` or `win`).
    BestMove(String, Option<String>),
    /// `checkmate ...` (answer to `go mate`).
    Checkmate(String),
    /// `info ...` (the text after `info`).
    Info(String),
    /// Anything else.
    Other(String),
}

/// Parses one line of engine output.
pub fn parse_engine_line(line: &str) -> EngineLine {
    let line = line.trim();
    let mut w = line.split_whitespace();
    match w.next() {
        Some("id") => {
            let k = w.next().unwrap_or("").to_string();
            EngineLine::Id(k, w.collect::<Vec<_>>().join(" "))
        }
        Some("option") => EngineLine::Option(line["option".len()..].trim().to_string()),
        Some("usiok") => EngineLine::UsiOk,
        Some("readyok") => EngineLine::ReadyOk,
        Some("bestmove") => {
            let m = w.next().unwrap_or("").to_string();
            let p = match (w.next(), w.next()) {
                (Some("ponder"), Some(p)) => Some(p.to_string()),
                _ => None,
            };
            EngineLine::BestMove(m, p)
        }
        Some("checkmate") => EngineLine::Checkmate(w.collect::<Vec<_>>().join(" ")),
        Some("info") => EngineLine::Info(line["info".len()..].trim().to_string()),
        _ => EngineLine::Other(line.to_string()),
    }
}
