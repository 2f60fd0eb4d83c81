//! One game between two engine processes, adjudicated by the rules core.
//!
//! The arena, not the engines, decides every ending: checkmate (no legal move for the side to
//! move), resignation, time loss (by the arena's clock), illegal move, declaration (`bestmove win`
//! checked with the CSA 27-point rule), fourfold repetition and perpetual check
//! (`Position::game_repetition`), the ply limit, a crashed or hung engine, and optionally
//! resign/draw adjudication from the engines' own scores.

use std::fmt;

use hayate_core::{Color, DeclarationRule, GameRepetition, Move, Position};
use hayate_records::game::record::keys;
use hayate_records::{EndKind, GameEnd, GameRecord, MoveEntry};
use serde::{Deserialize, Serialize};

use crate::clock::{Clock, TimeControl, go_time_words};
use crate::openings::Opening;
use crate::process::{EngineError, EngineProcess};

/// Who won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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

    /// Points for Black: 1, ½ or 0.
    pub fn black_points(self) -> f64 {
        match self {
            GameResult::Black => 1.0,
            GameResult::White => 0.0,
            GameResult::Draw => 0.5,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The side to move had no legal move.
    Checkmate,
    /// `bestmove resign`.
    Resign,
    /// A move took longer than the clock allowed.
    TimeLoss,
    /// A move that is not legal (or not a move).
    IllegalMove,
    /// `bestmove win` in a position where the declaration is valid.
    Declaration,
    /// `bestmove win` where the declaration is not valid (a loss).
    IllegalDeclaration,
    /// The same position for the fourth time.
    Repetition,
    /// Fourfold repetition where one side checked throughout (that side loses).
    PerpetualCheck,
    /// The ply limit.
    MaxPlies,
    /// The engine exited, or could not be started or readied.
    Crash,
    /// The engine did not answer even after `stop` (it was killed).
    Hang,
    /// Both engines' scores agreed that one side is lost.
    AdjudicatedResign,
    /// Both engines' scores stayed near zero.
    AdjudicatedDraw,
}

impl EndReason {
    /// Whether the ending is an engine's fault rather than play: a crash, a hang, a time loss,
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
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Resign => "resign",
            EndReason::TimeLoss => "time loss",
            EndReason::IllegalMove => "illegal move",
            EndReason::Declaration => "declaration",
            EndReason::IllegalDeclaration => "illegal declaration",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetual check",
            EndReason::MaxPlies => "max plies",
            EndReason::Crash => "crash",
            EndReason::Hang => "hang",
            EndReason::AdjudicatedResign => "adjudicated resign",
            EndReason::AdjudicatedDraw => "adjudicated draw",
        };
        f.write_str(s)
    }
}

/// Score-based adjudication: after both sides have reported scores for `moves` consecutive moves
/// each that agree, the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreAdjudication {
    /// Centipawn threshold.
    pub cp: i32,
    /// Consecutive moves of each side.
    pub moves: usize,
}

/// Rules of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRules {
    /// The game is drawn when this many plies have been played (opening moves count).
    pub max_plies: usize,
    /// Milliseconds a move may overrun its clock before it is a time loss.
    pub margin_ms: u64,
    /// Resign when the side to move has scored ≤ −cp and its opponent ≥ cp for `moves` moves.
    pub resign: Option<ScoreAdjudication>,
    /// Draw when both sides scored within ±cp for `moves` moves, from ply `draw_min_ply` on.
    pub draw: Option<ScoreAdjudication>,
    /// First ply at which draw adjudication may apply.
    pub draw_min_ply: usize,
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules {
            max_plies: 320,
            margin_ms: 200,
            resign: None,
            draw: None,
            draw_min_ply: 160,
        }
    }
}

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

struct Ending {
    result: GameResult,
    reason: EndReason,
    kind: EndKind,
    detail: String,
    time_ms: Option<u64>,
}

fn lose(c: Color, reason: EndReason, kind: EndKind, detail: String) -> Ending {
    Ending {
        result: GameResult::win(!c),
        reason,
        kind,
        detail,
        time_ms: None,
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

fn engine_loss(c: Color, e: &EngineError) -> Ending {
    match e {
        EngineError::Timeout { .. } => lose(c, EndReason::Hang, EndKind::TimeUp, e.to_string()),
        _ => lose(
            c,
            EndReason::Crash,
            EndKind::IllegalAction(c),
            e.to_string(),
        ),
    }
}

/// Plays one game from `opening`; `sides` are Black and White. Both engines get `gameover`
/// at the end (unless they died); a dead or killed engine is left for the caller to restart
/// (see [`EngineProcess::is_dead`]).
pub fn play_game(opening: &Opening, sides: [Side<'_>; 2], rules: &GameRules) -> PlayedGame {
    let [mut black, mut white] = sides;
    let names = [
        black.engine.name().to_string(),
        white.engine.name().to_string(),
    ];
    let start_time = utc_now_text();
    let mut record = GameRecord::from_sfen(&opening.start_sfen);
    record.players = names.clone();
    let mut pos: Position = opening.start_position();
    let mut usi_moves: Vec<String> = Vec::new();
    for &mv in &opening.moves {
        pos.do_move(mv);
        usi_moves.push(mv.to_usi());
        record.moves.push(MoveEntry {
            mv,
            time_ms: None,
            comments: Vec::new(),
        });
    }
    if !opening.moves.is_empty() {
        record
            .comments
            .push(format!("opening: {} plies", opening.moves.len()));
    }
    let base = opening.usi_base();
    let mut clocks = [
        Clock::new(black.time_control),
        Clock::new(white.time_control),
    ];
    // Scores each side reported for its own recent moves, from its own view.
    let mut scores: [Vec<Option<i32>>; 2] = [Vec::new(), Vec::new()];

    let mut ending = None;
    for (i, s) in [&mut black, &mut white].into_iter().enumerate() {
        if let Err(e) = s.engine.new_game() {
            let c = if i == 0 { Color::Black } else { Color::White };
            ending = Some(engine_loss(c, &e));
            break;
        }
    }

    let ending = match ending {
        Some(e) => e,
        None => loop {
            let us = pos.side_to_move();
            if record.moves.len() >= rules.max_plies {
                break Ending {
                    result: GameResult::Draw,
                    reason: EndReason::MaxPlies,
                    kind: EndKind::MaxMoves,
                    detail: String::new(),
                    time_ms: None,
                };
            }
            if pos.legal_moves().is_empty() {
                break lose(us, EndReason::Checkmate, EndKind::Tsumi, String::new());
            }
            if let Some(e) = adjudicate_scores(&scores, us, rules, record.moves.len()) {
                break e;
            }
            let position = if usi_moves.is_empty() {
                base.clone()
            } else {
                format!("{base} moves {}", usi_moves.join(" "))
            };
            let side = if us == Color::Black {
                &mut black
            } else {
                &mut white
            };
            let mut go = go_time_words(&clocks[0], &clocks[1], us);
            if !side.go_extra.is_empty() {
                go.push(' ');
                go.push_str(side.go_extra);
            }
            let clock = &mut clocks[us.index()];
            let reply =
                match side
                    .engine
                    .search(&position, &go, clock.allowed_ms() + rules.margin_ms)
                {
                    Ok(r) => r,
                    Err(e) => break engine_loss(us, &e),
                };
            if let Err(t) = clock.charge(reply.elapsed_ms, rules.margin_ms) {
                let mut e = lose(
                    us,
                    EndReason::TimeLoss,
                    EndKind::TimeUp,
                    format!(
                        "{} took {} ms, {} ms allowed (+{} ms margin)",
                        names[us.index()],
                        t.elapsed_ms,
                        t.allowed_ms,
                        rules.margin_ms
                    ),
                );
                e.time_ms = Some(reply.elapsed_ms);
                break e;
            }
            match reply.best.as_str() {
                "resign" => {
                    let mut e = lose(us, EndReason::Resign, EndKind::Resign, String::new());
                    e.time_ms = Some(reply.elapsed_ms);
                    break e;
                }
                "win" => {
                    let mut e = if pos.can_declare_win(DeclarationRule::Csa27) {
                        Ending {
                            result: GameResult::win(us),
                            reason: EndReason::Declaration,
                            kind: EndKind::Kachi,
                            detail: String::new(),
                            time_ms: None,
                        }
                    } else {
                        lose(
                            us,
                            EndReason::IllegalDeclaration,
                            EndKind::IllegalMove,
                            format!("{} declared a win that the rules refuse", names[us.index()]),
                        )
                    };
                    e.time_ms = Some(reply.elapsed_ms);
                    break e;
                }
                text => {
                    let mv: Move = match pos.parse_usi_move(text) {
                        Ok(m) => m,
                        Err(err) => {
                            let mut e = lose(
                                us,
                                EndReason::IllegalMove,
                                EndKind::IllegalMove,
                                format!("{} played {text:?}: {err}", names[us.index()]),
                            );
                            e.time_ms = Some(reply.elapsed_ms);
                            break e;
                        }
                    };
                    pos.do_move(mv);
                    usi_moves.push(text.to_string());
                    let mut comments = Vec::new();
                    if let Some(s) = reply.score_cp {
                        // CSA's program comment holds the evaluation from Black's view.
                        let black_view = if us == Color::Black { s } else { -s };
                        comments.push(format!("** {black_view}"));
                    }
                    record.moves.push(MoveEntry {
                        mv,
                        time_ms: Some(reply.elapsed_ms),
                        comments,
                    });
                    scores[us.index()].push(reply.score_cp);
                    match pos.game_repetition() {
                        GameRepetition::None => {}
                        GameRepetition::Draw => {
                            break Ending {
                                result: GameResult::Draw,
                                reason: EndReason::Repetition,
                                kind: EndKind::Sennichite,
                                detail: String::new(),
                                time_ms: None,
                            };
                        }
                        GameRepetition::PerpetualCheckBy(c) => {
                            break lose(
                                c,
                                EndReason::PerpetualCheck,
                                EndKind::IllegalAction(c),
                                format!("{} checked perpetually", names[c.index()]),
                            );
                        }
                    }
                }
            }
        },
    };

    for (i, s) in [&mut black, &mut white].into_iter().enumerate() {
        if s.engine.is_dead() {
            continue;
        }
        let c = if i == 0 { Color::Black } else { Color::White };
        let word = match ending.result {
            GameResult::Draw => "draw",
            r if r == GameResult::win(c) => "win",
            _ => "lose",
        };
        let _ = s.engine.send(&format!("gameover {word}"));
    }
    if !ending.detail.is_empty() {
        record.comments.push(ending.detail.clone());
    }
    record
        .metadata
        .push((keys::START_TIME.to_string(), start_time));
    record
        .metadata
        .push((keys::END_TIME.to_string(), utc_now_text()));
    record.end = Some(GameEnd {
        kind: ending.kind,
        time_ms: ending.time_ms,
    });
    PlayedGame {
        result: ending.result,
        reason: ending.reason,
        detail: ending.detail,
        record,
    }
}

/// The current UTC time as CSA writes it: `YYYY/MM/DD hh:mm:ss`.
pub fn utc_now_text() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    utc_text(secs)
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

/// Score adjudication before `us` moves (so a resignation is always the side to move's).
fn adjudicate_scores(
    scores: &[Vec<Option<i32>>; 2],
    us: Color,
    rules: &GameRules,
    ply: usize,
) -> Option<Ending> {
    let last = |c: Color, n: usize| -> Option<Vec<i32>> {
        let v = &scores[c.index()];
        if v.len() < n || n == 0 {
            return None;
        }
        v[v.len() - n..].iter().copied().collect()
    };
    if let Some(r) = rules.resign
        && let (Some(ours), Some(theirs)) = (last(us, r.moves), last(!us, r.moves))
        && ours.iter().all(|&s| s <= -r.cp)
        && theirs.iter().all(|&s| s >= r.cp)
    {
        return Some(lose(
            us,
            EndReason::AdjudicatedResign,
            EndKind::Resign,
            format!("adjudicated: both scores beyond {} cp", r.cp),
        ));
    }
    if let Some(d) = rules.draw
        && ply >= rules.draw_min_ply
        && let (Some(a), Some(b)) = (last(us, d.moves), last(!us, d.moves))
        && a.iter().chain(b.iter()).all(|s| s.abs() <= d.cp)
    {
        return Some(Ending {
            result: GameResult::Draw,
            reason: EndReason::AdjudicatedDraw,
            kind: EndKind::Hikiwake,
            detail: format!("adjudicated: both scores within {} cp", d.cp),
            time_ms: None,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resign_adjudication_needs_both_sides() {
        let rules = GameRules {
            resign: Some(ScoreAdjudication { cp: 1000, moves: 2 }),
            ..GameRules::default()
        };
        let s = [vec![Some(-1200), Some(-1500)], vec![Some(1100), Some(1300)]];
        let e = adjudicate_scores(&s, Color::Black, &rules, 10).unwrap();
        assert_eq!(e.result, GameResult::White);
        assert_eq!(e.reason, EndReason::AdjudicatedResign);
        let s = [vec![Some(-1200), Some(-1500)], vec![Some(1100), Some(300)]];
        assert!(adjudicate_scores(&s, Color::Black, &rules, 10).is_none());
        let s = [vec![Some(-1200), None], vec![Some(1100), Some(1300)]];
        assert!(adjudicate_scores(&s, Color::Black, &rules, 10).is_none());
    }

    #[test]
    fn draw_adjudication_waits_for_min_ply() {
        let rules = GameRules {
            draw: Some(ScoreAdjudication { cp: 10, moves: 2 }),
            draw_min_ply: 20,
            ..GameRules::default()
        };
        let s = [vec![Some(3), Some(-5)], vec![Some(0), Some(8)]];
        assert!(adjudicate_scores(&s, Color::White, &rules, 19).is_none());
        let e = adjudicate_scores(&s, Color::White, &rules, 20).unwrap();
        assert_eq!(e.result, GameResult::Draw);
    }

    #[test]
    fn utc_text_matches_known_dates() {
        assert_eq!(utc_text(0), "1970/01/01 00:00:00");
        // 2000-02-29 12:34:56 UTC (a leap day).
        assert_eq!(utc_text(951_827_696), "2000/02/29 12:34:56");
        assert_eq!(utc_text(1_798_761_599), "2026/12/31 23:59:59");
    }

    #[test]
    fn points() {
        assert_eq!(GameResult::Black.black_points(), 1.0);
        assert_eq!(GameResult::Draw.black_points(), 0.5);
        assert_eq!(GameResult::win(Color::White), GameResult::White);
    }
}
