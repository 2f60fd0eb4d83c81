//! Matches and leagues between USI engines: the arena starts each engine as a child process,
//! keeps the clocks, lets the rules core adjudicate every game, appends each result to a file as
//! soon as it is known (so a killed run resumes), and rates the engines by maximum likelihood.
//!
//! ```no_run
//! use hayate_arena::{EngineConfig, League, TimeControl, run};
//! let engines = vec![
//!     EngineConfig::new("material", "hayate").option("EvalType", "material"),
//!     EngineConfig::new("kkpee9", "hayate"),
//! ];
//! let mut league = League::new(engines, "out");
//! league.games_per_pair = 20;
//! league.time_control = TimeControl::byoyomi(100);
//! let outcome = run(&league)?;
//! print!("{}", outcome.summary.text());
//! # Ok::<(), hayate_arena::ArenaError>(())
//! ```
#![deny(missing_docs)]

pub mod clock;
pub mod config;
pub mod game;
pub mod league;
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
pub use openings::{Opening, OpeningError, parse_openings};
pub use process::{EngineError, EngineProcess, Timeouts};
pub use rating::{Crosstable, Ratings, Wdl, fit_ratings};
pub use results::{GameEntry, ResultsFile};
pub use schedule::{Format, Schedule};
pub use sprt::{SprtDecision, SprtParams};
pub use spsa::{Spsa, SpsaParam, params_text, parse_params};
pub use summary::{Summary, summarize};
pub use tune::{TuneError, Tuning, load_state, run_tuning};
pub use usi_player::UsiPlayer;
