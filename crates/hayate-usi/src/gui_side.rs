//! GUI side: what an engine prints, parsed (for the arena and tests), and the `go` a GUI sends.

use hayate_core::Position;
use hayate_core::player::{Bound, Info, Limits, Score};
use std::fmt::Write;
use std::time::Duration;

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

/// Reads the text after `info` into an [`Info`]. The PV is read as moves from `pos` (the
/// position searched) and stops at the first word that is not a legal move there. Scores keep
/// their kind: `score mate N` is [`Score::Mate`]; a sign alone (`mate +`, `mate -`) is a mate of
/// unknown distance ([`Score::Mate`] of `i32::MAX` or `-i32::MAX`), and `mate 0`/`-0` is mated
/// now (`Mate(0)`, as the engine side writes it). Unknown words are skipped; `string` and `pv`
/// take the rest of the line.
pub fn parse_info(text: &str, pos: &Position) -> Info {
    let mut info = Info::default();
    let mut w = text.split_whitespace();
    while let Some(k) = w.next() {
        match k {
            "depth" => info.depth = w.next().and_then(|v| v.parse().ok()),
            "seldepth" => info.seldepth = w.next().and_then(|v| v.parse().ok()),
            "time" => info.time_ms = w.next().and_then(|v| v.parse().ok()),
            "nodes" => info.nodes = w.next().and_then(|v| v.parse().ok()),
            "nps" => info.nps = w.next().and_then(|v| v.parse().ok()),
            "hashfull" => info.hashfull = w.next().and_then(|v| v.parse().ok()),
            "multipv" => info.multipv = w.next().and_then(|v| v.parse().ok()),
            "currmove" => {
                w.next();
            }
            "score" => {
                info.score = match (w.next(), w.next()) {
                    (Some("cp"), Some(v)) => v.parse().ok().map(Score::Cp),
                    (Some("mate"), Some(v)) => parse_mate(v),
                    _ => None,
                }
            }
            "lowerbound" => info.bound = Bound::Lower,
            "upperbound" => info.bound = Bound::Upper,
            "pv" => info.pv = parse_pv(w.by_ref(), pos),
            "string" => {
                info.string = Some(w.by_ref().collect::<Vec<_>>().join(" "));
            }
            _ => {}
        }
    }
    info
}

fn parse_mate(v: &str) -> Option<Score> {
    match v {
        "+" | "+0" => Some(Score::Mate(i32::MAX)),
        "-" => Some(Score::Mate(-i32::MAX)),
        _ => v.parse::<i32>().ok().map(Score::Mate),
    }
}

fn parse_pv<'a>(words: impl Iterator<Item = &'a str>, pos: &Position) -> Vec<hayate_core::Move> {
    let mut p = pos.clone();
    let mut pv = Vec::new();
    for w in words {
        let Ok(m) = p.parse_usi_move(w) else { break };
        p.do_move(m);
        pv.push(m);
    }
    pv
}

/// The words of a `go` command (without `go`) for `limits`, GUI convention: `ponder` first;
/// `btime`/`wtime` when either is set (an unset one as 0); `binc`/`winc` when either is set,
/// otherwise `byoyomi` when set; then `movetime`, `nodes`, `depth`, `infinite` and
/// `searchmoves`.
pub fn format_go(limits: &Limits) -> String {
    let ms = |d: Option<Duration>| d.map_or(0, |d| d.as_millis());
    let mut s = String::new();
    let mut word = |text: std::fmt::Arguments<'_>| {
        if !s.is_empty() {
            s.push(' ');
        }
        let _ = s.write_fmt(text);
    };
    if limits.ponder {
        word(format_args!("ponder"));
    }
    if limits.time.iter().any(Option::is_some) {
        word(format_args!(
            "btime {} wtime {}",
            ms(limits.time[0]),
            ms(limits.time[1])
        ));
    }
    if limits.increment.iter().any(Option::is_some) {
        word(format_args!(
            "binc {} winc {}",
            ms(limits.increment[0]),
            ms(limits.increment[1])
        ));
    } else if let Some(b) = limits.byoyomi {
        word(format_args!("byoyomi {}", b.as_millis()));
    }
    if let Some(t) = limits.movetime {
        word(format_args!("movetime {}", t.as_millis()));
    }
    if let Some(n) = limits.nodes {
        word(format_args!("nodes {n}"));
    }
    if let Some(d) = limits.depth {
        word(format_args!("depth {d}"));
    }
    if limits.infinite {
        word(format_args!("infinite"));
    }
    if !limits.search_moves.is_empty() {
        let moves: Vec<String> = limits.search_moves.iter().map(|m| m.to_usi()).collect();
        word(format_args!("searchmoves {}", moves.join(" ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_keeps_mate_scores_as_mates() {
        let pos = Position::startpos();
        let i = parse_info(
            "depth 3 seldepth 5 score cp -42 nodes 100 pv 7g7f 3c3d",
            &pos,
        );
        assert_eq!(
            (i.depth, i.seldepth, i.nodes),
            (Some(3), Some(5), Some(100))
        );
        assert_eq!(i.score, Some(Score::Cp(-42)));
        let usi: Vec<String> = i.pv.iter().map(|m| m.to_usi()).collect();
        assert_eq!(usi, ["7g7f", "3c3d"]);
        assert_eq!(
            parse_info("score mate 3 pv 1a1b+", &pos).score,
            Some(Score::Mate(3))
        );
        assert_eq!(
            parse_info("score mate -2", &pos).score,
            Some(Score::Mate(-2))
        );
        assert_eq!(
            parse_info("score mate -0", &pos).score,
            Some(Score::Mate(0))
        );
        assert_eq!(
            parse_info("score mate +", &pos).score,
            Some(Score::Mate(i32::MAX))
        );
        assert_eq!(
            parse_info("score mate -", &pos).score,
            Some(Score::Mate(-i32::MAX))
        );
        let s = parse_info("string score cp 5", &pos);
        assert_eq!((s.score, s.string.as_deref()), (None, Some("score cp 5")));
        let b = parse_info("multipv 2 score cp 7 lowerbound currmove 7g7f", &pos);
        assert_eq!(
            (b.multipv, b.bound, b.score),
            (Some(2), Bound::Lower, Some(Score::Cp(7)))
        );
        // The PV stops at the first move that is not legal.
        assert_eq!(parse_info("pv 7g7f 7g7f 3c3d", &pos).pv.len(), 1);
    }

    #[test]
    fn go_words_follow_gui_convention() {
        let ms = |v| Some(Duration::from_millis(v));
        let fischer = Limits {
            time: [ms(2000), ms(2000)],
            increment: [ms(100), ms(100)],
            ..Limits::default()
        };
        assert_eq!(
            format_go(&fischer),
            "btime 2000 wtime 2000 binc 100 winc 100"
        );
        let byoyomi = Limits {
            time: [ms(0), ms(0)],
            byoyomi: ms(100),
            ..Limits::default()
        };
        assert_eq!(format_go(&byoyomi), "btime 0 wtime 0 byoyomi 100");
        let fixed = Limits {
            depth: Some(6),
            nodes: Some(1000),
            ..Limits::default()
        };
        assert_eq!(format_go(&fixed), "nodes 1000 depth 6");
        let ponder = Limits {
            ponder: true,
            ..byoyomi
        };
        assert_eq!(format_go(&ponder), "ponder btime 0 wtime 0 byoyomi 100");
    }
}
