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
    /// Parameters that were ignored (unknown words, values that are not numbers), one message
    /// each for an `info string`: a malformed `go` still searches, so it still gets a
    /// `bestmove`.
    pub ignored: Vec<String>,
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

/// The longest time a `go` parameter keeps (about 49 days): larger values, up to any number
/// of digits, saturate here, so that no clock arithmetic downstream can overflow.
pub const MAX_GO_MILLIS: u64 = u32::MAX as u64;

/// An integer parameter, saturated into `0..=max`: a minus sign gives 0 (some GUIs send
/// slightly negative remaining times), more digits than fit give `max`. `None` if `text` is
/// not an integer at all.
fn saturating(text: &str, max: u64) -> Option<u64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return Some(0);
    }
    Some(digits.parse::<u64>().map_or(max, |v| v.min(max)))
}

/// The value after parameter `what`, saturated into `0..=max`, or a message saying why it
/// was ignored.
fn value(words: &mut std::slice::Iter<'_, &str>, what: &str, max: u64) -> Result<u64, String> {
    let w = words
        .next()
        .ok_or_else(|| format!("go {what}: missing value; ignored"))?;
    saturating(w, max).ok_or_else(|| format!("go {what}: {w:?} is not a number; ignored"))
}

fn parse_go(rest: &str) -> Go {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut it = words.iter();
    let mut go = Go::default();
    while let Some(&w) = it.next() {
        let ms = |it: &mut std::slice::Iter<'_, &str>| {
            value(it, w, MAX_GO_MILLIS).map(|v| Some(Duration::from_millis(v)))
        };
        let l = &mut go.limits;
        let done = match w {
            "btime" => ms(&mut it).map(|v| l.time[0] = v),
            "wtime" => ms(&mut it).map(|v| l.time[1] = v),
            "binc" => ms(&mut it).map(|v| l.increment[0] = v),
            "winc" => ms(&mut it).map(|v| l.increment[1] = v),
            "byoyomi" => ms(&mut it).map(|v| l.byoyomi = v),
            "movetime" => ms(&mut it).map(|v| l.movetime = v),
            "nodes" => value(&mut it, w, u64::MAX).map(|v| l.nodes = Some(v)),
            "depth" => value(&mut it, w, u32::MAX as u64).map(|v| l.depth = Some(v as u32)),
            "infinite" => {
                l.infinite = true;
                Ok(())
            }
            "ponder" => {
                l.ponder = true;
                Ok(())
            }
            "mate" => {
                let limit = match it.clone().next() {
                    None => Ok(MateLimit::Infinite),
                    Some(&"infinite") => {
                        it.next();
                        Ok(MateLimit::Infinite)
                    }
                    Some(_) => value(&mut it, w, MAX_GO_MILLIS).map(MateLimit::Millis),
                };
                // A bad limit still makes a mate search; `stop` ends it.
                go.mate = Some(limit.clone().unwrap_or(MateLimit::Infinite));
                limit.map(|_| ())
            }
            "searchmoves" => {
                // Moves are checked against the position by the caller; keep the text here.
                let mut bad = Vec::new();
                for m in it.by_ref() {
                    match hayate_core::usi::parse_move_syntax(m) {
                        Ok(m16) => l
                            .search_moves
                            .push(hayate_core::Move::from_raw(m16.0 as u32)),
                        Err(e) => bad.push(format!("go searchmoves: {e}; ignored")),
                    }
                }
                if bad.is_empty() {
                    Ok(())
                } else {
                    Err(bad.join("; "))
                }
            }
            other => Err(format!("go: unknown parameter {other:?}; ignored")),
        };
        if let Err(e) = done {
            go.ignored.push(e);
        }
    }
    go
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
        "go" => Command::Go(parse_go(rest)),
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

    fn go(line: &str) -> Go {
        match parse_command(line) {
            Ok(Command::Go(g)) => g,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn parses_go_variants() {
        let g = go("go btime 1000 wtime 2000 byoyomi 500");
        assert_eq!(g.limits.time[1], Some(Duration::from_millis(2000)));
        assert_eq!(g.limits.byoyomi, Some(Duration::from_millis(500)));
        assert!(g.ignored.is_empty());
        let g = go("go ponder btime 0 wtime 0 binc 100 winc 100");
        assert!(g.limits.ponder && g.limits.increment[0].is_some());
        assert_eq!(go("go mate 3000").mate, Some(MateLimit::Millis(3000)));
        assert_eq!(go("go mate infinite").mate, Some(MateLimit::Infinite));
        assert_eq!(go("go mate").mate, Some(MateLimit::Infinite));
        let g = go("go btime -5 wtime 10");
        assert_eq!(g.limits.time[0], Some(Duration::ZERO));
    }

    #[test]
    fn out_of_range_go_numbers_saturate() {
        let g = go("go btime 18446744073709551615 wtime 99999999999999999999999 byoyomi 1000");
        let max = Some(Duration::from_millis(MAX_GO_MILLIS));
        assert_eq!(g.limits.time, [max, max]);
        assert_eq!(g.limits.byoyomi, Some(Duration::from_millis(1000)));
        assert!(g.ignored.is_empty(), "{:?}", g.ignored);
        let g = go("go nodes 99999999999999999999999 depth 4294967296");
        assert_eq!(
            (g.limits.nodes, g.limits.depth),
            (Some(u64::MAX), Some(u32::MAX))
        );
        let g = go("go movetime -99999999999999999999999");
        assert_eq!(g.limits.movetime, Some(Duration::ZERO));
        assert_eq!(
            go("go mate 99999999999999999999").mate,
            Some(MateLimit::Millis(MAX_GO_MILLIS))
        );
    }

    #[test]
    fn a_malformed_go_is_still_a_go() {
        let g = go("go btime x wtime 100 frobnicate byoyomi");
        assert_eq!(g.limits.time, [None, Some(Duration::from_millis(100))]);
        assert_eq!(g.ignored.len(), 3, "{:?}", g.ignored);
        assert!(g.ignored[0].contains("btime"));
        let g = go("go mate soon");
        assert_eq!(g.mate, Some(MateLimit::Infinite));
        assert_eq!(g.ignored.len(), 1);
        let g = go("go searchmoves 7g7f 7g7z");
        assert_eq!(g.limits.search_moves.len(), 1);
        assert_eq!(g.ignored.len(), 1);
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
