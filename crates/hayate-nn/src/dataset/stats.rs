//! File statistics for `hayate dataset stats`: records, result split, candidates, duplicates.

use super::error::DatasetError;
use super::source::SampleFormat;
use hayate_core::Position;
use hayate_records::FixedRecord;
use hayate_records::{
    ErrorPolicy, GameResult, Hcp, Hcpe, Hcpe3Reader, RESULT_MAX_MOVES, RESULT_NYUGYOKU,
    RESULT_SENNICHITE, RecordError, RecordErrorKind,
};
use std::collections::HashSet;
use std::io::Read;

/// Counts over one or more files.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DatasetStats {
    /// hcpe records read.
    pub hcpe_records: u64,
    /// hcpe3 games read.
    pub games: u64,
    /// Positions: hcpe records plus every position of every hcpe3 game.
    pub positions: u64,
    /// Positions usable for training: hcpe records plus hcpe3 positions with candidates.
    pub training_positions: u64,
    /// Results (per hcpe record, per hcpe3 game): Black wins, White wins, draws.
    pub black_wins: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Result flags of hcpe3 games: repetition (sennichite).
    pub sennichite: u64,
    /// Entering-king declaration (nyugyoku).
    pub nyugyoku: u64,
    /// Maximum moves reached.
    pub max_moves: u64,
    /// Candidates summed over the hcpe3 positions with candidates.
    pub candidates: u64,
    /// Training positions whose packed position was already seen (across all files).
    pub duplicates: u64,
    /// Corrupt records (reported through the callback).
    pub corrupt: u64,
    seen: HashSet<Hcp>,
}

impl DatasetStats {
    /// Empty counts.
    pub fn new() -> DatasetStats {
        DatasetStats::default()
    }

    /// Average candidates per hcpe3 training position (0 when there are none).
    pub fn average_candidates(&self) -> f64 {
        let n = self.training_positions - self.hcpe_records;
        if n == 0 {
            0.0
        } else {
            self.candidates as f64 / n as f64
        }
    }

    fn count_result(&mut self, r: GameResult) {
        match r {
            GameResult::BlackWin => self.black_wins += 1,
            GameResult::WhiteWin => self.white_wins += 1,
            GameResult::Draw => self.draws += 1,
        }
    }

    fn count_position(&mut self, hcp: Hcp) {
        if !self.seen.insert(hcp) {
            self.duplicates += 1;
        }
    }

    /// Adds the records of `reader` (in `format`), passing each corrupt record's error to
    /// `report` and going on. hcpe3 games are replayed to find their positions; a game with an
    /// illegal move counts up to that move.
    pub fn add<R: Read>(
        &mut self,
        reader: R,
        format: SampleFormat,
        report: &mut dyn FnMut(DatasetError),
    ) {
        match format {
            SampleFormat::Hcpe => self.add_hcpe(reader, report),
            SampleFormat::Hcpe3 => self.add_hcpe3(reader, report),
        }
    }

    fn add_hcpe<R: Read>(&mut self, mut reader: R, report: &mut dyn FnMut(DatasetError)) {
        let mut buf = vec![0u8; Hcpe::SIZE];
        let mut offset = 0u64;
        loop {
            let mut n = 0;
            while n < buf.len() {
                match reader.read(&mut buf[n..]) {
                    Ok(0) => break,
                    Ok(k) => n += k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.corrupt += 1;
                        report(
                            RecordError {
                                offset,
                                kind: RecordErrorKind::Io(e),
                            }
                            .into(),
                        );
                        return;
                    }
                }
            }
            if n == 0 {
                return;
            }
            if n < buf.len() {
                self.corrupt += 1;
                report(
                    RecordError {
                        offset,
                        kind: RecordErrorKind::Truncated {
                            got: n,
                            need: Hcpe::SIZE,
                        },
                    }
                    .into(),
                );
                return;
            }
            match Hcpe::parse(&buf) {
                Ok(rec) => {
                    self.hcpe_records += 1;
                    self.positions += 1;
                    self.training_positions += 1;
                    self.count_result(rec.game_result());
                    self.count_position(rec.hcp);
                }
                Err(kind) => {
                    self.corrupt += 1;
                    report(RecordError { offset, kind }.into());
                }
            }
            offset += n as u64;
        }
    }

    fn add_hcpe3<R: Read>(&mut self, reader: R, report: &mut dyn FnMut(DatasetError)) {
        let mut reader = Hcpe3Reader::new(reader, ErrorPolicy::Skip);
        let mut rejected = 0;
        loop {
            let offset = reader.offset();
            let item = reader.next();
            while rejected < reader.rejected() {
                let message = match reader.rejected_errors().get(rejected as usize) {
                    Some(e) => e.to_string(),
                    None => "a corrupt hcpe3 game (offset not kept by the reader)".to_string(),
                };
                self.corrupt += 1;
                report(DatasetError::Rejected { message });
                rejected += 1;
            }
            let game = match item {
                None => return,
                Some(Err(e)) => {
                    self.corrupt += 1;
                    report(e.into());
                    return;
                }
                Some(Ok(g)) => g,
            };
            self.games += 1;
            self.count_result(game.game_result());
            self.sennichite += u64::from(game.result & RESULT_SENNICHITE != 0);
            self.nyugyoku += u64::from(game.result & RESULT_NYUGYOKU != 0);
            self.max_moves += u64::from(game.result & RESULT_MAX_MOVES != 0);
            let mut replay = |pos: &Position, info: &hayate_records::Hcpe3Move, _m| {
                self.positions += 1;
                if !info.candidates.is_empty() {
                    self.training_positions += 1;
                    self.candidates += info.candidates.len() as u64;
                    if let Ok(hcp) = Hcp::from_position(pos) {
                        self.count_position(hcp);
                    }
                }
            };
            if let Err(error) = game.replay(&mut replay) {
                self.corrupt += 1;
                let e = match error {
                    hayate_records::ReplayError::Start(error) => {
                        DatasetError::Position { offset, error }
                    }
                    hayate_records::ReplayError::IllegalMove { ply, move16 } => {
                        DatasetError::IllegalMove {
                            offset,
                            ply,
                            move16,
                        }
                    }
                };
                report(e);
            }
        }
    }

    /// The report printed by `hayate dataset stats`, one `key value` per line.
    pub fn report(&self) -> String {
        let results = self.black_wins + self.white_wins + self.draws;
        let pct = |x: u64| {
            if results == 0 {
                0.0
            } else {
                100.0 * x as f64 / results as f64
            }
        };
        let dup_pct = if self.training_positions == 0 {
            0.0
        } else {
            100.0 * self.duplicates as f64 / self.training_positions as f64
        };
        format!(
            "hcpe_records {}\ngames {}\npositions {}\ntraining_positions {}\n\
             black_wins {} ({:.1}%)\nwhite_wins {} ({:.1}%)\ndraws {} ({:.1}%)\n\
             sennichite {}\nnyugyoku {}\nmax_moves {}\n\
             average_candidates {:.2}\nduplicates {} ({:.1}%)\ncorrupt {}",
            self.hcpe_records,
            self.games,
            self.positions,
            self.training_positions,
            self.black_wins,
            pct(self.black_wins),
            self.white_wins,
            pct(self.white_wins),
            self.draws,
            pct(self.draws),
            self.sennichite,
            self.nyugyoku,
            self.max_moves,
            self.average_candidates(),
            self.duplicates,
            dup_pct,
            self.corrupt,
        )
    }
}
