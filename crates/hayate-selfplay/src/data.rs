//! A finished game as training records: every position where a searcher chose the move, with
//! the search's score and the game's result.

use std::collections::BTreeMap;

use hayate_core::game::{EndReason, FinishedGame};
use hayate_core::player::Score;
use hayate_core::{Color, Move, Position};
pub use hayate_records::DataFormat;
use hayate_records::Record;
use hayate_records::{
    AperyMove16, GameResult, Hcp, Hcpe, Hcpe3Game, Hcpe3Move, MoveVisits, PackedError, PackedSfen,
    Psv, PsvMove16, RESULT_MAX_MOVES, RESULT_NYUGYOKU, RESULT_SENNICHITE,
};
use std::str::FromStr;

/// YaneuraOu's mate value: a mate in `n` plies is written as `MATE - n`.
const MATE: i32 = 32_000;
/// Longest mate distance written (a mate of unknown distance counts as this).
const MAX_MATE_PLY: i32 = 1_000;
/// Largest centipawn score written (below every mate score).
const MAX_CP: i32 = MATE - MAX_MATE_PLY - 1;

/// A search score as the i16 the formats store, from the side to move's view: centipawns
/// clamped below the mate range, mates as ±(32000 − plies) as YaneuraOu writes them.
pub fn score_i16(s: Score) -> i16 {
    let v = match s {
        Score::Cp(v) => v.clamp(-MAX_CP, MAX_CP),
        Score::Mate(n) if n > 0 => MATE - n.min(MAX_MATE_PLY),
        Score::Mate(n) => -(MATE - n.saturating_neg().min(MAX_MATE_PLY)),
    };
    v as i16
}

/// The score a record carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Label {
    /// The search's score for its move (the usual training target).
    #[default]
    Search,
    /// The evaluation's static score of the position: data to distil an evaluation into a
    /// network (e.g. KKPEE9 into NNUE), free of the search's tactics.
    Static,
}

impl FromStr for Label {
    type Err = String;
    fn from_str(s: &str) -> Result<Label, String> {
        match s {
            "search" => Ok(Label::Search),
            "static" => Ok(Label::Static),
            other => Err(format!("unknown label {other:?} (search or static)")),
        }
    }
}

/// Appends the records of `game` to `out`, at most `limit` of them; returns how many. With
/// `relabel`, each record's score is that function of its position (side to move's view)
/// instead of the search's. As hcpe3 the game is one record whatever `limit` says, each searched
/// position with its move as the one candidate (`relabel` is not used: hcpe3 keeps the search's
/// scores).
///
/// # Errors
/// [`PackedError`] if a position cannot be packed (it cannot happen for a legal game position).
pub fn encode_game(
    game: &FinishedGame,
    format: DataFormat,
    limit: usize,
    out: &mut Vec<u8>,
    relabel: Option<&dyn Fn(&Position) -> i32>,
) -> Result<usize, PackedError> {
    if format == DataFormat::Hcpe3 {
        let mut searched = BTreeMap::new();
        game.replay(|pos, m| {
            if m.info.score.is_some() && m.time_ms.is_some() {
                searched.insert(pos.game_ply(), vec![(m.mv, 1)]);
            }
        });
        return encode_hcpe3(game, &searched, out);
    }
    let mut n = 0;
    let mut err = None;
    game.replay(|pos, m| {
        let Some(score) = m.info.score else { return };
        if m.time_ms.is_none() || n >= limit || err.is_some() {
            return;
        }
        let score = relabel.map_or(score, |f| Score::Cp(f(pos)));
        let r = match format {
            DataFormat::Psv => psv(game, pos, score, m.mv).map(|r| r.encode(out)),
            DataFormat::Hcp => Hcp::from_position(pos).map(|r| r.encode(out)),
            _ => hcpe(game, pos, score, m.mv).map(|r| r.encode(out)),
        };
        match r {
            Ok(()) => n += 1,
            Err(e) => err = Some(e),
        }
    });
    err.map_or(Ok(n), Err)
}

fn psv(
    g: &FinishedGame,
    pos: &Position,
    score: Score,
    mv: hayate_core::Move,
) -> Result<Psv, PackedError> {
    let us = pos.side_to_move();
    Ok(Psv {
        sfen: PackedSfen::from_position(pos)?,
        score: score_i16(score),
        mv: PsvMove16::from_move(mv),
        game_ply: pos.game_ply().min(u16::MAX as u32) as u16,
        game_result: match g.result.winner() {
            None => 0,
            Some(c) if c == us => 1,
            Some(_) => -1,
        },
        padding: 0,
    })
}

/// dlshogi's result byte of a game: the winner from Black's view and how it ended.
fn result_byte(g: &FinishedGame) -> u8 {
    let result = match g.result.winner() {
        None => GameResult::Draw,
        Some(Color::Black) => GameResult::BlackWin,
        Some(Color::White) => GameResult::WhiteWin,
    } as u8;
    let flag = match g.reason {
        EndReason::Repetition | EndReason::PerpetualCheck => RESULT_SENNICHITE,
        EndReason::Declaration => RESULT_NYUGYOKU,
        EndReason::MaxPlies => RESULT_MAX_MOVES,
        _ => 0,
    };
    result | flag
}

fn hcpe(
    g: &FinishedGame,
    pos: &Position,
    score: Score,
    mv: hayate_core::Move,
) -> Result<Hcpe, PackedError> {
    Ok(Hcpe {
        hcp: Hcp::from_position(pos)?,
        eval: score_i16(score),
        best_move16: AperyMove16::from_move(mv),
        result: result_byte(g),
        padding: 0,
    })
}

/// Appends `game` as one hcpe3 record; `searched` gives, by game ply (the SFEN move number of
/// the position), the visits of the moves searched there. Positions without visits (opening
/// moves, root shortcuts) are replayed but not for training. Returns the positions with
/// visits. Visits above 65,535 are clamped; a game longer than hcpe3's 513 moves keeps its
/// first 513.
///
/// # Errors
/// [`PackedError`] if the start position cannot be packed.
pub fn encode_hcpe3(
    game: &FinishedGame,
    searched: &BTreeMap<u32, Vec<(Move, u32)>>,
    out: &mut Vec<u8>,
) -> Result<usize, PackedError> {
    let mut moves = Vec::with_capacity(game.moves.len());
    game.replay(|pos, m| {
        let candidates: Vec<MoveVisits> = searched
            .get(&pos.game_ply())
            .map(|v| {
                v.iter()
                    .map(|&(mv, n)| MoveVisits {
                        move16: AperyMove16::from_move(mv),
                        visits: n.min(u32::from(u16::MAX)) as u16,
                    })
                    .collect()
            })
            .unwrap_or_default();
        moves.push(Hcpe3Move {
            move16: AperyMove16::from_move(m.mv),
            eval: m.info.score.map_or(0, score_i16),
            candidates,
        });
    });
    moves.truncate(usize::from(hayate_records::data::hcpe3::MAX_MOVES));
    let positions = moves.iter().filter(|m| !m.candidates.is_empty()).count();
    Hcpe3Game {
        start: Hcp::from_position(&game.start)?,
        result: result_byte(game),
        opponent: 0,
        moves,
    }
    .encode(out);
    Ok(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_as_yaneuraou_writes_them() {
        assert_eq!(score_i16(Score::Cp(123)), 123);
        assert_eq!(score_i16(Score::Cp(-99_999)), -30_999);
        assert_eq!(score_i16(Score::Mate(3)), 31_997);
        assert_eq!(score_i16(Score::Mate(-2)), -31_998);
        assert_eq!(score_i16(Score::Mate(0)), -32_000);
        assert_eq!(score_i16(Score::Mate(i32::MAX)), 31_000);
        assert_eq!(score_i16(Score::Mate(-i32::MAX)), -31_000);
        assert_eq!("hcpe".parse(), Ok(DataFormat::Hcpe));
        assert!("csa".parse::<DataFormat>().is_err());
    }
}
