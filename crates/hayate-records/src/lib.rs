#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod data;

pub use data::error::{ErrorPolicy, RecordError, RecordErrorKind};
pub use data::format::DataFormat;
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
