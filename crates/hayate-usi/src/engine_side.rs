//! Engine side: parse GUI commands, format `info` and `bestmove`.

use hayate_core::player::{BestMove, Bound, Info, Limits, Score};
use std::fmt::Write;
use std::time::Duration;

/// A malformed command, with a message fit for `info string`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiError(pub String);

impl std::fmt::Display for UsiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsiError {}

/// The limit of `go mate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateLimit {
    /// `go mate <ms>`.
    Millis(u64),
    /// `go mate infinite`.
    Infinite,
}

/// A parsed `go` command.
#[derive(Clone, Debug, Default)]
pub struct Go {
    /// The search limits (times indexed by colour).
    pub limits: Limits,
    /// Present for `go mate`.
    pub mate: Option<MateLimit>,
}

/// A command from the GUI.
#[derive(Clone, Debug)]
pub enum Command {
    /// `usi`
    Usi,
    /// `isready`
    IsReady,
    /// `setoption name N [value V]`
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Value (empty for buttons).
        value: String,
    },
    /// `usinewgame`
    UsiNewGame,
    /// `position ...`: the text after `position`, parsed by the rules core.
    Position(String),
    /// `go ...`
    Go(Go),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `gameover win|lose|draw`
    GameOver(String),
    /// `quit`
    Quit,
    /// An empty line.
    Empty,
    /// An engine-specific extension: the first word and the rest (e.g. `d`, `eval`).
    Other(String, String),
}

fn ms(words: &mut std::slice::Iter<'_, &str>, what: &str) -> Result<Duration, UsiError> {
    let w = words
        .next()
        .ok_or_else(|| UsiError(format!("go {what}: missing value")))?;
    let v: i64 = w
        .parse()
        .map_err(|_| UsiError(format!("go {what}: {w:?} is not a number")))?;
    // Some GUIs send slightly negative remaining times; treat them as zero.
    Ok(Duration::from_millis(v.max(0) as u64))
}

fn parse_go(rest: &str) -> Result<Go, UsiError> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut it = words.iter();
    let mut go = Go::default();
    while let Some(&w) = it.next() {
        match w {
            "btime" => go.limits.time[0] = Some(ms(&mut it, w)?),
            "wtime" => go.limits.time[1] = Some(ms(&mut it, w)?),
            "binc" => go.limits.increment[0] = Some(ms(&mut it, w)?),
            "winc" => go.limits.increment[1] = Some(ms(&mut it, w)?),
            "byoyomi" => go.limits.byoyomi = Some(ms(&mut it, w)?),
            "movetime" => go.limits.movetime = Some(ms(&mut it, w)?),
            "nodes" => {
                let v = it
                    .next()
                    .ok_or_else(|| UsiError("go nodes: missing value".into()))?;
                go.limits.nodes = Some(
                    v.parse()
                        .map_err(|_| UsiError(format!("go nodes: {v:?} is not a number")))?,
                );
            }
            "depth" => {
                let v = it
                    .next()
                    .ok_or_else(|| UsiError("go depth: missing value".into()))?;
                go.limits.depth = Some(
                    v.parse()
                        .map_err(|_| UsiError(format!("go depth: {v:?} is not a number")))?,
                );
            }
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "mate" => {
                go.mate = Some(match it.next() {
                    None | Some(&"infinite") => MateLimit::Infinite,
                    Some(v) => MateLimit::Millis(v.parse().map_err(|_| {
                        UsiError(format!("go mate: {v:?} is neither a number nor infinite"))
                    })?),
                });
            }
            "searchmoves" => {
                // Moves are checked against the position by the caller; keep the text here.
                for m in it.by_ref() {
                    match hayate_core::usi::parse_move_syntax(m) {
                        Ok(m16) => go
                            .limits
                            .search_moves
                            .push(hayate_core::Move::from_raw(m16.0 as u32)),
                        Err(e) => return Err(UsiError(format!("go searchmoves: {e}"))),
                    }
                }
            }
            other => return Err(UsiError(format!("go: unknown parameter {other:?}"))),
        }
    }
    Ok(go)
}

/// Parses one line from the GUI.
///
/// # Errors
/// A [`UsiError`] for a known command with malformed arguments.
pub fn parse_command(line: &str) -> Result<Command, UsiError> {
    let line = line.trim();
    let (head, rest) = match line.split_once(char::is_whitespace) {
        Some((h, r)) => (h, r.trim()),
        None => (line, ""),
    };
    Ok(match head {
        "" => Command::Empty,
        "usi" => Command::Usi,
        "isready" => Command::IsReady,
        "usinewgame" => Command::UsiNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "gameover" => Command::GameOver(rest.to_string()),
        "position" => Command::Position(rest.to_string()),
        "go" => Command::Go(parse_go(rest)?),
        "setoption" => {
            let rest = rest
                .strip_prefix("name")
                .ok_or_else(|| UsiError("setoption: expected 'name'".into()))?
                .trim_start();
            let (name, value) = match rest.split_once(" value") {
                Some((n, v)) => (n.trim(), v.trim()),
                None => (rest.trim(), ""),
            };
            if name.is_empty() {
                return Err(UsiError("setoption: empty name".into()));
            }
            Command::SetOption {
                name: name.to_string(),
                value: value.to_string(),
            }
        }
        other => Command::Other(other.to_string(), rest.to_string()),
    })
}

/// Formats an `info` line.
pub fn format_info(info: &Info) -> String {
    let mut s = String::from("info");
    if let Some(t) = &info.string {
        let _ = write!(s, " string {t}");
        return s;
    }
    if let Some(d) = info.depth {
        let _ = write!(s, " depth {d}");
    }
    if let Some(d) = info.seldepth {
        let _ = write!(s, " seldepth {d}");
    }
    if let Some(t) = info.time_ms {
        let _ = write!(s, " time {t}");
    }
    if let Some(n) = info.nodes {
        let _ = write!(s, " nodes {n}");
    }
    if let Some(n) = info.nps {
        let _ = write!(s, " nps {n}");
    }
    if let Some(h) = info.hashfull {
        let _ = write!(s, " hashfull {h}");
    }
    if let Some(m) = info.multipv {
        let _ = write!(s, " multipv {m}");
    }
    if let Some(sc) = info.score {
        match sc {
            Score::Cp(v) => {
                let _ = write!(s, " score cp {v}");
            }
            Score::Mate(n) => {
                // USI writes "mate -0" for mated-now; plain "-N" otherwise.
                if n == 0 {
                    let _ = write!(s, " score mate -0");
                } else {
                    let _ = write!(s, " score mate {n}");
                }
            }
        }
        match info.bound {
            Bound::Lower => s.push_str(" lowerbound"),
            Bound::Upper => s.push_str(" upperbound"),
            Bound::Exact => {}
        }
    }
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            let _ = write!(s, " {}", m.to_usi());
        }
    }
    s
}

/// Formats a `bestmove` line.
pub fn format_bestmove(b: &BestMove) -> String {
    match b {
        BestMove::Move {
            best,
            ponder: Some(p),
        } => format!("bestmove {} ponder {}", best.to_usi(), p.to_usi()),
        BestMove::Move { best, ponder: None } => format!("bestmove {}", best.to_usi()),
        BestMove::Resign => "bestmove resign".into(),
        BestMove::Win => "bestmove win".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_go_variants() {
        let Command::Go(g) = parse_command("go btime 1000 wtime 2000 byoyomi 500").unwrap() else {
            panic!()
        };
        assert_eq!(g.limits.time[1], Some(Duration::from_millis(2000)));
        assert_eq!(g.limits.byoyomi, Some(Duration::from_millis(500)));
        let Command::Go(g) = parse_command("go ponder btime 0 wtime 0 binc 100 winc 100").unwrap()
        else {
            panic!()
        };
        assert!(g.limits.ponder && g.limits.increment[0].is_some());
        let Command::Go(g) = parse_command("go mate 3000").unwrap() else {
            panic!()
        };
        assert_eq!(g.mate, Some(MateLimit::Millis(3000)));
        let Command::Go(g) = parse_command("go mate infinite").unwrap() else {
            panic!()
        };
        assert_eq!(g.mate, Some(MateLimit::Infinite));
        assert!(parse_command("go btime x").is_err());
        assert!(parse_command("go frobnicate").is_err());
        let Command::Go(g) = parse_command("go btime -5 wtime 10").unwrap() else {
            panic!()
        };
        assert_eq!(g.limits.time[0], Some(Duration::ZERO));
    }

    #[test]
    fn parses_setoption_with_spaces() {
        let Command::SetOption { name, value } =
            parse_command("setoption name Eval Dir value /a b/c").unwrap()
        else {
            panic!()
        };
        assert_eq!((name.as_str(), value.as_str()), ("Eval Dir", "/a b/c"));
        assert!(parse_command("setoption foo").is_err());
    }

    #[test]
    fn formats_info_and_bestmove() {
        let i = Info {
            depth: Some(3),
            score: Some(Score::Mate(-0)),
            bound: Bound::Lower,
            ..Info::default()
        };
        assert_eq!(format_info(&i), "info depth 3 score mate -0 lowerbound");
        assert_eq!(format_bestmove(&BestMove::Resign), "bestmove resign");
    }
}
