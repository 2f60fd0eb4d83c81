//! How a game ended: who won ([`GameResult`]) and why ([`EndReason`]), one of each per game.

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// Who won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Black (sente, the first player) won.
    Black,
    /// White (gote) won.
    White,
    /// A draw.
    Draw,
}

impl GameResult {
    /// The win of a colour.
    pub fn win(c: Color) -> GameResult {
        match c {
            Color::Black => GameResult::Black,
            Color::White => GameResult::White,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::Black => Some(Color::Black),
            GameResult::White => Some(Color::White),
            GameResult::Draw => None,
        }
    }

    /// Points for Black: 1, ½ or 0.
    pub fn black_points(self) -> f64 {
        match self {
            GameResult::Black => 1.0,
            GameResult::White => 0.0,
            GameResult::Draw => 0.5,
        }
    }

    /// The lowercase name (`black`, `white`, `draw`), as results files store it.
    pub fn name(self) -> &'static str {
        match self {
            GameResult::Black => "black",
            GameResult::White => "white",
            GameResult::Draw => "draw",
        }
    }
}

impl FromStr for GameResult {
    type Err = String;
    /// Reads [`GameResult::name`].
    fn from_str(s: &str) -> Result<GameResult, String> {
        [GameResult::Black, GameResult::White, GameResult::Draw]
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| format!("unknown game result {s:?}"))
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move had no legal move.
    Checkmate,
    /// The player resigned (`bestmove resign`).
    Resign,
    /// A move took longer than the clock allowed.
    TimeLoss,
    /// A move that is not legal (or not a move).
    IllegalMove,
    /// A declaration (`bestmove win`) in a position where it is valid.
    Declaration,
    /// A declaration where it is not valid (a loss).
    IllegalDeclaration,
    /// The same position for the fourth time.
    Repetition,
    /// Fourfold repetition where one side checked throughout (that side loses).
    PerpetualCheck,
    /// The ply limit.
    MaxPlies,
    /// The player stopped working (an engine that exited, or could not be started or readied).
    Crash,
    /// The player did not answer even after `stop` (an engine that was killed).
    Hang,
    /// Both players' scores agreed that one side is lost.
    AdjudicatedResign,
    /// Both players' scores stayed near zero.
    AdjudicatedDraw,
}

impl EndReason {
    /// Every reason, in declaration order.
    pub const ALL: [EndReason; 13] = [
        EndReason::Checkmate,
        EndReason::Resign,
        EndReason::TimeLoss,
        EndReason::IllegalMove,
        EndReason::Declaration,
        EndReason::IllegalDeclaration,
        EndReason::Repetition,
        EndReason::PerpetualCheck,
        EndReason::MaxPlies,
        EndReason::Crash,
        EndReason::Hang,
        EndReason::AdjudicatedResign,
        EndReason::AdjudicatedDraw,
    ];

    /// Whether the ending is a player's fault rather than play: a crash, a hang, a time loss,
    /// an illegal move or a false declaration.
    pub fn is_engine_fault(self) -> bool {
        matches!(
            self,
            EndReason::Crash
                | EndReason::Hang
                | EndReason::TimeLoss
                | EndReason::IllegalMove
                | EndReason::IllegalDeclaration
        )
    }

    /// The snake_case name (`time_loss`), as results files store it.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Resign => "resign",
            EndReason::TimeLoss => "time_loss",
            EndReason::IllegalMove => "illegal_move",
            EndReason::Declaration => "declaration",
            EndReason::IllegalDeclaration => "illegal_declaration",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetual_check",
            EndReason::MaxPlies => "max_plies",
            EndReason::Crash => "crash",
            EndReason::Hang => "hang",
            EndReason::AdjudicatedResign => "adjudicated_resign",
            EndReason::AdjudicatedDraw => "adjudicated_draw",
        }
    }
}

impl FromStr for EndReason {
    type Err = String;
    /// Reads [`EndReason::name`].
    fn from_str(s: &str) -> Result<EndReason, String> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| format!("unknown end reason {s:?}"))
    }
}

/// Serde by name ([`GameResult::name`], [`EndReason::name`]): results files and self-play
/// sidecars store `"black"` and `"time_loss"`, and a name that is none of them does not read.
macro_rules! serde_by_name {
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
serde_by_name!(GameResult);
serde_by_name!(EndReason);

impl fmt::Display for EndReason {
    /// The name for people: [`EndReason::name`] with spaces (`time loss`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name().replace('_', " "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in EndReason::ALL {
            assert_eq!(r.name().parse::<EndReason>(), Ok(r));
        }
        for r in [GameResult::Black, GameResult::White, GameResult::Draw] {
            assert_eq!(r.name().parse::<GameResult>(), Ok(r));
        }
        assert!("toryo".parse::<EndReason>().is_err());
        assert_eq!(EndReason::TimeLoss.to_string(), "time loss");
        assert_eq!(EndReason::AdjudicatedDraw.name(), "adjudicated_draw");
    }

    #[test]
    fn points() {
        assert_eq!(GameResult::Black.black_points(), 1.0);
        assert_eq!(GameResult::Draw.black_points(), 0.5);
        assert_eq!(GameResult::win(Color::White), GameResult::White);
        assert_eq!(GameResult::White.winner(), Some(Color::White));
        assert_eq!(GameResult::Draw.winner(), None);
    }
}
