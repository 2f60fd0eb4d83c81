#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod clock;
pub mod config;
pub mod game;
pub mod league;
pub mod move_times;
pub mod openings;
pub mod process;
pub mod rating;
pub mod report;
pub mod results;
pub mod schedule;
pub mod sprt;
pub mod spsa;
pub mod summary;
pub mod tune;
pub mod usi_player;

pub use clock::{Clock, TimeControl};
pub use config::{ConfigError, EngineConfig, load_engines, parse_engines};
pub use game::{EndReason, GameResult, GameRules, ScoreAdjudication};
pub use league::{ArenaError, League, RunOutcome, run};
pub use move_times::{MoveTimes, move_times};
pub use openings::{Opening, OpeningError, parse_openings};
pub use process::{EngineError, EngineProcess, Timeouts};
pub use rating::{Crosstable, Ratings, Wdl, fit_ratings};
pub use results::{GameEntry, ResultsFile, read_entries};
pub use schedule::{Format, Schedule};
pub use sprt::{SprtDecision, SprtParams};
pub use spsa::{Spsa, SpsaParam, params_text, parse_params};
pub use summary::{Summary, summarize};
pub use tune::{TuneError, Tuning, load_state, run_tuning};
pub use usi_player::UsiPlayer;
