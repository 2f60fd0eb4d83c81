//! Which game comes next: round robin, gauntlet, or a two-engine SPRT match.
//!
//! A schedule is a pure function of the game number, so a resumed run plays exactly the games
//! that are missing. Pairs are interleaved (game `g` is pair `g mod P`), so a league stopped
//! early is still balanced; each opening is played twice in a row per pair with colours swapped.

use crate::sprt::SprtParams;

/// The kind of event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Format {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
    /// Two engines until the SPRT decides (or the game cap is reached).
    Sprt(SprtParams),
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Game number.
    pub id: u64,
    /// Engine index playing Black.
    pub black: usize,
    /// Engine index playing White.
    pub white: usize,
    /// Opening index.
    pub opening: usize,
}

/// What cannot be scheduled.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    /// Fewer than two engines, or not exactly two for SPRT.
    #[error("{format} needs {need} engines, got {got}")]
    EngineCount {
        /// The format's name.
        format: &'static str,
        /// What it needs.
        need: &'static str,
        /// What was given.
        got: usize,
    },
    /// Zero games per pair.
    #[error("games per pair must be at least 1")]
    NoGames,
}

/// A deterministic schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pairs: Vec<(usize, usize)>,
    games_per_pair: u64,
    openings: usize,
}

impl Schedule {
    /// Builds the schedule. `games_per_pair` is the cap for SPRT; `openings` is at least 1
    /// (with no openings file, the start position is opening 0).
    ///
    /// # Errors
    /// [`ScheduleError`] for a wrong number of engines or no games.
    pub fn new(
        format: Format,
        engines: usize,
        games_per_pair: u64,
        openings: usize,
    ) -> Result<Schedule, ScheduleError> {
        if games_per_pair == 0 {
            return Err(ScheduleError::NoGames);
        }
        let pairs: Vec<(usize, usize)> = match format {
            Format::RoundRobin | Format::Gauntlet if engines < 2 => {
                return Err(ScheduleError::EngineCount {
                    format: if format == Format::RoundRobin {
                        "a round robin"
                    } else {
                        "a gauntlet"
                    },
                    need: "at least 2",
                    got: engines,
                });
            }
            Format::RoundRobin => (0..engines)
                .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
                .collect(),
            Format::Gauntlet => (1..engines).map(|j| (0, j)).collect(),
            Format::Sprt(_) if engines != 2 => {
                return Err(ScheduleError::EngineCount {
                    format: "an SPRT match",
                    need: "exactly 2",
                    got: engines,
                });
            }
            Format::Sprt(_) => vec![(0, 1)],
        };
        Ok(Schedule {
            pairs,
            games_per_pair,
            openings: openings.max(1),
        })
    }

    /// Total games.
    pub fn total(&self) -> u64 {
        self.pairs.len() as u64 * self.games_per_pair
    }

    /// The pairs `(first, second)`.
    pub fn pairs(&self) -> &[(usize, usize)] {
        &self.pairs
    }

    /// Game number `id`, or `None` past the end.
    pub fn game(&self, id: u64) -> Option<Pairing> {
        if id >= self.total() {
            return None;
        }
        let p = self.pairs.len() as u64;
        let (a, b) = self.pairs[(id % p) as usize];
        let k = id / p;
        let opening = ((k / 2) % self.openings as u64) as usize;
        let (black, white) = if k.is_multiple_of(2) { (a, b) } else { (b, a) };
        Some(Pairing {
            id,
            black,
            white,
            opening,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_of_three_interleaves_and_swaps_colours() {
        let s = Schedule::new(Format::RoundRobin, 3, 4, 2).unwrap();
        assert_eq!(s.total(), 12);
        assert_eq!(s.pairs(), &[(0, 1), (0, 2), (1, 2)]);
        let g: Vec<(usize, usize, usize)> = (0..12)
            .map(|i| {
                let p = s.game(i).unwrap();
                (p.black, p.white, p.opening)
            })
            .collect();
        assert_eq!(
            g,
            vec![
                (0, 1, 0),
                (0, 2, 0),
                (1, 2, 0),
                (1, 0, 0),
                (2, 0, 0),
                (2, 1, 0),
                (0, 1, 1),
                (0, 2, 1),
                (1, 2, 1),
                (1, 0, 1),
                (2, 0, 1),
                (2, 1, 1),
            ]
        );
        assert_eq!(s.game(12), None);
    }

    #[test]
    fn gauntlet_and_sprt_shapes() {
        let s = Schedule::new(Format::Gauntlet, 4, 2, 1).unwrap();
        assert_eq!(s.pairs(), &[(0, 1), (0, 2), (0, 3)]);
        let sprt = Format::Sprt(SprtParams::default());
        assert!(Schedule::new(sprt, 3, 10, 1).is_err());
        let s = Schedule::new(sprt, 2, 10, 3).unwrap();
        assert_eq!(s.total(), 10);
        assert_eq!(s.game(5).unwrap().opening, 2);
        assert_eq!(s.game(5).unwrap().black, 1);
        assert!(Schedule::new(Format::RoundRobin, 1, 2, 1).is_err());
        assert_eq!(
            Schedule::new(Format::RoundRobin, 2, 0, 1),
            Err(ScheduleError::NoGames)
        );
    }
}
