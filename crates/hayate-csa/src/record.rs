//! The game as a CSA v2.2 record file (shogi-server's extras as comments: `'Max_Moves`,
//! `'** <eval> <pv>` after our moves, `'summary:`, `'$END_TIME`), held as the records crate's
//! game record and written by its CSA writer. Written to a temporary file in the same folder
//! and renamed, so a crash never leaves half a record.

use crate::outcome::{EndReason, Outcome};
use crate::summary::GameSummary;
use hayate_core::{Color, Move};
use hayate_records::game::csa::{parse_special, write_csa_as};
use hayate_records::game::csa_notation::BoardStyle;
use hayate_records::{EndKind, GameEnd, MoveEntry};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A game being recorded: a [`hayate_records::GameRecord`] with shogi-server's extras, written
/// by the records crate's CSA writer.
#[derive(Clone, Debug)]
pub struct GameRecord {
    game: hayate_records::GameRecord,
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

fn seconds_ms(seconds: Option<u32>) -> Option<u64> {
    seconds.map(|s| u64::from(s) * 1000)
}

impl GameRecord {
    /// A record for the game in `summary`, started at `start_time` (`YYYY/MM/DD hh:mm:ss`).
    /// Moves already played before the start are included.
    pub fn new(summary: &GameSummary, start_time: &str) -> GameRecord {
        let mut game = hayate_records::GameRecord::from_sfen(&summary.position.initial.to_sfen());
        game.players = [summary.name_black.clone(), summary.name_white.clone()];
        let meta = |k: &str, v: String| (k.to_string(), v);
        game.metadata.push(meta("EVENT", summary.game_id.clone()));
        game.metadata
            .push(meta("START_TIME", start_time.to_string()));
        let [b, w] = summary.time;
        if b == w {
            let limit = time_limit(b.total, b.byoyomi);
            game.metadata.push(meta("TIME_LIMIT", limit));
            game.comments
                .push(format!("Increment:{}", b.increment.as_secs()));
            game.comments.push(format!(
                "Least_Time_Per_Move:{}",
                b.least_per_move.as_secs()
            ));
        } else {
            for (c, t) in [('+', b), ('-', w)] {
                game.comments.push(format!(
                    "Time{c}:{}+{}+{}",
                    t.total.as_secs(),
                    t.byoyomi.as_secs(),
                    t.increment.as_secs()
                ));
            }
        }
        game.comments
            .push(format!("Max_Moves:{}", summary.max_moves.unwrap_or(0)));
        for pm in &summary.position.moves {
            game.moves.push(MoveEntry {
                mv: pm.mv,
                time_ms: seconds_ms(pm.seconds),
                comments: Vec::new(),
            });
        }
        GameRecord { game }
    }

    /// Adds a move as the server confirmed it, with the comment sent with it (`* 30 -3334FU`,
    /// written as `'** 30 …` as shogi-server stores it).
    pub fn push_move(&mut self, mv: Move, seconds: Option<u32>, comment: Option<String>) {
        self.game.moves.push(MoveEntry {
            mv,
            time_ms: seconds_ms(seconds),
            comments: comment.map(|c| format!("*{c}")).into_iter().collect(),
        });
    }

    /// Records a special move the server sent (`%TORYO`, `%KACHI`); the first one counts
    /// (shogi-server echoes some twice). `false` for a special move CSA does not define.
    pub fn push_special(&mut self, text: &str, seconds: Option<u32>) -> bool {
        let Some(kind) = parse_special(text) else {
            return false;
        };
        if self.game.end.is_none() {
            self.game.end = Some(GameEnd {
                kind,
                time_ms: seconds_ms(seconds),
            });
        }
        true
    }

    /// Adds a comment line after the moves (e.g. why the game stopped early).
    pub fn note(&mut self, text: &str) {
        self.game.end_comments.push(text.to_string());
    }

    /// Moves and special moves so far.
    pub fn plies(&self) -> usize {
        self.game.moves.len() + usize::from(self.game.end.is_some())
    }

    /// The record as the records crate holds it.
    pub fn game(&self) -> &hayate_records::GameRecord {
        &self.game
    }

    /// Closes the record with the result: the special move the server's reason implies (it
    /// replaces an echoed one of another kind: `%KACHI` then `#ILLEGAL_MOVE` ends in
    /// `%ILLEGAL_MOVE`), the `'summary:` line and the end time.
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
        let kind = match reason {
            Some(EndReason::Resign) => Some(EndKind::Resign),
            Some(EndReason::TimeUp) => Some(EndKind::TimeUp),
            Some(EndReason::Sennichite) => Some(EndKind::Sennichite),
            Some(EndReason::Jishogi) => Some(EndKind::Kachi),
            Some(EndReason::IllegalMove) => Some(EndKind::IllegalMove),
            Some(EndReason::OuteSennichite | EndReason::IllegalAction) => {
                loser.map(EndKind::IllegalAction)
            }
            Some(EndReason::MaxMoves) => Some(EndKind::Hikiwake),
            Some(EndReason::Chudan) => Some(EndKind::Interrupt),
            _ => None,
        };
        if let Some(kind) = kind
            && self.game.end.as_ref().is_none_or(|e| e.kind != kind)
        {
            self.game.end = Some(GameEnd {
                kind,
                time_ms: None,
            });
        }
        if let (Some(r), Some(o)) = (reason, outcome) {
            let [black, white] = &self.game.players;
            let summary = format!(
                "summary:{}:{black} {}:{white} {}",
                r.summary_word(),
                o.word_for(Color::Black, us),
                o.word_for(Color::White, us),
            );
            self.game.end_comments.push(summary);
        }
        self.game.end_comments.push(format!("$END_TIME:{end_time}"));
    }

    /// The record text: CSA V2.2 (V3.0 in UTF-8 when names or comments are not ASCII), the
    /// start position as nine rows as shogi-server writes it.
    pub fn to_csa(&self) -> String {
        // The start SFEN comes from a position, so it is valid.
        write_csa_as(&self.game, BoardStyle::Full).unwrap_or_default()
    }

    /// Writes `<dir>/<game id>.csa` through a temporary file and a rename (see
    /// [`check_record_dir`] for the check before the games).
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
        let tmp = temp_path(dir, &name);
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

/// A temporary name in `dir` unique per process and call: two clients sharing the folder never
/// trade temporary files.
fn temp_path(dir: &Path, name: &str) -> PathBuf {
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    dir.join(format!(".{name}.{}.{nonce}.tmp", std::process::id()))
}

/// Creates `dir` if needed and checks that a file can be written there, so that a record folder
/// that cannot take the records is found before the first game, not after it.
///
/// # Errors
/// The I/O error of creating the folder or the probe file.
pub fn check_record_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let probe = temp_path(dir, "probe");
    let written = std::fs::File::create(&probe).and_then(|mut f| f.write_all(b"probe"));
    let _ = std::fs::remove_file(&probe);
    written
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
        let mut pos = s.position.current();
        for (text, secs, comment) in [
            ("+7776FU", 0, Some("* 30 -3334FU +2726FU".to_string())),
            ("-3334FU", 1, None),
        ] {
            let m = crate::csa_move::parse_csa_move(&pos, text).unwrap();
            r.push_move(m, Some(secs), comment);
            pos.do_move(m);
        }
        assert!(r.push_special("%TORYO", None));
        assert!(!r.push_special("%NONSENSE", None));
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
        let back = hayate_records::game::csa::parse_csa(&text).unwrap();
        assert_eq!(&back, r.game());
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

    #[test]
    fn a_record_dir_that_cannot_be_written_is_found() {
        let dir = std::env::temp_dir().join(format!("hayate-csa-probe-{}", std::process::id()));
        check_record_dir(&dir.join("new")).unwrap();
        assert!(dir.join("new").is_dir());
        assert_eq!(std::fs::read_dir(dir.join("new")).unwrap().count(), 0);
        // A folder under a plain file can never be created (whoever runs the test).
        let file = dir.join("file");
        std::fs::write(&file, "x").unwrap();
        assert!(check_record_dir(&file.join("records")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
