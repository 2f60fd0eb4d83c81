//! Conversions of one item: game records to training data, between the training formats.

use crate::data::hcpe::{RESULT_MAX_MOVES, RESULT_NYUGYOKU, RESULT_SENNICHITE};
use crate::{
    AperyMove16, EndKind, GameEnd, GameRecord, GameResult, Hcp, Hcpe, Hcpe3Game, Hcpe3Move,
    MoveEntry, MoveVisits, Outcome, PackedError, PackedSfen, PositionError, Psv, PsvMove16,
    RawPosition, ReplayError,
};
use hayate_core::{Color, Position, SfenError};

/// Why a game or record could not be converted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// Training data needs a result; the game has none (interrupted, unfinished, error).
    #[error("the game has no result")]
    NoResult,
    /// A position does not fit the packed format (mate problems lack pieces).
    #[error("cannot pack a position: {0}")]
    Packed(#[from] PackedError),
    /// The start position is invalid.
    #[error("start position: {0}")]
    Start(#[from] SfenError),
    /// A record's position or move is invalid.
    #[error("{0}")]
    Position(#[from] PositionError),
    /// An hcpe3 game does not replay.
    #[error("{0}")]
    Replay(#[from] ReplayError),
    /// A record's move is not legal in its position.
    #[error("the record's move is not legal in its position")]
    IllegalMove,
    /// The item holds nothing of what the output needs (a bare position has no move, a single
    /// position is no game).
    #[error("this conversion is not supported")]
    Unsupported,
}

/// The evaluation in a CSA-style `** <eval> <pv>` comment, from Black's view (CSA V3.0).
pub fn comment_eval(comments: &[String]) -> Option<i32> {
    comments.iter().find_map(|c| {
        let rest = c.strip_prefix("**")?.trim_start();
        rest.split_whitespace().next()?.parse::<i32>().ok()
    })
}

fn clamp16(v: i32) -> i16 {
    v.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16
}

/// The dlshogi result byte of a game: result in bits 0–1 plus reason flags.
pub fn result_byte(rec: &GameRecord) -> Result<u8, ConvertError> {
    let result = match rec.outcome() {
        Outcome::Win(Color::Black) => GameResult::BlackWin,
        Outcome::Win(Color::White) => GameResult::WhiteWin,
        Outcome::Draw => GameResult::Draw,
        Outcome::None => return Err(ConvertError::NoResult),
    } as u8;
    let flag = match rec.end.as_ref().map(|e| e.kind) {
        Some(EndKind::Sennichite) => RESULT_SENNICHITE,
        Some(EndKind::Kachi | EndKind::Jishogi) => RESULT_NYUGYOKU,
        Some(EndKind::MaxMoves) => RESULT_MAX_MOVES,
        _ => 0,
    };
    Ok(result | flag)
}

/// One training position of a game: the position before a move, the move, the eval.
fn for_each_position<F>(rec: &GameRecord, mut f: F) -> Result<(), ConvertError>
where
    F: FnMut(&Position, &MoveEntry, i16) -> Result<(), ConvertError>,
{
    let mut pos = rec.start_position()?;
    for e in &rec.moves {
        let eval_black = comment_eval(&e.comments).unwrap_or(0);
        let eval = if pos.side_to_move() == Color::Black {
            eval_black
        } else {
            -eval_black
        };
        f(&pos, e, clamp16(eval))?;
        pos.do_move(e.mv);
    }
    Ok(())
}

/// hcpe records for every position of a finished game (best move = the move played, eval from
/// `**` comments or 0). Appends to `out`; returns how many.
///
/// # Errors
/// [`ConvertError::NoResult`] for a game without a result, or a position that does not pack.
pub fn game_to_hcpe(rec: &GameRecord, out: &mut Vec<Hcpe>) -> Result<usize, ConvertError> {
    let result = result_byte(rec)?;
    let before = out.len();
    let mut batch = Vec::with_capacity(rec.moves.len());
    for_each_position(rec, |pos, e, eval| {
        batch.push(Hcpe {
            hcp: Hcp::from_position(pos)?,
            eval,
            best_move16: AperyMove16::from_move(e.mv),
            result,
            padding: 0,
        });
        Ok(())
    })?;
    out.extend(batch);
    Ok(out.len() - before)
}

/// psv records for every position of a finished game (see [`game_to_hcpe`]).
///
/// # Errors
/// As [`game_to_hcpe`].
pub fn game_to_psv(rec: &GameRecord, out: &mut Vec<Psv>) -> Result<usize, ConvertError> {
    let outcome = rec.outcome();
    if outcome == Outcome::None {
        return Err(ConvertError::NoResult);
    }
    let before = out.len();
    let mut batch = Vec::with_capacity(rec.moves.len());
    for_each_position(rec, |pos, e, eval| {
        batch.push(Psv {
            sfen: PackedSfen::from_position(pos)?,
            score: eval,
            mv: PsvMove16::from_move(e.mv),
            game_ply: pos.game_ply().min(u16::MAX as u32) as u16,
            game_result: relative_result(outcome, pos.side_to_move()),
            padding: 0,
        });
        Ok(())
    })?;
    out.extend(batch);
    Ok(out.len() - before)
}

fn relative_result(outcome: Outcome, stm: Color) -> i8 {
    match outcome {
        Outcome::Win(c) if c == stm => 1,
        Outcome::Win(_) => -1,
        _ => 0,
    }
}

/// One hcpe3 game from a finished game: each move gets itself as the single candidate with one
/// visit (so that it is a training position) and the `**` eval or 0.
///
/// # Errors
/// As [`game_to_hcpe`]; also a game over 513 moves (dlshogi's limit) is cut there.
pub fn game_to_hcpe3(rec: &GameRecord) -> Result<Hcpe3Game, ConvertError> {
    let result = result_byte(rec)?;
    let start = Hcp::from_position(&rec.start_position()?)?;
    let mut moves = Vec::with_capacity(rec.moves.len());
    for_each_position(rec, |_, e, eval| {
        let m = AperyMove16::from_move(e.mv);
        moves.push(Hcpe3Move {
            move16: m,
            eval,
            candidates: vec![MoveVisits {
                move16: m,
                visits: 1,
            }],
        });
        Ok(())
    })?;
    moves.truncate(crate::data::hcpe3::MAX_MOVES as usize);
    Ok(Hcpe3Game {
        start,
        result,
        opponent: 0,
        moves,
    })
}

/// A game record from an hcpe3 game. hcpe3 keeps no reason for the result, so the ending is
/// inferred: the flags give 千日手 / 入玉 / max moves; a win for the side to move at the end
/// reads as a declaration, a loss as resignation; another draw as 引き分け.
///
/// # Errors
/// [`ConvertError::Replay`] if the game does not replay.
pub fn hcpe3_to_game(g: &Hcpe3Game) -> Result<GameRecord, ConvertError> {
    let mut rec = GameRecord::new();
    let end_pos = g.replay(|pos, info, mv| {
        if rec.moves.is_empty() {
            rec.start_sfen = pos.to_sfen();
        }
        let eval_black = if pos.side_to_move() == Color::Black {
            info.eval as i32
        } else {
            -(info.eval as i32)
        };
        rec.moves.push(MoveEntry {
            mv,
            time_ms: None,
            comments: vec![format!("** {eval_black}")],
        });
    })?;
    if g.moves.is_empty() {
        rec.start_sfen = end_pos.to_sfen();
    }
    let mover = end_pos.side_to_move();
    let kind = if g.result & RESULT_SENNICHITE != 0 {
        EndKind::Sennichite
    } else if g.result & RESULT_MAX_MOVES != 0 {
        EndKind::MaxMoves
    } else {
        match (g.game_result(), g.result & RESULT_NYUGYOKU != 0) {
            (GameResult::Draw, true) => EndKind::Jishogi,
            (GameResult::Draw, false) => EndKind::Hikiwake,
            (r, _) => {
                let winner = if r == GameResult::BlackWin {
                    Color::Black
                } else {
                    Color::White
                };
                if winner == mover {
                    EndKind::Kachi
                } else {
                    EndKind::Resign
                }
            }
        }
    };
    rec.end = Some(GameEnd {
        kind,
        time_ms: None,
    });
    Ok(rec)
}

/// hcpe records for the training positions of an hcpe3 game (those with candidates): best
/// move = the most visited candidate, eval as stored.
///
/// # Errors
/// [`ConvertError::Replay`] if the game does not replay.
pub fn hcpe3_to_hcpe(g: &Hcpe3Game, out: &mut Vec<Hcpe>) -> Result<usize, ConvertError> {
    let before = out.len();
    let mut err = None;
    g.replay(|pos, info, _| {
        let Some(best) = info.candidates.iter().max_by_key(|c| c.visits) else {
            return;
        };
        match Hcp::from_position(pos) {
            Ok(hcp) => out.push(Hcpe {
                hcp,
                eval: info.eval,
                best_move16: best.move16,
                result: g.result,
                padding: 0,
            }),
            Err(e) => err = Some(e),
        }
    })?;
    if let Some(e) = err {
        out.truncate(before);
        return Err(e.into());
    }
    Ok(out.len() - before)
}

/// The psv form of an hcpe record (move number 1: hcpe stores none).
///
/// # Errors
/// If the position or move is invalid.
pub fn hcpe_to_psv(h: &Hcpe) -> Result<Psv, ConvertError> {
    let pos = h.position()?;
    let m = h.best_move(&pos).ok_or(ConvertError::IllegalMove)?;
    let outcome = match h.game_result() {
        GameResult::BlackWin => Outcome::Win(Color::Black),
        GameResult::WhiteWin => Outcome::Win(Color::White),
        GameResult::Draw => Outcome::Draw,
    };
    Ok(Psv {
        sfen: PackedSfen::from_position(&pos)?,
        score: h.eval,
        mv: PsvMove16::from_move(m),
        game_ply: 1,
        game_result: relative_result(outcome, pos.side_to_move()),
        padding: 0,
    })
}

/// The hcpe form of a psv record.
///
/// # Errors
/// If the position or move is invalid.
pub fn psv_to_hcpe(p: &Psv) -> Result<Hcpe, ConvertError> {
    let pos = p.position()?;
    let m = p.best_move(&pos).ok_or(ConvertError::IllegalMove)?;
    let stm = pos.side_to_move();
    let result = match p.game_result {
        0 => GameResult::Draw,
        1 if stm == Color::Black => GameResult::BlackWin,
        -1 if stm == Color::White => GameResult::BlackWin,
        _ => GameResult::WhiteWin,
    };
    Ok(Hcpe {
        hcp: Hcp::encode(&RawPosition::from_position(&pos))?,
        eval: p.score,
        best_move16: AperyMove16::from_move(m),
        result: result as u8,
        padding: 0,
    })
}
