//! Hayate's records: training data (hcp, hcpe, hcpe3, psv) and game records (CSA, KIF, KI2,
//! JKF), and the conversions between them.
//!
//! - [`data`]: packed positions ([`Hcp`], [`PackedSfen`]), the two 16-bit move encodings
//!   ([`AperyMove16`] for hcpe/hcpe3, [`PsvMove16`] for psv), the records ([`Hcpe`],
//!   [`Hcpe3Game`], [`Psv`]), streaming readers ([`HcpeReader`], [`PsvReader`],
//!   [`Hcpe3Reader`]; errors carry byte offsets, [`ErrorPolicy`] says skip or stop) and
//!   [`RecordWriter`] (whole records only).
//! - [`game`]: one [`GameRecord`] and the formats [`game::csa`], [`game::kif`], [`game::ki2`],
//!   [`game::jkf`], with [`GameFormat`] to pick one by name and [`game::text`] for UTF-8 and
//!   Shift_JIS; [`game::csa_notation`] is the CSA notation the CSA client shares.
//! - [`convert`]: games to hcpe/psv/hcpe3, hcpe3 to games and hcpe, hcpe ⇄ psv; and whole
//!   files of any of these formats into one output ([`convert::Job`], `hayate convert`).
//!
//! Reading hcpe (dlshogi's 38-byte training record) into positions:
//!
//! ```no_run
//! use hayate_records::{ErrorPolicy, Hcpe, HcpeReader};
//! let file = std::io::BufReader::new(std::fs::File::open("train.hcpe")?);
//! for rec in HcpeReader::new(file, ErrorPolicy::Stop) {
//!     let rec: Hcpe = rec?; // errors carry the byte offset
//!     let pos = rec.position()?;
//!     let best = rec.best_move(&pos); // None if the move is not legal there
//!     println!("{} {} {:?} {:?}", pos.to_sfen(), rec.eval, best, rec.game_result());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod data;

pub use data::error::{ErrorPolicy, RecordError, RecordErrorKind};
pub use data::hcp::{Hcp, PackedSfen};
pub use data::hcpe::{GameResult, Hcpe, RESULT_MAX_MOVES, RESULT_NYUGYOKU, RESULT_SENNICHITE};
pub use data::hcpe3::{Hcpe3Game, Hcpe3Move, Hcpe3Reader, MoveVisits, ReplayError};
pub use data::huffman::PackedError;
pub use data::move16::{AperyMove16, PsvMove16};
pub use data::psv::Psv;
pub use data::raw::{PositionError, RawPosition};
pub use data::reader::{FixedReader, FixedRecord, Record};
pub use data::writer::RecordWriter;

/// Reads hcpe records.
pub type HcpeReader<R> = FixedReader<R, Hcpe>;
/// Reads psv records.
pub type PsvReader<R> = FixedReader<R, Psv>;

pub mod game;

pub use game::error::{ParseError, ParseErrorKind};
pub use game::record::{EndKind, GameEnd, GameRecord, MoveEntry, Outcome};
pub use game::text::TextEncoding;

pub mod convert;

pub use game::format::GameFormat;
