//! One game between two engine processes: the one game runner of the rules core
//! ([`hayate_core::game::play_game`]) drives each engine through [`UsiPlayer`], and the finished
//! game becomes a CSA-ready [`GameRecord`].
//!
//! The runner, not the engines, decides every ending: checkmate, resignation, time loss (by the
//! runner's clock), illegal move, declaration (`bestmove win` checked with the CSA 27-point
//! rule), fourfold repetition and perpetual check, the ply limit, a crashed or hung engine, and
//! optionally resign/draw adjudication from the engines' own scores.

use hayate_core::game::{self as runner, FinishedGame};
use hayate_core::player::Score;
use hayate_core::{Color, Position};
use hayate_records::game::record::keys;
use hayate_records::{EndKind, GameEnd, GameRecord, MoveEntry};

pub use hayate_core::game::{EndReason, GameResult, GameRules, ScoreAdjudication};

use crate::clock::TimeControl;
use crate::openings::Opening;
use crate::process::EngineProcess;
use crate::usi_player::UsiPlayer;

/// One player of a game: its process, its clock and its extra `go` words.
pub struct Side<'a> {
    /// The running engine.
    pub engine: &'a mut EngineProcess,
    /// Its time control.
    pub time_control: TimeControl,
    /// Extra `go` words (e.g. `depth 3`).
    pub go_extra: &'a str,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Result.
    pub result: GameResult,
    /// Why it ended.
    pub reason: EndReason,
    /// A sentence for people (the engine error, the illegal move, ...); empty if nothing to add.
    pub detail: String,
    /// The record (opening moves included, times in ms).
    pub record: GameRecord,
}

impl PlayedGame {
    /// Plies in the record.
    pub fn plies(&self) -> usize {
        self.record.moves.len()
    }
}

/// A forfeit before any move: `loser` could not be started or readied.
pub fn forfeit(opening: &Opening, names: [&str; 2], loser: Color, detail: String) -> PlayedGame {
    let mut record = GameRecord::from_sfen(&opening.start_sfen);
    record.players = [names[0].to_string(), names[1].to_string()];
    record.moves = opening
        .moves
        .iter()
        .map(|&mv| MoveEntry {
            mv,
            time_ms: None,
            comments: Vec::new(),
        })
        .collect();
    record.comments.push(format!("forfeit: {detail}"));
    record.end = Some(GameEnd {
        kind: EndKind::IllegalAction(loser),
        time_ms: None,
    });
    PlayedGame {
        result: GameResult::win(!loser),
        reason: EndReason::Crash,
        detail,
        record,
    }
}

/// Plays one game from `opening`; `sides` are Black and White. Both engines get `gameover`
/// at the end (unless they died); a dead or killed engine is left for the caller to restart
/// (see [`EngineProcess::is_dead`]).
pub fn play_game(opening: &Opening, sides: [Side<'_>; 2], rules: &GameRules) -> PlayedGame {
    let [black, white] = sides;
    let tcs = [black.time_control, white.time_control];
    let mut players = [
        UsiPlayer::new(black.engine, black.go_extra, rules.margin_ms),
        UsiPlayer::new(white.engine, white.go_extra, rules.margin_ms),
    ];
    let [pb, pw] = &mut players;
    let start: Position = opening.start_position();
    let game = runner::play_game(
        &start,
        &opening.moves,
        [clocked(pb, tcs[0]), clocked(pw, tcs[1])],
        rules,
    );
    PlayedGame {
        result: game.result,
        reason: game.reason,
        detail: game.detail.clone(),
        record: to_record(&game, &opening.start_sfen),
    }
}

fn clocked<'a>(player: &'a mut UsiPlayer<'_>, tc: TimeControl) -> runner::Side<'a> {
    runner::Side {
        player,
        time_control: Some(tc),
        limits: Default::default(),
    }
}

/// The record of a finished game: moves with their times and the engines' evaluations as
/// floodgate comments, the detail as a comment, start and end times, and the CSA ending.
fn to_record(game: &FinishedGame, start_sfen: &str) -> GameRecord {
    let mut record = GameRecord::from_sfen(start_sfen);
    record.players = game.names.clone();
    game.replay(|pos, m| {
        record.moves.push(MoveEntry {
            mv: m.mv,
            time_ms: m.time_ms,
            comments: eval_comment(pos.side_to_move(), m.info.score)
                .into_iter()
                .collect(),
        })
    });
    if game.opening_plies > 0 {
        record
            .comments
            .push(format!("opening: {} plies", game.opening_plies));
    }
    if !game.detail.is_empty() {
        record.comments.push(game.detail.clone());
    }
    record
        .metadata
        .push((keys::START_TIME.to_string(), system_time_text(game.started)));
    record
        .metadata
        .push((keys::END_TIME.to_string(), system_time_text(game.ended)));
    record.end = Some(GameEnd {
        kind: end_kind(game.reason, game.result),
        time_ms: game.end_time_ms,
    });
    record
}

/// The floodgate program comment `** <eval>` (Black's view) for a centipawn score. Mate scores
/// are not written as an evaluation, as floodgate clients do (ShogiHome; see
/// `protocols.md` §1.5), rather than as a fake number such as 99997.
pub fn eval_comment(mover: Color, score: Option<Score>) -> Option<String> {
    let Some(Score::Cp(cp)) = score else {
        return None;
    };
    let black_view = if mover == Color::Black { cp } else { -cp };
    Some(format!("** {black_view}"))
}

/// The CSA ending of a reason (the loser, where the kind names one, from the result).
fn end_kind(reason: EndReason, result: GameResult) -> EndKind {
    let loser = result.winner().map_or(Color::Black, |w| !w);
    match reason {
        EndReason::Checkmate => EndKind::Tsumi,
        EndReason::Resign | EndReason::AdjudicatedResign => EndKind::Resign,
        EndReason::TimeLoss | EndReason::Hang => EndKind::TimeUp,
        EndReason::IllegalMove | EndReason::IllegalDeclaration => EndKind::IllegalMove,
        EndReason::Declaration => EndKind::Kachi,
        EndReason::Repetition => EndKind::Sennichite,
        EndReason::PerpetualCheck | EndReason::Crash => EndKind::IllegalAction(loser),
        EndReason::MaxPlies => EndKind::MaxMoves,
        EndReason::AdjudicatedDraw => EndKind::Hikiwake,
    }
}

fn system_time_text(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    utc_text(secs)
}

/// The current UTC time as CSA writes it: `YYYY/MM/DD hh:mm:ss`.
pub fn utc_now_text() -> String {
    system_time_text(std::time::SystemTime::now())
}

/// Seconds since 1970 as `YYYY/MM/DD hh:mm:ss` (UTC; Howard Hinnant's civil-from-days).
pub fn utc_text(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}/{m:02}/{d:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_are_not_written_as_evaluations() {
        // Before the one USI parser, `score mate 3` became 99997 centipawns in the record.
        let pos = Position::startpos();
        let info = hayate_usi::parse_info("depth 5 score mate 3 pv 7g7f", &pos);
        assert_eq!(info.score, Some(Score::Mate(3)));
        assert_eq!(eval_comment(Color::Black, info.score), None);
        let cp = hayate_usi::parse_info("score cp 64", &pos).score;
        assert_eq!(eval_comment(Color::White, cp).as_deref(), Some("** -64"));
        assert_eq!(eval_comment(Color::Black, cp).as_deref(), Some("** 64"));
    }

    #[test]
    fn endings_map_to_csa_kinds() {
        assert_eq!(
            end_kind(EndReason::Crash, GameResult::Black),
            EndKind::IllegalAction(Color::White)
        );
        assert_eq!(
            end_kind(EndReason::PerpetualCheck, GameResult::White),
            EndKind::IllegalAction(Color::Black)
        );
        assert_eq!(
            end_kind(EndReason::Hang, GameResult::Black),
            EndKind::TimeUp
        );
        assert_eq!(
            end_kind(EndReason::AdjudicatedDraw, GameResult::Draw),
            EndKind::Hikiwake
        );
    }

    #[test]
    fn utc_text_matches_known_dates() {
        assert_eq!(utc_text(0), "1970/01/01 00:00:00");
        // 2000-02-29 12:34:56 UTC (a leap day).
        assert_eq!(utc_text(951_827_696), "2000/02/29 12:34:56");
        assert_eq!(utc_text(1_798_761_599), "2026/12/31 23:59:59");
    }
}
