#![doc = include_str!("../README.md")]

mod cmd;
mod engine;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "hayate", version, about = "Hayate shogi engine and toolkit")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree (move generator check and speed test).
    Perft(cmd::perft::Args),
    /// Speak USI on stdin/stdout (the default with no subcommand).
    Usi,
    /// Search a fixed set of positions to a fixed depth; last line `nodes N nps X`.
    Bench(cmd::bench::Args),
    /// Static evaluation of SFEN lines (file or stdin): one line per line, an integer or `error: …`.
    Eval(cmd::eval::Args),
    /// Solve a mate problem: prints `checkmate <moves>`, `checkmate nomate` or `checkmate timeout`.
    Mate(cmd::mate::Args),
    /// Training-data tools: statistics and features.
    Dataset(cmd::dataset::Args),
    /// Convert game records and training data between formats.
    Convert(cmd::convert::Args),
    /// Play on a CSA protocol server (floodgate, championships).
    Csa(cmd::csa::Args),
    /// Matches and leagues between USI engines: ratings, SPRT, records, an HTML report.
    Match(cmd::arena::Args),
    /// The pooled standing of match folders: ratings, W/D/L, Elo ± 95 % (read-only).
    Standing(cmd::standing::Args),
    /// Tune an engine's spin options (the search constants by default) by SPSA game pairs.
    Tune(cmd::tune::Args),
    /// Self-play: αβ or MCTS games written as psv/hcpe/hcpe3 training shards (resumable, one
    /// worker per index).
    Selfplay(cmd::selfplay::Args),
    /// The reinforcement loop: self-play → train → export → gate → publish, resumable.
    Rl(cmd::rl::Args),
    /// Networks: train, bench, export/import ONNX.
    Train(cmd::train::Args),
    /// The MCTS (deep-learning) player: one search, or its speed bench.
    Mcts(cmd::mcts::Args),
    /// NNUE files: `info FILE` says which architecture a file holds.
    Nnue(cmd::nnue::Args),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Usi) => cmd::usi::run(),
        Some(Command::Perft(a)) => cmd::perft::run(a),
        Some(Command::Bench(a)) => cmd::bench::run(a),
        Some(Command::Eval(a)) => cmd::eval::run(a),
        Some(Command::Mate(a)) => cmd::mate::run(a),
        Some(Command::Dataset(a)) => cmd::dataset::run(a),
        Some(Command::Convert(a)) => cmd::convert::run(a),
        Some(Command::Csa(a)) => cmd::csa::run(a),
        Some(Command::Match(a)) => cmd::arena::run(a),
        Some(Command::Standing(a)) => cmd::standing::run(a),
        Some(Command::Tune(a)) => cmd::tune::run(a),
        Some(Command::Selfplay(a)) => cmd::selfplay::run(a),
        Some(Command::Rl(a)) => cmd::rl::run(a),
        Some(Command::Train(a)) => cmd::train::run(a),
        Some(Command::Mcts(a)) => cmd::mcts::run(a),
        Some(Command::Nnue(a)) => cmd::nnue::run(a),
    }
}
