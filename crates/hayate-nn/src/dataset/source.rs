//! Streaming sample sources over hcpe and hcpe3 files.
//!
//! - hcpe (38-byte records): one sample per record, a one-hot policy on the best move, the value
//!   from the eval, the result from the side to move's view.
//! - hcpe3 (one record per game): the game is replayed from its start position; every position
//!   with candidates gives a sample whose policy is the visit distribution (optionally sharpened
//!   or flattened by a temperature). As dlshogi does, a position is skipped when its move leads
//!   to a repetition (draw, superior or inferior: `repetition(16)` after the move).
//!
//! Corrupt data is reported as an `Err` item carrying the byte offset of the record, and reading
//! goes on with the next record. A game with an illegal move gives no samples at all.

use super::decode::position_from_raw;
use super::error::DatasetError;
use super::sample::{EVAL_COEF, NoviceGame, Sample, result_value, score_to_value};
use crate::labels::move_label;
use crate::novice::NoviceConfig;
use hayate_core::game::GameResult;
use hayate_core::{Color, Move, MoveList, Repetition};
use hayate_records::{DataFormat, FixedRecord};
use hayate_records::{
    ErrorPolicy, Hcp, Hcpe, Hcpe3Game, Hcpe3Reader, PositionError, RecordError, RecordErrorKind,
};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

/// The training-data formats samples are read from (of [`DataFormat`], those with moves
/// to learn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleFormat {
    /// dlshogi's hcpe: 38-byte position records.
    Hcpe,
    /// dlshogi's hcpe3: one variable-length record per self-play game.
    Hcpe3,
}

impl SampleFormat {
    /// The format of `path` by the one rule of [`DataFormat::detect`], if samples are read
    /// from it here.
    ///
    /// # Errors
    /// [`DatasetError::Format`] when the file cannot be inspected, its format is not told, or
    /// it is psv or hcp (no policy target).
    pub fn detect(path: &Path) -> Result<SampleFormat, DatasetError> {
        let format = DataFormat::detect(path).map_err(DatasetError::Format)?;
        SampleFormat::try_from(format).map_err(|f| {
            DatasetError::Format(format!(
                "{}: {f} data has no move targets for a network; use hcpe or hcpe3",
                path.display()
            ))
        })
    }
}

impl TryFrom<DataFormat> for SampleFormat {
    type Error = DataFormat;
    fn try_from(f: DataFormat) -> Result<SampleFormat, DataFormat> {
        match f {
            DataFormat::Hcpe => Ok(SampleFormat::Hcpe),
            DataFormat::Hcpe3 => Ok(SampleFormat::Hcpe3),
            other => Err(other),
        }
    }
}

/// How records become samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleOptions {
    /// Temperature of the hcpe3 visit distribution: 1 keeps `visits / total`, 0 (or less) gives
    /// a one-hot target on the most visited move, other values use `visits^(1/T)` normalised.
    pub temperature: f32,
    /// The eval scale `a` of `value = sigmoid(eval / a)` ([`EVAL_COEF`] by default).
    pub eval_coef: f32,
    /// Skip hcpe3 positions whose move leads to a repetition (dlshogi does).
    pub skip_repetitions: bool,
}

impl Default for SampleOptions {
    fn default() -> SampleOptions {
        SampleOptions {
            temperature: 1.0,
            eval_coef: EVAL_COEF,
            skip_repetitions: true,
        }
    }
}

enum Inner<R> {
    Hcpe {
        reader: R,
        offset: u64,
        done: bool,
    },
    Hcpe3 {
        reader: Hcpe3Reader<R>,
        rejected: u64,
    },
}

/// The samples of one file (or any reader), in file order.
pub struct Samples<R> {
    inner: Inner<R>,
    opts: SampleOptions,
    pending: VecDeque<Result<Sample, DatasetError>>,
    /// One line per game of an hcpe3 file's self-play sidecar (empty without one).
    sidecar: Vec<SidecarGame>,
    /// hcpe3 games read so far.
    games_read: u64,
}

/// The fields of a self-play sidecar line (`shard-NNNNNN.games.jsonl` beside
/// `shard-NNNNNN.hcpe3`, one JSON line per game, written by `hayate selfplay --player mcts`)
/// that training reads: Novice's inputs and scored result.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct SidecarGame {
    /// Value of a draw for Black and for White.
    pub draw_value: [f32; 2],
    /// The game's ply limit.
    pub max_plies: u32,
    /// The result as scored (stored `black`, `white` or `draw`).
    pub scored: GameResult,
}

impl SidecarGame {
    /// The settings and scored result of the game for a position with `us` to move.
    pub fn novice(&self, us: Color) -> NoviceGame {
        let scored = match self.scored.winner() {
            Some(c) if c == us => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        NoviceGame {
            config: NoviceConfig {
                max_plies: self.max_plies.max(1),
                draw_score_black: self.draw_value[0],
                draw_score_white: self.draw_value[1],
            },
            scored,
        }
    }
}

/// The sidecar of hcpe3 file `path`: `shard-NNNNNN.hcpe3` → `shard-NNNNNN.games.jsonl`.
pub fn sidecar_path(path: &Path) -> std::path::PathBuf {
    let mut name = path.file_stem().unwrap_or_default().to_os_string();
    name.push(".games.jsonl");
    path.with_file_name(name)
}

/// The game lines of the sidecar of hcpe3 file `path`, if it has one (lines that do not parse
/// are kept as draws with even settings, so later games stay aligned).
pub fn read_sidecar(path: &Path) -> Vec<SidecarGame> {
    let Ok(text) = std::fs::read_to_string(sidecar_path(path)) else {
        return Vec::new();
    };
    text.lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or(SidecarGame {
                draw_value: [0.5, 0.5],
                max_plies: NoviceConfig::default().max_plies,
                scored: GameResult::Draw,
            })
        })
        .collect()
}

/// Opens `path` as `format` (see [`SampleFormat::detect`]).
///
/// # Errors
/// [`DatasetError::Open`] when the file cannot be opened.
pub fn open_samples(
    path: &Path,
    format: SampleFormat,
    opts: SampleOptions,
) -> Result<Samples<BufReader<File>>, DatasetError> {
    let file = File::open(path).map_err(|error| DatasetError::Open {
        path: path.display().to_string(),
        error,
    })?;
    let mut samples = Samples::new(BufReader::with_capacity(1 << 20, file), format, opts);
    if format == SampleFormat::Hcpe3 {
        samples.sidecar = read_sidecar(path);
    }
    Ok(samples)
}

impl<R: Read> Samples<R> {
    /// Samples from `reader` holding `format` data.
    pub fn new(reader: R, format: SampleFormat, opts: SampleOptions) -> Samples<R> {
        let inner = match format {
            SampleFormat::Hcpe => Inner::Hcpe {
                reader,
                offset: 0,
                done: false,
            },
            SampleFormat::Hcpe3 => Inner::Hcpe3 {
                reader: Hcpe3Reader::new(reader, ErrorPolicy::Skip),
                rejected: 0,
            },
        };
        Samples {
            inner,
            opts,
            pending: VecDeque::new(),
            sidecar: Vec::new(),
            games_read: 0,
        }
    }

    /// Reads the next hcpe record; `None` at the end.
    fn next_hcpe(
        reader: &mut R,
        offset: &mut u64,
        done: &mut bool,
        opts: &SampleOptions,
    ) -> Option<Result<Sample, DatasetError>> {
        let mut buf = [0u8; Hcpe::SIZE];
        let start = *offset;
        let n = match read_full(reader, &mut buf) {
            Ok(n) => n,
            Err(e) => {
                *done = true;
                return Some(Err(RecordError {
                    offset: start,
                    kind: RecordErrorKind::Io(e),
                }
                .into()));
            }
        };
        *offset += n as u64;
        if n == 0 {
            *done = true;
            return None;
        }
        if n < Hcpe::SIZE {
            *done = true;
            let kind = RecordErrorKind::Truncated {
                got: n,
                need: Hcpe::SIZE,
            };
            return Some(Err(RecordError {
                offset: start,
                kind,
            }
            .into()));
        }
        let rec = match Hcpe::parse(&buf) {
            Ok(r) => r,
            Err(kind) => {
                return Some(Err(RecordError {
                    offset: start,
                    kind,
                }
                .into()));
            }
        };
        Some(hcpe_sample(&rec, start, opts))
    }

    /// Reads the next hcpe3 game into `pending`; false at the end.
    fn next_game(&mut self) -> bool {
        let Inner::Hcpe3 { reader, rejected } = &mut self.inner else {
            return false;
        };
        let offset = reader.offset();
        let item = reader.next();
        // Games the reader skipped (bad start position or header byte) are reported here; it keeps
        // the offsets of the first few only.
        while *rejected < reader.rejected() {
            let kept = reader.rejected_errors().get(*rejected as usize);
            let message = match kept {
                Some(e) => e.to_string(),
                None => "a corrupt hcpe3 game (offset not kept by the reader)".to_string(),
            };
            self.pending
                .push_back(Err(DatasetError::Rejected { message }));
            *rejected += 1;
        }
        match item {
            None => !self.pending.is_empty(),
            Some(Err(e)) => {
                self.pending.push_back(Err(e.into()));
                true
            }
            Some(Ok(game)) => {
                // The sidecar has a line for every game, the ones the reader skipped included.
                let index = self.games_read + reader.rejected();
                self.games_read += 1;
                let settings = usize::try_from(index)
                    .ok()
                    .and_then(|i| self.sidecar.get(i));
                let start = self.pending.len();
                if let Err(e) =
                    hcpe3_samples(&game, offset, &self.opts, settings, &mut self.pending)
                {
                    self.pending.truncate(start);
                    self.pending.push_back(Err(e));
                }
                true
            }
        }
    }
}

impl<R: Read> Iterator for Samples<R> {
    type Item = Result<Sample, DatasetError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(s) = self.pending.pop_front() {
                return Some(s);
            }
            match &mut self.inner {
                Inner::Hcpe {
                    reader,
                    offset,
                    done,
                } => {
                    if *done {
                        return None;
                    }
                    return Self::next_hcpe(reader, offset, done, &self.opts);
                }
                Inner::Hcpe3 { .. } => {
                    if !self.next_game() {
                        return None;
                    }
                }
            }
        }
    }
}

/// Fills `buf` as far as the reader allows; fewer bytes only at the end of the data.
fn read_full<R: Read>(r: &mut R, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The sample of one hcpe record at byte `offset`.
///
/// # Errors
/// An impossible position or an illegal best move.
pub fn hcpe_sample(rec: &Hcpe, offset: u64, opts: &SampleOptions) -> Result<Sample, DatasetError> {
    let position_error = |error: PositionError| DatasetError::Position { offset, error };
    let raw = rec.hcp.decode().map_err(|e| position_error(e.into()))?;
    // The records crate's `Hcpe::position` builds its SFEN with an allocation per piece.
    let mut sfen = String::with_capacity(128);
    let pos = position_from_raw(&raw, 1, &mut sfen).map_err(|e| position_error(e.into()))?;
    let m = rec.best_move(&pos).ok_or(DatasetError::IllegalMove {
        offset,
        ply: 0,
        move16: rec.best_move16.0,
    })?;
    let us = pos.side_to_move();
    Ok(Sample {
        hcp: rec.hcp,
        ply: 0,
        policy: vec![(move_label(m, us), 1.0)],
        value: score_to_value(rec.eval as f32, opts.eval_coef),
        result: result_value(rec.game_result(), us),
        novice: None,
    })
}

/// Replays an hcpe3 game (at byte `offset`) and appends its samples to `out`.
///
/// # Errors
/// A bad start position or an illegal move (played or candidate); `out` may then hold some of
/// the game's samples, which the caller discards.
pub fn hcpe3_samples(
    game: &Hcpe3Game,
    offset: u64,
    opts: &SampleOptions,
    settings: Option<&SidecarGame>,
    out: &mut VecDeque<Result<Sample, DatasetError>>,
) -> Result<(), DatasetError> {
    let position_error = |error: PositionError| DatasetError::Position { offset, error };
    let raw = game.start.decode().map_err(|e| position_error(e.into()))?;
    let mut pos = raw.to_position(1).map_err(|e| position_error(e.into()))?;
    let result = game.game_result();
    let mut legal = MoveList::new();
    for (ply, info) in game.moves.iter().enumerate() {
        legal.clear();
        pos.generate_legal(&mut legal);
        let illegal = |move16: u16| DatasetError::IllegalMove {
            offset,
            ply,
            move16,
        };
        let find = |m16: hayate_records::AperyMove16| -> Option<Move> {
            let m = Move::from_raw(m16.to_move16()?.0 as u32);
            legal.iter().copied().find(|x| x.same(m))
        };
        let m = find(info.move16).ok_or(illegal(info.move16.0))?;
        let sample = if info.candidates.is_empty() {
            None
        } else {
            let us = pos.side_to_move();
            let mut policy = Vec::with_capacity(info.candidates.len());
            for c in &info.candidates {
                let cm = find(c.move16).ok_or(illegal(c.move16.0))?;
                policy.push((move_label(cm, us), c.visits as f32));
            }
            if apply_temperature(&mut policy, opts.temperature) {
                let hcp = Hcp::from_position(&pos).map_err(|e| position_error(e.into()))?;
                Some(Sample {
                    hcp,
                    ply: pos.game_ply().min(u16::MAX as u32) as u16,
                    policy,
                    value: score_to_value(info.eval as f32, opts.eval_coef),
                    result: result_value(result, us),
                    novice: settings.map(|g| g.novice(us)),
                })
            } else {
                None
            }
        };
        pos.do_move(m);
        let repeats = matches!(
            pos.repetition(16),
            Repetition::Draw | Repetition::Superior | Repetition::Inferior
        );
        if let Some(s) = sample
            && !(opts.skip_repetitions && repeats)
        {
            out.push_back(Ok(s));
        }
    }
    Ok(())
}

/// Turns visit counts into probabilities under temperature `t`; false when no visits.
fn apply_temperature(policy: &mut [(u16, f32)], t: f32) -> bool {
    let max = policy.iter().map(|p| p.1).fold(0.0f32, f32::max);
    if max <= 0.0 {
        return false;
    }
    if t <= 0.0 {
        // One-hot on the first most visited move.
        let mut hit = false;
        for p in policy.iter_mut() {
            p.1 = if !hit && p.1 == max {
                hit = true;
                1.0
            } else {
                0.0
            };
        }
        return true;
    }
    if t != 1.0 {
        // Scale by the maximum first so that large counts cannot overflow.
        let inv = 1.0 / t as f64;
        for p in policy.iter_mut() {
            p.1 = ((p.1 as f64 / max as f64).powf(inv)) as f32;
        }
    }
    let total: f32 = policy.iter().map(|p| p.1).sum();
    for p in policy.iter_mut() {
        p.1 /= total;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temperature() {
        let mut p = vec![(1, 3.0), (2, 1.0)];
        assert!(apply_temperature(&mut p, 1.0));
        assert_eq!(p, vec![(1, 0.75), (2, 0.25)]);
        let mut p = vec![(1, 1.0), (2, 3.0), (3, 3.0)];
        assert!(apply_temperature(&mut p, 0.0));
        assert_eq!(p, vec![(1, 0.0), (2, 1.0), (3, 0.0)]);
        let mut p = vec![(1, 1.0), (2, 2.0)];
        assert!(apply_temperature(&mut p, 0.5));
        assert!((p[0].1 - 0.2).abs() < 1e-6 && (p[1].1 - 0.8).abs() < 1e-6);
        let mut p = vec![(1, 0.0)];
        assert!(!apply_temperature(&mut p, 1.0));
    }
}
