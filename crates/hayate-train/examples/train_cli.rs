//! `hayate train` outside the binary (which does not depend on this crate yet): the same
//! command file, compiled here so that it is checked and can be run.
//! `cargo run --release -p hayate-train --example train_cli -- bench --model resnet10x128`

#[path = "../../hayate/src/cmd/train.rs"]
mod train;

use clap::Parser;

/// `hayate train`.
#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: train::Args,
}

fn main() -> anyhow::Result<()> {
    train::run(Cli::parse().args)
}
