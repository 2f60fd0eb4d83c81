//! How a game ended: the server's reason line (`#RESIGN`, `#TIME_UP`, …) and outcome line
//! (`#WIN`, `#LOSE`, `#DRAW`, `#CENSORED`).

use hayate_core::Color;
use hayate_core::player::GameOver;

/// The reason line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `#RESIGN` (after `%TORYO`, or a disconnect of the player to move).
    Resign,
    /// `#ILLEGAL_MOVE` (also a bad `%KACHI`, `%CHUDAN` on shogi-server, uchifuzume…).
    IllegalMove,
    /// `#SENNICHITE`: fourfold repetition, a draw.
    Sennichite,
    /// `#OUTE_SENNICHITE`: perpetual check, the checking side loses.
    OuteSennichite,
    /// `#TIME_UP`.
    TimeUp,
    /// `#JISHOGI`: a valid entering-king declaration.
    Jishogi,
    /// `#MAX_MOVES`: the move limit was reached.
    MaxMoves,
    /// `#ILLEGAL_ACTION` (spec; shogi-server never sends it).
    IllegalAction,
    /// `#CHUDAN`: the server interrupted the game (no outcome line follows).
    Chudan,
    /// A `#…` line we do not know, kept as received.
    Other(String),
}

impl EndReason {
    /// Reads a reason line; `None` if it is not a `#` line or is an outcome line.
    pub fn parse(line: &str) -> Option<EndReason> {
        Some(match line {
            "#RESIGN" => EndReason::Resign,
            "#ILLEGAL_MOVE" => EndReason::IllegalMove,
            "#SENNICHITE" => EndReason::Sennichite,
            "#OUTE_SENNICHITE" => EndReason::OuteSennichite,
            "#TIME_UP" => EndReason::TimeUp,
            "#JISHOGI" => EndReason::Jishogi,
            "#MAX_MOVES" => EndReason::MaxMoves,
            "#ILLEGAL_ACTION" => EndReason::IllegalAction,
            "#CHUDAN" => EndReason::Chudan,
            l if l.starts_with('#') && Outcome::parse(l).is_none() => EndReason::Other(l.into()),
            _ => return None,
        })
    }

    /// The name used in the record's `'summary:` line (shogi-server's words).
    pub fn summary_word(&self) -> &str {
        match self {
            EndReason::Resign => "toryo",
            EndReason::IllegalMove => "illegal move",
            EndReason::Sennichite => "sennichite",
            EndReason::OuteSennichite => "oute_sennichite",
            EndReason::TimeUp => "time up",
            EndReason::Jishogi => "kachi",
            EndReason::MaxMoves => "max_moves",
            EndReason::IllegalAction => "illegal action",
            EndReason::Chudan => "chudan",
            EndReason::Other(s) => s.trim_start_matches('#'),
        }
    }
}

/// The outcome line, from our point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `#WIN`.
    Win,
    /// `#LOSE`.
    Lose,
    /// `#DRAW`.
    Draw,
    /// `#CENSORED` (move limit reached).
    Censored,
    /// No outcome (`#CHUDAN`).
    Interrupted,
}

impl Outcome {
    /// Reads an outcome line.
    pub fn parse(line: &str) -> Option<Outcome> {
        Some(match line {
            "#WIN" => Outcome::Win,
            "#LOSE" => Outcome::Lose,
            "#DRAW" => Outcome::Draw,
            "#CENSORED" => Outcome::Censored,
            _ => return None,
        })
    }

    /// The word for `c` in the record's `'summary:` line, when we are `us`.
    pub fn word_for(self, c: Color, us: Color) -> &'static str {
        match (self, c == us) {
            (Outcome::Win, true) | (Outcome::Lose, false) => "win",
            (Outcome::Lose, true) | (Outcome::Win, false) => "lose",
            (Outcome::Draw | Outcome::Censored, _) => "draw",
            (Outcome::Interrupted, _) => "chudan",
        }
    }

    /// What the player is told at the end: a game cut off (`#CHUDAN`) or stopped at the move
    /// limit has no winner, so it is a draw to the player.
    pub fn game_over(self) -> GameOver {
        match self {
            Outcome::Win => GameOver::Win,
            Outcome::Lose => GameOver::Lose,
            Outcome::Draw | Outcome::Censored | Outcome::Interrupted => GameOver::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_result_line() {
        assert_eq!(EndReason::parse("#RESIGN"), Some(EndReason::Resign));
        assert_eq!(EndReason::parse("#MAX_MOVES"), Some(EndReason::MaxMoves));
        assert_eq!(EndReason::parse("#CHUDAN"), Some(EndReason::Chudan));
        assert_eq!(EndReason::parse("#WIN"), None);
        assert_eq!(
            EndReason::parse("#NEW"),
            Some(EndReason::Other("#NEW".into()))
        );
        assert_eq!(EndReason::parse("+7776FU"), None);
        assert_eq!(Outcome::parse("#CENSORED"), Some(Outcome::Censored));
        assert_eq!(Outcome::parse("#DRAW"), Some(Outcome::Draw));
        assert_eq!(Outcome::parse("#RESIGN"), None);
        assert_eq!(Outcome::Win.word_for(Color::White, Color::Black), "lose");
        assert_eq!(Outcome::Win.game_over(), GameOver::Win);
        assert_eq!(Outcome::Lose.game_over(), GameOver::Lose);
        assert_eq!(Outcome::Censored.game_over(), GameOver::Draw);
        assert_eq!(Outcome::Interrupted.game_over(), GameOver::Draw);
    }
}
