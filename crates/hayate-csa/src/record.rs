//! The game as a CSA v2.2 record file (shogi-server's extras as comments: `'Max_Moves`,
//! `'** <eval> <pv>` after our moves, `'summary:`, `'$END_TIME`). Written to a temporary file
//! in the same folder and renamed, so a crash never leaves half a record.

use crate::csa_move::{piece_name, sign};
use crate::outcome::{EndReason, Outcome};
use crate::summary::GameSummary;
use hayate_core::{Color, PieceType, Position, Square};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One move or special move of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// `+7776FU` or `%TORYO`.
    pub text: String,
    /// Seconds charged.
    pub seconds: Option<u32>,
    /// The comment sent with the move (`* 30 -3334FU`), written as `'** 30 …` after it.
    pub comment: Option<String>,
}

/// A game being recorded.
#[derive(Clone, Debug)]
pub struct GameRecord {
    header: Vec<String>,
    moves: Vec<RecordMove>,
    footer: Vec<String>,
}

/// `hh:mm+ss` of `$TIME_LIMIT`.
fn time_limit(total: Duration, byoyomi: Duration) -> String {
    let t = total.as_secs();
    format!(
        "{:02}:{:02}+{:02}",
        t / 3600,
        t % 3600 / 60,
        byoyomi.as_secs()
    )
}

/// `P1`..`P9`, `P+`/`P-` hands and the side line of a position.
pub fn position_lines(pos: &Position) -> Vec<String> {
    let mut lines = Vec::with_capacity(12);
    for rank in 1..=9u8 {
        let mut l = format!("P{rank}");
        for file in (1..=9u8).rev() {
            let p = Square::from_file_rank(file, rank).map(|sq| pos.piece_on(sq));
            match p {
                Some(p) if !p.is_empty() => {
                    l.push(sign(p.color()));
                    l.push_str(piece_name(p.piece_type()));
                }
                _ => l.push_str(" * "),
            }
        }
        lines.push(l);
    }
    for c in [Color::Black, Color::White] {
        let h = pos.hand(c);
        if h.is_empty() {
            continue;
        }
        let mut l = format!("P{}", sign(c));
        for pt in PieceType::HAND_SFEN_ORDER {
            for _ in 0..h.count(pt) {
                l.push_str("00");
                l.push_str(piece_name(pt));
            }
        }
        lines.push(l);
    }
    lines.push(sign(pos.side_to_move()).to_string());
    lines
}

impl GameRecord {
    /// A record for the game in `summary`, started at `start_time` (`YYYY/MM/DD hh:mm:ss`).
    /// Moves already played before the start are included.
    pub fn new(summary: &GameSummary, start_time: &str) -> GameRecord {
        let mut header = vec![
            "V2.2".to_string(),
            format!("N+{}", summary.name_black),
            format!("N-{}", summary.name_white),
            format!("$EVENT:{}", summary.game_id),
            format!("$START_TIME:{start_time}"),
        ];
        let [b, w] = summary.time;
        if b == w {
            header.push(format!("$TIME_LIMIT:{}", time_limit(b.total, b.byoyomi)));
            header.push(format!("'Increment:{}", b.increment.as_secs()));
            header.push(format!(
                "'Least_Time_Per_Move:{}",
                b.least_per_move.as_secs()
            ));
        } else {
            for (c, t) in [('+', b), ('-', w)] {
                header.push(format!(
                    "'Time{c}:{}+{}+{}",
                    t.total.as_secs(),
                    t.byoyomi.as_secs(),
                    t.increment.as_secs()
                ));
            }
        }
        header.push(format!("'Max_Moves:{}", summary.max_moves.unwrap_or(0)));
        header.extend(position_lines(&summary.position.initial));
        let mut pos = summary.position.initial.clone();
        let mut moves = Vec::new();
        for pm in &summary.position.moves {
            moves.push(RecordMove {
                text: crate::csa_move::move_to_csa(pm.mv),
                seconds: pm.seconds,
                comment: None,
            });
            pos.do_move(pm.mv);
        }
        GameRecord {
            header,
            moves,
            footer: Vec::new(),
        }
    }

    /// Adds a move (or special move) as the server confirmed it.
    pub fn push(&mut self, text: &str, seconds: Option<u32>, comment: Option<String>) {
        self.moves.push(RecordMove {
            text: text.to_string(),
            seconds,
            comment,
        });
    }

    /// Adds a comment line after the moves (e.g. why the game stopped early).
    pub fn note(&mut self, text: &str) {
        self.footer.push(format!("'{text}"));
    }

    /// The moves so far.
    pub fn moves(&self) -> &[RecordMove] {
        &self.moves
    }

    /// Closes the record with the result: a final special move where CSA has one, the
    /// `'summary:` line and the end time. `loser` is the side that lost, when one did.
    pub fn finish(
        &mut self,
        reason: Option<&EndReason>,
        outcome: Option<Outcome>,
        us: Color,
        end_time: &str,
    ) {
        let loser = match outcome {
            Some(Outcome::Win) => Some(!us),
            Some(Outcome::Lose) => Some(us),
            _ => None,
        };
        let last_is = |s: &str| self.moves.last().is_some_and(|m| m.text == s);
        let special = match reason {
            Some(EndReason::Resign) if !last_is("%TORYO") => Some("%TORYO".to_string()),
            Some(EndReason::TimeUp) => Some("%TIME_UP".to_string()),
            Some(EndReason::Sennichite) => Some("%SENNICHITE".to_string()),
            Some(EndReason::Jishogi) if !last_is("%KACHI") => Some("%KACHI".to_string()),
            Some(EndReason::IllegalMove) => Some("%ILLEGAL_MOVE".to_string()),
            Some(EndReason::OuteSennichite | EndReason::IllegalAction) => {
                loser.map(|c| format!("%{}ILLEGAL_ACTION", sign(c)))
            }
            Some(EndReason::MaxMoves) => Some("%HIKIWAKE".to_string()),
            Some(EndReason::Chudan) => Some("%CHUDAN".to_string()),
            _ => None,
        };
        if let Some(s) = special {
            self.push(&s, None, None);
        }
        if let (Some(r), Some(o)) = (reason, outcome) {
            self.footer.push(format!(
                "'summary:{}:{} {}:{} {}",
                r.summary_word(),
                self.header[1].trim_start_matches("N+"),
                o.word_for(Color::Black, us),
                self.header[2].trim_start_matches("N-"),
                o.word_for(Color::White, us),
            ));
        }
        self.footer.push(format!("'$END_TIME:{end_time}"));
    }

    /// The record text (LF line ends, ASCII unless player names are not).
    pub fn to_csa(&self) -> String {
        let mut s = String::new();
        for l in &self.header {
            s.push_str(l);
            s.push('\n');
        }
        for m in &self.moves {
            s.push_str(&m.text);
            s.push('\n');
            if let Some(t) = m.seconds {
                s.push_str(&format!("T{t}\n"));
            }
            if let Some(c) = &m.comment {
                // As shogi-server stores it: `'*` + the comment sent, so `'** <eval> <pv>`.
                s.push_str("'*");
                s.push_str(c);
                s.push('\n');
            }
        }
        for l in &self.footer {
            s.push_str(l);
            s.push('\n');
        }
        s
    }

    /// Writes `<dir>/<game id>.csa` through a temporary file and a rename.
    ///
    /// # Errors
    /// The I/O error and the path it concerns.
    pub fn write(&self, dir: &Path, game_id: &str) -> Result<PathBuf, (PathBuf, std::io::Error)> {
        let name: String = game_id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "+-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let name = if name.is_empty() || name.starts_with('.') {
            format!("game{name}")
        } else {
            name
        };
        let path = dir.join(format!("{name}.csa"));
        // Unique per process and call: two clients sharing the folder never trade temp files.
        let nonce = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tmp = dir.join(format!(".{name}.{}.{nonce}.tmp", std::process::id()));
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(dir)?;
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(self.to_csa().as_bytes())?;
            f.sync_all()?;
            std::fs::rename(&tmp, &path)
        };
        match write() {
            Ok(()) => Ok(path),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err((path, e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary() -> GameSummary {
        let text = "Game_ID:test+g-60-5+alice+bob+20261121095139\nName+:alice\nName-:bob\n\
                    Your_Turn:+\nMax_Moves:256\nBEGIN Time\nTotal_Time:60\nByoyomi:5\n\
                    END Time\nBEGIN Position\nPI\n+\nEND Position";
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        GameSummary::parse(&lines).unwrap()
    }

    #[test]
    fn writes_a_v22_record() {
        let s = summary();
        let mut r = GameRecord::new(&s, "2026/11/21 09:51:39");
        r.push("+7776FU", Some(0), Some("* 30 -3334FU +2726FU".into()));
        r.push("-3334FU", Some(1), None);
        r.push("%TORYO", None, None);
        r.finish(
            Some(&EndReason::Resign),
            Some(Outcome::Lose),
            Color::Black,
            "2026/11/21 09:51:46",
        );
        let text = r.to_csa();
        let expected = "V2.2\nN+alice\nN-bob\n$EVENT:test+g-60-5+alice+bob+20261121095139\n\
            $START_TIME:2026/11/21 09:51:39\n$TIME_LIMIT:00:01+05\n'Increment:0\n\
            'Least_Time_Per_Move:0\n'Max_Moves:256\n\
            P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n\
            P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \n\
            P5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
            P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \n\
            P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n\
            +7776FU\nT0\n'** 30 -3334FU +2726FU\n-3334FU\nT1\n%TORYO\n\
            'summary:toryo:alice lose:bob win\n'$END_TIME:2026/11/21 09:51:46\n";
        assert_eq!(text, expected);
        // The position lines read back to the same position.
        let back =
            crate::position_block::parse_position_block(&position_lines(&s.position.initial))
                .unwrap();
        assert_eq!(back.initial.to_sfen(), s.position.initial.to_sfen());
    }

    #[test]
    fn writes_atomically_and_names_safely() {
        let s = summary();
        let mut r = GameRecord::new(&s, "x");
        r.finish(
            Some(&EndReason::TimeUp),
            Some(Outcome::Win),
            Color::Black,
            "y",
        );
        let dir = std::env::temp_dir().join(format!("hayate-csa-rec-{}", std::process::id()));
        let p = r.write(&dir, "a/b c").unwrap();
        assert_eq!(p.file_name().unwrap(), "a_b_c.csa");
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(
            text.contains("%TIME_UP\n'summary:time up:alice win:bob lose\n"),
            "{text}"
        );
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
