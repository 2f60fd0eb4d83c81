//! The `hayate` binary. With no arguments it is a USI engine on stdin/stdout; subcommands run
//! the tools, each a thin layer over a library crate.

mod cmd;

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
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Usi) => cmd::usi::run(),
        Some(Command::Perft(a)) => cmd::perft::run(a),
    }
}
