//! `hayate standing`: the ratings, W/D/L and Elo ± 95 % of one or more match folders, pooled,
//! read without touching them (a match may still be playing into them).
//!
//! ```text
//! hayate standing runs/yo-b200-1 runs/yo-b200-41 --engine hayate=hayate-head
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Context;
use hayate_arena::{move_times, read_entries, summarize};

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
    // Per engine: its thinking times (ms) and its time losses, from the CSA records.
    let mut times: BTreeMap<String, (Vec<f64>, usize)> = BTreeMap::new();
    for run in &a.runs {
        let path = if run.is_dir() {
            run.join("results.jsonl")
        } else {
            run.clone()
        };
        let entries = read_entries(&path).with_context(|| format!("reading {}", path.display()))?;
        let folder = path.parent().unwrap_or(std::path::Path::new("."));
        for mut g in entries {
            // A record that cannot be read or parsed leaves its times out (the result counts).
            let record = std::fs::read_to_string(folder.join(&g.record)).ok();
            if let Some(t) = record.and_then(|text| move_times(&text).ok()) {
                for side in 0..2 {
                    let e = times.entry(rename(&t.names[side])).or_default();
                    e.0.extend(&t.ms[side]);
                    e.1 += usize::from(t.time_up == Some(side));
                }
            }
            g.black = rename(&g.black);
            g.white = rename(&g.white);
            games.push(g);
        }
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
    println!("time per move (ms, from the records):");
    for (name, (mut ms, lost)) in times {
        if ms.is_empty() {
            continue;
        }
        ms.sort_by(f64::total_cmp);
        let at = |q: f64| ms[((q * ms.len() as f64) as usize).min(ms.len() - 1)];
        let mean = ms.iter().sum::<f64>() / ms.len() as f64;
        println!(
            "  {name}: {} moves, mean {mean:.0}, median {:.0}, p90 {:.0}, max {:.0}; time losses {lost}",
            ms.len(),
            at(0.5),
            at(0.9),
            ms[ms.len() - 1]
        );
    }
    if a.games {
        print!("\n{}", summary.game_lines());
    }
    Ok(())
}
