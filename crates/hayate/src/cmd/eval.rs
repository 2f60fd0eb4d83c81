//! `hayate eval` (not built yet).

/// Arguments of `hayate eval`.
#[derive(clap::Args)]
pub struct Args {
    /// Anything; the command is not built yet.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    rest: Vec<String>,
}

/// Runs the command.
pub fn run(_a: Args) -> anyhow::Result<()> {
    anyhow::bail!("hayate eval is not built yet")
}
