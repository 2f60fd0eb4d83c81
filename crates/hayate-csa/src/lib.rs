//! Hayate's CSA network protocol client (floodgate and championship servers): protocol 1.2.1
//! as shogi-server speaks it, driving any [`hayate_core::player::Player`].
//!
//! ```no_run
//! use hayate_csa::{Client, Log, Settings};
//! # fn player() -> Box<dyn hayate_core::player::Player> { unimplemented!() }
//! let settings = Settings::load(std::path::Path::new("csa.toml"), &|v| std::env::var(v).ok())?;
//! let mut client = Client::new(settings, player(), Log::stderr())?;
//! let report = client.run()?;
//! println!("{} games", report.games.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Layout: the server's text (`summary`, `position_block`, `csa_move`, `outcome`), our side
//! (`clock`, `comment`, `record`), and the machinery (`connection`, `engine`, `game`,
//! `client`, `config`, `log`). `random_player` is a stand-in player for tools and tests.
#![deny(missing_docs)]

pub mod client;
pub mod clock;
pub mod comment;
pub mod config;
pub mod connection;
pub mod csa_move;
pub mod engine;
pub mod error;
pub mod game;
pub mod log;
pub mod outcome;
pub mod position_block;
pub mod random_player;
pub mod record;
pub mod summary;

pub use client::{Client, SessionReport};
pub use clock::Clock;
pub use config::{ReconnectPolicy, Secret, Settings};
pub use error::{ConfigError, CsaError, ParseError};
pub use game::GameReport;
pub use log::Log;
pub use outcome::{EndReason, Outcome};
pub use random_player::RandomPlayer;
pub use summary::{GameSummary, TimeControl};
