//! `hayate tune`: SPSA tuning of an engine's `spin` options by game pairs in the arena.
//!
//! ```text
//! hayate tune --write-params params.toml          # Hayate's search constants, to edit
//! hayate tune --out runs/tune1 --params params.toml --iterations 2000 --byoyomi 100 \
//!     --option USI_Hash=64 --openings crates/hayate-search/docs/sprt-openings.txt
//! ```
//! Without `--engine` the engine is this program; without `--params`, every search constant
//! (`Tune_*`, see `hayate_search::params`). Run the same command again to resume;
//! `hayate tune --out runs/tune1 --status` shows where a run stands.

use std::path::PathBuf;

use anyhow::Context;
use hayate_arena::{
    EngineConfig, GameRules, ScoreAdjudication, Spsa, SpsaParam, TimeControl, Timeouts, Tuning,
    load_state, params_text, parse_openings, parse_params, run_tuning,
};
use hayate_search::params::SearchParams;

/// Arguments of `hayate tune`.
#[derive(clap::Args)]
pub struct Args {
    /// Output folder (state.json, history.csv); reused to resume.
    #[arg(long, required_unless_present = "write_params")]
    out: Option<PathBuf>,
    /// Write the parameters file of Hayate's search constants here and stop.
    #[arg(long)]
    write_params: Option<PathBuf>,
    /// Parameters file (TOML `[[param]]`: name, value, min, max, optional c_end, r_end).
    #[arg(long)]
    params: Option<PathBuf>,
    /// The engine to tune (default: this program).
    #[arg(long)]
    engine: Option<PathBuf>,
    /// A fixed option `NAME=VALUE`, sent before the tuned ones (repeatable).
    #[arg(long = "option")]
    options: Vec<String>,
    /// Iterations (game pairs); the schedules are set for this many.
    #[arg(long, default_value_t = 1000)]
    iterations: u64,
    /// Seed of the perturbations.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Byoyomi in ms.
    #[arg(long, default_value_t = 100)]
    byoyomi: u64,
    /// Extra `go` words for both settings (e.g. `nodes 20000`).
    #[arg(long, default_value = "")]
    go: String,
    #[command(flatten)]
    limits: super::arena::GameLimits,
    /// Openings file (SFEN or `startpos moves ...` per line), one per iteration in turn.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Adjudicate a loss when both settings' scores agree beyond this many centipawns.
    #[arg(long, default_value_t = 3000)]
    resign_cp: i32,
    /// Game pairs played at once (each pair's two games side by side: about two cores a pair).
    #[arg(long, default_value_t = 1)]
    pairs_at_once: usize,
    /// No line per iteration.
    #[arg(long)]
    quiet: bool,
    /// Print where the run in --out stands (each parameter's start, value and move) and stop.
    #[arg(long)]
    status: bool,
}

/// Hayate's own search constants as tuning parameters.
fn hayate_params() -> Vec<SpsaParam> {
    SearchParams::TABLE
        .iter()
        .map(|&(name, value, min, max)| SpsaParam {
            name: format!("Tune_{name}"),
            value: value.into(),
            min: min.into(),
            max: max.into(),
            c_end: None,
            r_end: None,
        })
        .collect()
}

/// Starts or resumes the run and prints the final values.
pub fn run(a: Args) -> anyhow::Result<()> {
    if let Some(path) = &a.write_params {
        std::fs::write(path, params_text(&hayate_params()))
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!(
            "wrote {} parameters to {}",
            SearchParams::TABLE.len(),
            path.display()
        );
        return Ok(());
    }
    let out = a.out.clone().context("--out is required")?;
    if a.status {
        let s = load_state(&out)?.with_context(|| format!("no run in {}", out.display()))?;
        print!("{}", s.status());
        return Ok(());
    }
    let params = match &a.params {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            parse_params(&text).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?
        }
        None => hayate_params(),
    };
    let mut spsa = match load_state(&out)? {
        Some(s) => {
            anyhow::ensure!(
                s.params == params && s.iterations == a.iterations && s.seed == a.seed,
                "{} holds another run (other parameters, iterations or seed)",
                out.display()
            );
            println!("resuming at iteration {} of {}", s.k, s.iterations);
            s
        }
        None => Spsa::new(params, a.iterations, a.seed),
    };
    let path = match &a.engine {
        Some(p) => p.clone(),
        None => std::env::current_exe().context("cannot find this program")?,
    };
    let mut engine = EngineConfig::new("engine", path);
    engine.go_extra = a.go.clone();
    for o in &a.options {
        let (n, v) = super::name_value(o)?;
        engine = engine.option(n, v);
    }
    let openings = match &a.openings {
        Some(p) => parse_openings(
            &std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?,
        )?,
        None => Vec::new(),
    };
    let tuning = Tuning {
        engine,
        openings,
        time_control: TimeControl::byoyomi(a.byoyomi),
        rules: GameRules {
            max_plies: a.limits.max_plies,
            margin_ms: a.limits.margin,
            resign: Some(ScoreAdjudication {
                cp: a.resign_cp,
                moves: 3,
            }),
            ..GameRules::default()
        },
        timeouts: Timeouts::default(),
        out_dir: out,
        pairs_at_once: a.pairs_at_once,
    };
    run_tuning(&tuning, &mut spsa, |s, k, result| {
        if !a.quiet {
            println!("iteration {k}/{}: {result:+}", s.iterations);
        }
    })?;
    for (p, t) in spsa.params.iter().zip(&spsa.theta) {
        println!("setoption name {} value {}", p.name, t.round());
    }
    Ok(())
}
