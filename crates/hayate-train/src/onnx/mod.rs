//! ONNX: a hand-written protobuf encoder/decoder ([`proto`]), a graph builder ([`graph`]),
//! exports of dlshogi's network with its interface ([`export`]), of the gMLP
//! ([`export_gmlp`]), of Novice's network ([`export_novice`]) and of RyfcNet ([`export_ryfc`]),
//! and the import of dlshogi ONNX files
//! ([`import`]).

pub mod export;
pub mod export_gmlp;
pub mod export_novice;
pub mod export_ryfc;
pub mod graph;
pub mod import;
pub mod proto;

pub use export::export_dlshogi;
pub use export_gmlp::export_gmlp;
pub use export_novice::export_novice;
pub use export_ryfc::export_ryfc;
pub use import::import_dlshogi;
