//! `hayate rl`: the reinforcement loop over one run directory (`hayate_selfplay::rl`):
//! self-play with the current network → fine-tuning on the newest generations' data → ONNX
//! export → a gate match in the arena → publish. Each stage is this same binary run as a
//! child process (`hayate selfplay`, `hayate train`, `hayate match`), each resumable on its
//! own files, so the loop can be killed at any moment and started again with the same command.
//!
//! ```text
//! hayate rl --dir runs/rl1 --init-model gen0.onnx --generations 5 --positions 20000
//! hayate rl --dir runs/rl1 report --games 40      # Elo of each generation against generation 0
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use hayate_arena::{GameEntry, ResultsFile, summarize};
use hayate_selfplay::openings::DEFAULT_OPENINGS;
use hayate_selfplay::rl::{GenResult, RlSettings, RunDir, Stage, wdl_score};
use hayate_selfplay::shard::{shard_path, write_atomically};

/// Arguments of `hayate rl`.
#[derive(clap::Args)]
pub struct Args {
    /// The run directory (created on the first call; later calls resume it).
    #[arg(long)]
    dir: PathBuf,
    /// The network of generation 0 (dlshogi-format ONNX; needed on the first call only).
    #[arg(long)]
    init_model: Option<PathBuf>,
    /// Stop after this many stages (the run resumes where it stopped).
    #[arg(long)]
    max_stages: Option<u32>,
    #[command(flatten)]
    settings: SettingsArgs,
    #[command(subcommand)]
    command: Option<RlCommand>,
}

#[derive(clap::Subcommand)]
enum RlCommand {
    /// Elo of every generation's network against generation 0's (a gauntlet in the arena),
    /// written to `<dir>/report/` (report.md, elo.csv, elo.svg).
    Report {
        /// Games per pair.
        #[arg(long, default_value_t = 40)]
        games: u64,
        /// Playouts per move.
        #[arg(long, default_value_t = 100)]
        playouts: u64,
        /// Games at once.
        #[arg(long, default_value_t = 2)]
        concurrency: usize,
    },
}

/// The run's settings (used when the run starts; a resumed run keeps its `rl.json`).
#[derive(clap::Args)]
struct SettingsArgs {
    /// Generations to run.
    #[arg(long, default_value_t = RlSettings::default().generations)]
    generations: u32,
    /// Self-play positions per generation.
    #[arg(long, default_value_t = RlSettings::default().positions)]
    positions: u64,
    /// Self-play games at once.
    #[arg(long, default_value_t = RlSettings::default().games_at_once)]
    games_at_once: usize,
    /// Playouts per self-play move.
    #[arg(long, default_value_t = RlSettings::default().playouts)]
    playouts: u64,
    /// Generations of data each training reads (the newest).
    #[arg(long, default_value_t = RlSettings::default().window)]
    window: u32,
    /// Training steps per generation.
    #[arg(long, default_value_t = RlSettings::default().train_steps)]
    train_steps: u64,
    /// Samples per training step.
    #[arg(long, default_value_t = RlSettings::default().train_batch)]
    train_batch: usize,
    /// Learning rate of the fine-tuning.
    #[arg(long, default_value_t = RlSettings::default().lr)]
    lr: f64,
    /// Gate games per generation.
    #[arg(long, default_value_t = RlSettings::default().gate_games)]
    gate_games: u64,
    /// Playouts per gate move.
    #[arg(long, default_value_t = RlSettings::default().gate_playouts)]
    gate_playouts: u64,
    /// Score the candidate needs to replace the current network (0: always promote).
    #[arg(long, default_value_t = RlSettings::default().gate_score)]
    gate_score: f64,
    /// Gate games at once.
    #[arg(long, default_value_t = RlSettings::default().gate_concurrency)]
    gate_concurrency: usize,
    /// Extra words for every `hayate selfplay` (e.g. "--draw-control 0.02 --sample-plies 20").
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    selfplay_args: String,
}

impl SettingsArgs {
    fn settings(&self) -> RlSettings {
        RlSettings {
            generations: self.generations,
            positions: self.positions,
            games_at_once: self.games_at_once.max(1),
            playouts: self.playouts.max(1),
            window: self.window.max(1),
            train_steps: self.train_steps.max(1),
            train_batch: self.train_batch.max(1),
            lr: self.lr,
            gate_games: self.gate_games,
            gate_playouts: self.gate_playouts.max(1),
            gate_score: self.gate_score,
            gate_concurrency: self.gate_concurrency.max(1),
            selfplay_args: self
                .selfplay_args
                .split_whitespace()
                .map(str::to_string)
                .collect(),
        }
    }
}

/// Runs (or resumes) the loop, or writes the report.
pub fn run(a: Args) -> anyhow::Result<()> {
    let run = RunDir::new(&a.dir);
    if let Some(RlCommand::Report {
        games,
        playouts,
        concurrency,
    }) = a.command
    {
        return report(&run, games, playouts, concurrency);
    }
    let s = run
        .init(&a.settings.settings(), a.init_model.as_deref())
        .context("--init-model names the network of generation 0 of a new run")?;
    let mut stages = 0;
    loop {
        let stage = run.next_stage(&s, &|g| data_done(&run, &s, g));
        if stage == Stage::Done || a.max_stages.is_some_and(|m| stages >= m) {
            eprintln!("rl: {stage:?} next; {}", progress_line(&run));
            return Ok(());
        }
        eprintln!("rl: {stage:?}");
        do_stage(&run, &s, &stage)?;
        stages += 1;
    }
}

fn progress_line(run: &RunDir) -> String {
    let r = run.results();
    let promoted = r.iter().filter(|g| g.promoted).count();
    format!("{} generations done, {promoted} promoted", r.len())
}

/// Whether generation `g`'s self-play wrote every shard (worker 0's shard list).
fn data_done(run: &RunDir, s: &RlSettings, g: u32) -> bool {
    (0..s.shards()).all(|i| shard_path(&run.data_dir(g), i, "hcpe3").exists())
}

fn do_stage(run: &RunDir, s: &RlSettings, stage: &Stage) -> anyhow::Result<()> {
    match *stage {
        Stage::Begin(g) => {
            run.begin(g)?;
        }
        Stage::Generate(g) => generate(run, s, g)?,
        Stage::Train(g) => train(run, s, g)?,
        Stage::Export(g) => {
            let out = run.candidate(g);
            let temp = out.with_extension("onnx.tmp");
            let ckpt = run.train_dir(g).join("checkpoint");
            hayate(&["train", "export-onnx", &path(&ckpt), &path(&temp)])?;
            std::fs::rename(&temp, &out).with_context(|| format!("renaming {}", out.display()))?;
        }
        Stage::Gate(g) => {
            let r = gate(run, s, g)?;
            eprintln!(
                "rl: generation {g}: candidate {:.3} ({}-{}-{}), {}",
                r.score(),
                r.wdl[0],
                r.wdl[1],
                r.wdl[2],
                if r.promoted {
                    "promoted"
                } else {
                    "kept the old network"
                }
            );
        }
        Stage::Done => {}
    }
    Ok(())
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// Runs this binary with `args`; a child dies with the loop (so a killed loop leaves no stage
/// running on the run's files).
fn hayate(args: &[&str]) -> anyhow::Result<()> {
    let exe = std::env::current_exe().context("finding the hayate binary")?;
    let mut cmd = Command::new(&exe);
    cmd.args(args);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl is async-signal-safe and touches only the child's own state.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    let status = cmd
        .status()
        .with_context(|| format!("starting {}", exe.display()))?;
    if !status.success() {
        bail!("hayate {} failed ({status})", args.join(" "));
    }
    Ok(())
}

fn generate(run: &RunDir, s: &RlSettings, g: u32) -> anyhow::Result<()> {
    let model = path(&run.model_of(g)?);
    let out = path(&run.data_dir(g));
    let (positions, shard, games, playouts, seed) = (
        s.positions.to_string(),
        s.shard_size().to_string(),
        s.games_at_once.to_string(),
        s.playouts.to_string(),
        g.to_string(),
    );
    let mut args = vec![
        "selfplay",
        "--player",
        "mcts",
        "--model",
        &model,
        "--out",
        &out,
        "--positions",
        &positions,
        "--shard-size",
        &shard,
        "--threads",
        &games,
        "--playouts",
        &playouts,
        "--seed",
        &seed,
        "--quiet",
    ];
    args.extend(s.selfplay_args.iter().map(String::as_str));
    hayate(&args)
}

fn train(run: &RunDir, s: &RlSettings, g: u32) -> anyhow::Result<()> {
    let dir = run.train_dir(g);
    let ckpt = dir.join("checkpoint");
    if !ckpt.join("state.json").exists() {
        // Fine-tuning starts from the network that played the games.
        hayate(&[
            "train",
            "import-onnx",
            &path(&run.model_of(g)?),
            &path(&ckpt),
        ])?;
    }
    let files: Vec<String> = run
        .window_files(g, s.window)
        .iter()
        .map(|p| path(p))
        .collect();
    if files.is_empty() {
        bail!("generation {g} has no self-play data");
    }
    let (out, steps, batch, lr) = (
        path(&dir),
        s.train_steps.to_string(),
        s.train_batch.to_string(),
        s.lr.to_string(),
    );
    let mut args = vec![
        "train",
        "fit",
        "--out",
        &out,
        "--steps",
        &steps,
        "--batch",
        &batch,
        "--lr",
        &lr,
        "--checkpoint-every",
        "50",
        "--eval-every",
        "0",
        "--log-every",
        "50",
    ];
    args.extend(files.iter().map(String::as_str));
    hayate(&args)
}

/// An engines file: the MCTS player of this binary with each network, at fixed playouts.
fn engines_toml(models: &[(String, PathBuf)], playouts: u64) -> anyhow::Result<String> {
    let exe = std::env::current_exe().context("finding the hayate binary")?;
    let mut t = String::new();
    for (name, model) in models {
        let model =
            std::fs::canonicalize(model).with_context(|| format!("finding {}", model.display()))?;
        t.push_str(&format!(
            "[[engine]]\nname = {name:?}\npath = {:?}\ngo = \"nodes {playouts}\"\n\
             [engine.options]\nEvalType = \"dl\"\nDNN_Model = {:?}\nUCT_Threads = 1\n\
             DNN_Threads = 1\nDNN_Batch_Size = 8\nMate_Root_Search = false\n\n",
            path(&exe),
            path(&model)
        ));
    }
    Ok(t)
}

/// Plays `models` in the arena in `dir` (resuming its games): `format` gauntlet or
/// round-robin, `games` per pair, the self-play openings with colours swapped.
fn arena(
    dir: &Path,
    models: &[(String, PathBuf)],
    format: &str,
    games: u64,
    playouts: u64,
    concurrency: usize,
) -> anyhow::Result<Vec<GameEntry>> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let engines = dir.join("engines.toml");
    write_atomically(&engines, engines_toml(models, playouts)?.as_bytes())?;
    let openings = dir.join("openings.txt");
    write_atomically(&openings, DEFAULT_OPENINGS.as_bytes())?;
    let (games, concurrency) = (games.to_string(), concurrency.to_string());
    hayate(&[
        "match",
        "--engines",
        &path(&engines),
        "--out",
        &path(dir),
        "--format",
        format,
        "--games",
        &games,
        // The playouts decide; the clock only guards against a hang.
        "--byoyomi",
        "60000",
        "--openings",
        &path(&openings),
        "--concurrency",
        &concurrency,
        "--quiet",
    ])?;
    Ok(ResultsFile::open(&dir.join("results.jsonl"))?.entries)
}

fn gate(run: &RunDir, s: &RlSettings, g: u32) -> anyhow::Result<GenResult> {
    let models = [
        ("candidate".to_string(), run.candidate(g)),
        ("best".to_string(), run.model_of(g)?),
    ];
    let games = arena(
        &run.gate_dir(g),
        &models,
        "round-robin",
        s.gate_games,
        s.gate_playouts,
        s.gate_concurrency,
    )?;
    let names = ["candidate".to_string(), "best".to_string()];
    let t = summarize(&names, &games, None).crosstable.get(0, 1);
    let wdl = [u64::from(t.wins), u64::from(t.draws), u64::from(t.losses)];
    // Without a game played, only "promote always" promotes.
    let played = wdl.iter().sum::<u64>() > 0;
    let promoted = s.gate_score <= 0.0 || (played && wdl_score(wdl) >= s.gate_score);
    Ok(run.finish(g, wdl, promoted)?)
}

/// The networks of the report: generation 0's, then the one current after each generation
/// where it changed.
fn report_models(run: &RunDir) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let results = run.results();
    let Some(first) = results.first() else {
        bail!("no generation is done yet");
    };
    let mut models = vec![("gen0".to_string(), run.models().join(&first.model))];
    let mut current = first.model.clone();
    for r in &results {
        if r.promoted && r.candidate != current {
            current = r.candidate.clone();
            models.push((format!("gen{}", r.generation), run.models().join(&current)));
        }
    }
    Ok(models)
}

fn report(run: &RunDir, games: u64, playouts: u64, concurrency: usize) -> anyhow::Result<()> {
    let models = report_models(run)?;
    if models.len() < 2 {
        bail!("no generation was promoted: nothing to compare with generation 0");
    }
    let dir = run.root().join("report");
    let played = arena(&dir, &models, "gauntlet", games, playouts, concurrency)?;
    let names: Vec<String> = models.iter().map(|m| m.0.clone()).collect();
    let sum = summarize(&names, &played, None);
    let mut csv = String::from("network,games,wins,draws,losses,elo,error95\n");
    let mut md = format!(
        "# Reinforcement run {}\n\nEach network against generation 0's, {games} games per pair at \
         {playouts} playouts per move (`hayate rl report`). Elo relative to generation 0, ±95 %.\n\n\
         | network | W-D-L vs gen0 | Elo | ± |\n|---|---|---|---|\n",
        run.root().display()
    );
    let mut points = vec![(0.0, 0.0, 0.0)];
    for (i, name) in names.iter().enumerate().skip(1) {
        let t = sum.crosstable.get(i, 0);
        let elo = sum.ratings.elo[i] - sum.ratings.elo[0];
        let err = 1.96 * sum.ratings.diff_std_err(i, 0);
        csv.push_str(&format!(
            "{name},{},{},{},{},{elo:.1},{err:.1}\n",
            t.games(),
            t.wins,
            t.draws,
            t.losses
        ));
        md.push_str(&format!(
            "| {name} | {}-{}-{} | {elo:+.0} | {err:.0} |\n",
            t.wins, t.draws, t.losses
        ));
        let generation: f64 = name.trim_start_matches("gen").parse().unwrap_or(i as f64);
        points.push((generation, elo, err));
    }
    md.push_str("\n![Elo by generation](elo.svg)\n");
    write_atomically(&dir.join("elo.csv"), csv.as_bytes())?;
    write_atomically(&dir.join("report.md"), md.as_bytes())?;
    write_atomically(&dir.join("elo.svg"), elo_svg(&points).as_bytes())?;
    print!("{md}");
    Ok(())
}

/// Elo against generation 0 by generation, with 95 % error bars.
fn elo_svg(points: &[(f64, f64, f64)]) -> String {
    let (w, h, m) = (480.0, 320.0, 50.0);
    let xmax = points.iter().map(|p| p.0).fold(1.0, f64::max);
    let lo = points.iter().map(|p| p.1 - p.2).fold(-50.0, f64::min);
    let hi = points.iter().map(|p| p.1 + p.2).fold(50.0, f64::max);
    let px = |x: f64| m + x / xmax * (w - 2.0 * m);
    let py = |y: f64| h - m - (y - lo) / (hi - lo) * (h - 2.0 * m);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect x=\"{m}\" y=\"{m}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>\n\
         <line x1=\"{m}\" x2=\"{}\" y1=\"{y0:.1}\" y2=\"{y0:.1}\" stroke=\"#ccc\"/>\n\
         <text x=\"{m}\" y=\"30\">Elo vs generation 0 (±95 %)</text>\n\
         <text x=\"{}\" y=\"{}\">generation</text>\n\
         <text x=\"5\" y=\"{:.1}\">{hi:.0}</text><text x=\"5\" y=\"{:.1}\">{lo:.0}</text>\n",
        w - 2.0 * m,
        h - 2.0 * m,
        w - m,
        w / 2.0 - 30.0,
        h - 15.0,
        py(hi) + 4.0,
        py(lo),
        y0 = py(0.0),
    );
    let line: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", px(p.0), py(p.1)))
        .collect();
    s.push_str(&format!(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#36c\" stroke-width=\"2\"/>\n",
        line.join(" ")
    ));
    for &(x, y, e) in points {
        s.push_str(&format!(
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#36c\"/>\
             <circle cx=\"{0:.1}\" cy=\"{3:.1}\" r=\"3\" fill=\"#36c\"/>\
             <text x=\"{0:.1}\" y=\"{4}\" text-anchor=\"middle\">{5}</text>\n",
            px(x),
            py(y - e),
            py(y + e),
            py(y),
            h - m + 15.0,
            x
        ));
    }
    s.push_str("</svg>\n");
    s
}
