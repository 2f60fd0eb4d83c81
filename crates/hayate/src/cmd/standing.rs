//! `hayate standing`: the ratings, W/D/L and Elo ± 95 % of one or more match folders, pooled,
//! read without touching them (a match may still be playing into them).
//!
//! ```text
//! hayate standing runs/yo-b200-1 runs/yo-b200-41 --engine hayate=hayate-head
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Context;
use hayate_arena::{read_entries, summarize};

/// Arguments of `hayate standing`.
#[derive(clap::Args)]
pub struct Args {
    /// Match output folders (each holds a results.jsonl), or results.jsonl files; pooled.
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// `OLD=NEW`: count engine OLD as NEW (pool runs whose builds had other names); repeatable.
    #[arg(long = "engine")]
    renames: Vec<String>,
    /// Also print one line per game.
    #[arg(long)]
    games: bool,
}

/// Prints the pooled standing.
pub fn run(a: Args) -> anyhow::Result<()> {
    let mut renames = BTreeMap::new();
    for r in &a.renames {
        let (old, new) = r
            .split_once('=')
            .with_context(|| format!("--engine {r:?}: expected OLD=NEW"))?;
        renames.insert(old.trim().to_string(), new.trim().to_string());
    }
    let rename = |n: &str| renames.get(n).cloned().unwrap_or_else(|| n.to_string());
    let mut games = Vec::new();
    for run in &a.runs {
        let path = if run.is_dir() {
            run.join("results.jsonl")
        } else {
            run.clone()
        };
        let entries = read_entries(&path).with_context(|| format!("reading {}", path.display()))?;
        games.extend(entries.into_iter().map(|mut g| {
            g.black = rename(&g.black);
            g.white = rename(&g.white);
            g
        }));
    }
    let mut names: Vec<String> = Vec::new();
    for g in &games {
        for n in [&g.black, &g.white] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    let summary = summarize(&names, &games, None);
    print!("{}", summary.text());
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for g in &games {
        *reasons.entry(g.reason.to_string()).or_default() += 1;
    }
    let reasons: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    println!("\nended by: {}", reasons.join(", "));
    if a.games {
        print!("\n{}", summary.game_lines());
    }
    Ok(())
}
