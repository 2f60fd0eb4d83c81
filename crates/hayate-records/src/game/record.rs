//! The in-memory game record that every text format reads into and writes from.

use hayate_core::{Color, Move, Position, SfenError};

/// How a game ended (CSA's special moves; KIF's ending words map onto these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndKind {
    /// `%TORYO` 投了: the side to move resigned.
    Resign,
    /// `%CHUDAN` 中断: the game was interrupted.
    Interrupt,
    /// `%SENNICHITE` 千日手: repetition draw.
    Sennichite,
    /// `%TIME_UP` 切れ負け: the side to move ran out of time.
    TimeUp,
    /// `%ILLEGAL_MOVE` 反則負け: the side to move lost by a foul.
    IllegalMove,
    /// `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION`: this side lost by a foul.
    IllegalAction(Color),
    /// `%JISHOGI` 持将棋: impasse draw.
    Jishogi,
    /// `%KACHI` 入玉勝ち: the side to move declared a win.
    Kachi,
    /// `%HIKIWAKE` 引き分け: draw.
    Hikiwake,
    /// `%MAX_MOVES` 最大手数: the move limit was reached (draw).
    MaxMoves,
    /// `%TSUMI` 詰み: the side to move is checkmated.
    Tsumi,
    /// `%FUZUMI` 不詰: no mate (mate problems).
    Fuzumi,
    /// `%ERROR`: an error ended the game.
    Error,
    /// `%MATTA` 待った (CSA V2.2 only).
    Matta,
}

/// The outcome a record implies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won.
    Win(Color),
    /// A draw.
    Draw,
    /// No result (interrupted, error, unfinished).
    None,
}

/// The ending of a game: what happened and the time spent on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// What ended the game.
    pub kind: EndKind,
    /// Time spent before the ending, in milliseconds, if recorded.
    pub time_ms: Option<u64>,
}

/// One move with its time and comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    /// The move, legal in the position before it (piece fields filled in).
    pub mv: Move,
    /// Time spent on the move in milliseconds, if recorded.
    pub time_ms: Option<u64>,
    /// Comments after the move, without the format's comment marker.
    pub comments: Vec<String>,
}

/// Metadata keys shared by the formats (CSA `$` names; KIF's Japanese keys map onto them).
pub mod keys {
    /// `$EVENT` 棋戦.
    pub const EVENT: &str = "EVENT";
    /// `$SITE` 場所.
    pub const SITE: &str = "SITE";
    /// `$START_TIME` 開始日時.
    pub const START_TIME: &str = "START_TIME";
    /// `$END_TIME` 終了日時.
    pub const END_TIME: &str = "END_TIME";
    /// `$TIME_LIMIT` 持ち時間 (V2.2 form `hh:mm+ss`).
    pub const TIME_LIMIT: &str = "TIME_LIMIT";
    /// `$OPENING` 戦型.
    pub const OPENING: &str = "OPENING";
}

/// A game: start position, moves, ending, players and metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// SFEN of the start position.
    pub start_sfen: String,
    /// Black's and White's names (empty when unknown).
    pub players: [String; 2],
    /// Other header fields in file order, keyed as in [`keys`] when the format has a shared name,
    /// else by the format's own key.
    pub metadata: Vec<(String, String)>,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The moves.
    pub moves: Vec<MoveEntry>,
    /// How the game ended, if recorded.
    pub end: Option<GameEnd>,
    /// Comments after the ending (shogi-server's `'summary:` and `'$END_TIME:` lines).
    pub end_comments: Vec<String>,
}

impl GameRecord {
    /// An empty record from the start position.
    pub fn new() -> GameRecord {
        GameRecord::from_sfen(hayate_core::sfen::STARTPOS)
    }

    /// An empty record from a start position.
    pub fn from_sfen(sfen: &str) -> GameRecord {
        GameRecord {
            start_sfen: sfen.to_string(),
            players: [String::new(), String::new()],
            metadata: Vec::new(),
            comments: Vec::new(),
            moves: Vec::new(),
            end: None,
            end_comments: Vec::new(),
        }
    }

    /// The start position.
    ///
    /// # Errors
    /// The core's error if `start_sfen` is not a valid position.
    pub fn start_position(&self) -> Result<Position, SfenError> {
        Position::from_sfen(&self.start_sfen)
    }

    /// The position after all moves (moves are assumed legal, as the parsers guarantee).
    ///
    /// # Errors
    /// The core's error if `start_sfen` is not a valid position.
    pub fn final_position(&self) -> Result<Position, SfenError> {
        let mut pos = self.start_position()?;
        for e in &self.moves {
            pos.do_move(e.mv);
        }
        Ok(pos)
    }

    /// The value of a metadata key.
    pub fn meta(&self, key: &str) -> Option<&str> {
        self.metadata
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The side to move after the last move.
    pub fn side_to_move_at_end(&self) -> Color {
        let start = if self.start_sfen.split_whitespace().nth(1) == Some("w") {
            Color::White
        } else {
            Color::Black
        };
        if self.moves.len().is_multiple_of(2) {
            start
        } else {
            !start
        }
    }

    /// The outcome the ending implies.
    pub fn outcome(&self) -> Outcome {
        let mover = self.side_to_move_at_end();
        match self.end.as_ref().map(|e| e.kind) {
            Some(EndKind::Resign | EndKind::TimeUp | EndKind::IllegalMove | EndKind::Tsumi) => {
                Outcome::Win(!mover)
            }
            Some(EndKind::IllegalAction(c)) => Outcome::Win(!c),
            Some(EndKind::Kachi) => Outcome::Win(mover),
            Some(
                EndKind::Sennichite | EndKind::Jishogi | EndKind::Hikiwake | EndKind::MaxMoves,
            ) => Outcome::Draw,
            _ => Outcome::None,
        }
    }
}

impl Default for GameRecord {
    fn default() -> Self {
        GameRecord::new()
    }
}
