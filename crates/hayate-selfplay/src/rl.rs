//! The reinforcement loop's run directory (KataGo's pattern: separate, restartable steps over
//! one on-disk layout; files are written whole or not at all):
//!
//! ```text
//! RUN/rl.json                 the run's settings (written once, when the run starts)
//! RUN/models/<sha256>.onnx    every published network, named by its content, never rewritten
//! RUN/current.onnx            a symlink to the best one, replaced by an atomic rename
//! RUN/gen-NNNN/model          the name of the network that plays this generation's games
//! RUN/gen-NNNN/data/          its self-play shards (hcpe3 and their game sidecars)
//! RUN/gen-NNNN/train/         fine-tuning of that network on the newest data (resumable)
//! RUN/gen-NNNN/candidate.onnx the trained network
//! RUN/gen-NNNN/gate/          the arena match of the candidate against that network
//! RUN/gen-NNNN/result.json    the verdict, written last: the generation is done
//! ```
//!
//! [`RunDir::next_stage`] reads which of these exist and says what to do next, so a killed
//! stage is simply run again: self-play and the arena resume from their own files, training
//! from its checkpoint, and everything else is rewritten whole.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::shard::write_atomically;

/// The settings of a run, fixed when it starts.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RlSettings {
    /// Generations to run.
    pub generations: u32,
    /// Positions of self-play per generation.
    pub positions: u64,
    /// Self-play games at once (their leaves share each network call; a thread plays one shard
    /// at a time, so a generation has this many shards).
    pub games_at_once: usize,
    /// Playouts per self-play move.
    pub playouts: u64,
    /// Generations of data the training reads (the newest ones).
    pub window: u32,
    /// Training steps per generation.
    pub train_steps: u64,
    /// Samples per training step.
    pub train_batch: usize,
    /// Learning rate of the fine-tuning.
    pub lr: f64,
    /// Gate games (candidate against the network that made the data).
    pub gate_games: u64,
    /// Playouts per gate move.
    pub gate_playouts: u64,
    /// Score the candidate needs to be promoted (0.5 + a margin; 0: promote always, as KataGo
    /// and AobaZero do).
    pub gate_score: f64,
    /// Games played at once in the gate.
    pub gate_concurrency: usize,
    /// Extra arguments of every `hayate selfplay` (e.g. `--draw-control 0.02`).
    pub selfplay_args: Vec<String>,
}

impl Default for RlSettings {
    fn default() -> RlSettings {
        RlSettings {
            generations: 5,
            positions: 20_000,
            games_at_once: 32,
            playouts: 100,
            window: 3,
            train_steps: 300,
            train_batch: 256,
            lr: 0.01,
            gate_games: 40,
            gate_playouts: 100,
            gate_score: 0.5,
            gate_concurrency: 2,
            selfplay_args: Vec::new(),
        }
    }
}

impl RlSettings {
    /// Positions per shard: one shard per game at once.
    pub fn shard_size(&self) -> u64 {
        self.positions
            .div_ceil(self.games_at_once.max(1) as u64)
            .max(1)
    }

    /// Shards per generation.
    pub fn shards(&self) -> u64 {
        self.positions.div_ceil(self.shard_size())
    }
}

/// A generation's verdict, `gen-NNNN/result.json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GenResult {
    /// The generation.
    pub generation: u32,
    /// The network that played its games.
    pub model: String,
    /// The trained network's published name (published or not).
    pub candidate: String,
    /// The candidate's wins, draws and losses against `model`.
    pub wdl: [u64; 3],
    /// Whether it became `current`.
    pub promoted: bool,
}

impl GenResult {
    /// The candidate's score in `[0, 1]` (0.5 with no games).
    pub fn score(&self) -> f64 {
        wdl_score(self.wdl)
    }
}

/// The score of wins, draws and losses in `[0, 1]` (0.5 with no games).
pub fn wdl_score([w, d, l]: [u64; 3]) -> f64 {
    let n = w + d + l;
    if n == 0 {
        0.5
    } else {
        (w as f64 + 0.5 * d as f64) / n as f64
    }
}

/// What the loop does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Fix the network of generation `g` (the current one).
    Begin(u32),
    /// Self-play of generation `g` (resumes its shards).
    Generate(u32),
    /// Fine-tune generation `g`'s network on the window (resumes its checkpoint).
    Train(u32),
    /// Export the trained network of generation `g`.
    Export(u32),
    /// Play the gate of generation `g` (resumes its games) and write its verdict.
    Gate(u32),
    /// Every generation is done.
    Done,
}

/// Errors of the run directory.
#[derive(Debug, thiserror::Error)]
pub enum RlError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A file is not what the run wrote.
    #[error("{path}: {message}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> RlError + '_ {
    move |source| RlError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One run directory.
#[derive(Clone, Debug)]
pub struct RunDir {
    root: PathBuf,
}

impl RunDir {
    /// The run in `root` (nothing is read or written yet).
    pub fn new(root: impl Into<PathBuf>) -> RunDir {
        RunDir { root: root.into() }
    }

    /// The run's folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn settings_path(&self) -> PathBuf {
        self.root.join("rl.json")
    }

    /// The folder of published networks.
    pub fn models(&self) -> PathBuf {
        self.root.join("models")
    }

    /// The `current.onnx` symlink.
    pub fn current_link(&self) -> PathBuf {
        self.root.join("current.onnx")
    }

    /// The folder of generation `g`.
    pub fn gen_dir(&self, g: u32) -> PathBuf {
        self.root.join(format!("gen-{g:04}"))
    }

    /// Self-play shards of generation `g`.
    pub fn data_dir(&self, g: u32) -> PathBuf {
        self.gen_dir(g).join("data")
    }

    /// Training folder of generation `g`.
    pub fn train_dir(&self, g: u32) -> PathBuf {
        self.gen_dir(g).join("train")
    }

    /// The trained network of generation `g`.
    pub fn candidate(&self, g: u32) -> PathBuf {
        self.gen_dir(g).join("candidate.onnx")
    }

    /// The gate's arena folder of generation `g`.
    pub fn gate_dir(&self, g: u32) -> PathBuf {
        self.gen_dir(g).join("gate")
    }

    fn result_path(&self, g: u32) -> PathBuf {
        self.gen_dir(g).join("result.json")
    }

    fn model_path(&self, g: u32) -> PathBuf {
        self.gen_dir(g).join("model")
    }

    /// Starts the run with `settings` and the network `initial` (generation 0), or, when the
    /// run exists, returns its stored settings (and ignores the arguments).
    ///
    /// # Errors
    /// I/O errors, a run folder whose `rl.json` does not parse, or a new run without `initial`.
    pub fn init(
        &self,
        settings: &RlSettings,
        initial: Option<&Path>,
    ) -> Result<RlSettings, RlError> {
        let path = self.settings_path();
        if path.exists() {
            let text = std::fs::read_to_string(&path).map_err(io(&path))?;
            return serde_json::from_str(&text).map_err(|e| RlError::Bad {
                path,
                message: e.to_string(),
            });
        }
        let Some(initial) = initial else {
            return Err(RlError::Bad {
                path,
                message: "a new run needs the network of generation 0".into(),
            });
        };
        std::fs::create_dir_all(self.models()).map_err(io(&self.root))?;
        let name = self.publish(initial)?;
        self.set_current(&name)?;
        let text = serde_json::to_string_pretty(settings).unwrap_or_default();
        write_atomically(&path, text.as_bytes()).map_err(io(&path))?;
        Ok(settings.clone())
    }

    /// Copies `file` into `models/` under its content hash (`<sha256>.onnx`) unless it is
    /// there; returns that name.
    ///
    /// # Errors
    /// I/O errors.
    pub fn publish(&self, file: &Path) -> Result<String, RlError> {
        let bytes = std::fs::read(file).map_err(io(file))?;
        let name = format!("{:x}.onnx", Sha256::digest(&bytes));
        let dest = self.models().join(&name);
        if !dest.exists() {
            write_atomically(&dest, &bytes).map_err(io(&dest))?;
        }
        Ok(name)
    }

    /// Points `current.onnx` at `models/<name>` by renaming a new symlink over it.
    ///
    /// # Errors
    /// I/O errors.
    pub fn set_current(&self, name: &str) -> Result<(), RlError> {
        let link = self.current_link();
        let temp = self.root.join("current.onnx.tmp");
        let _ = std::fs::remove_file(&temp);
        let target = Path::new("models").join(name);
        symlink(&target, &temp).map_err(io(&temp))?;
        std::fs::rename(&temp, &link).map_err(io(&link))
    }

    /// The name of the current network (the file `current.onnx` points at).
    ///
    /// # Errors
    /// The link is missing or does not point into `models/`.
    pub fn current(&self) -> Result<String, RlError> {
        let link = self.current_link();
        let target = std::fs::read_link(&link).map_err(io(&link))?;
        target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| RlError::Bad {
                path: link,
                message: "does not name a model".into(),
            })
    }

    /// Fixes generation `g`'s network: the current one, unless it was fixed already.
    ///
    /// # Errors
    /// I/O errors.
    pub fn begin(&self, g: u32) -> Result<String, RlError> {
        let path = self.model_path(g);
        if let Ok(name) = std::fs::read_to_string(&path) {
            return Ok(name.trim().to_string());
        }
        let name = self.current()?;
        std::fs::create_dir_all(self.gen_dir(g)).map_err(io(&path))?;
        write_atomically(&path, name.as_bytes()).map_err(io(&path))?;
        Ok(name)
    }

    /// The network that plays generation `g` (after [`RunDir::begin`]).
    ///
    /// # Errors
    /// The generation has not begun.
    pub fn model_of(&self, g: u32) -> Result<PathBuf, RlError> {
        let path = self.model_path(g);
        let name = std::fs::read_to_string(&path).map_err(io(&path))?;
        Ok(self.models().join(name.trim()))
    }

    /// The verdict of generation `g`, if it is done.
    pub fn result(&self, g: u32) -> Option<GenResult> {
        let text = std::fs::read_to_string(self.result_path(g)).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Records generation `g`'s verdict: publishes the candidate and, if `promoted`, makes it
    /// current; then writes `result.json` (last: the generation is done).
    ///
    /// # Errors
    /// I/O errors.
    pub fn finish(&self, g: u32, wdl: [u64; 3], promoted: bool) -> Result<GenResult, RlError> {
        let candidate = self.publish(&self.candidate(g))?;
        if promoted {
            self.set_current(&candidate)?;
        }
        let model = std::fs::read_to_string(self.model_path(g))
            .map_err(io(&self.model_path(g)))?
            .trim()
            .to_string();
        let r = GenResult {
            generation: g,
            model,
            candidate,
            wdl,
            promoted,
        };
        let path = self.result_path(g);
        let text = serde_json::to_string_pretty(&r).unwrap_or_default();
        write_atomically(&path, text.as_bytes()).map_err(io(&path))?;
        Ok(r)
    }

    /// The hcpe3 shards of the newest `window` generations up to `g`.
    pub fn window_files(&self, g: u32, window: u32) -> Vec<PathBuf> {
        let first = g.saturating_sub(window.max(1) - 1).max(1);
        let mut files = Vec::new();
        for k in first..=g {
            let Ok(entries) = std::fs::read_dir(self.data_dir(k)) else {
                continue;
            };
            let mut here: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "hcpe3"))
                .collect();
            here.sort();
            files.extend(here);
        }
        files
    }

    /// What to do next, from the files present. `data_done(g)` says whether generation `g`'s
    /// self-play has all its shards (the self-play worker knows its shard list).
    pub fn next_stage(&self, settings: &RlSettings, data_done: &dyn Fn(u32) -> bool) -> Stage {
        for g in 1..=settings.generations {
            if self.result(g).is_some() {
                continue;
            }
            if !self.model_path(g).exists() {
                return Stage::Begin(g);
            }
            if !data_done(g) {
                return Stage::Generate(g);
            }
            if self.candidate(g).exists() {
                return Stage::Gate(g);
            }
            let trained = trained_steps(&self.train_dir(g));
            if trained < settings.train_steps {
                return Stage::Train(g);
            }
            return Stage::Export(g);
        }
        Stage::Done
    }

    /// Every generation's verdict so far, in order.
    pub fn results(&self) -> Vec<GenResult> {
        (1..)
            .map_while(|g| self.gen_dir(g).exists().then(|| self.result(g)))
            .flatten()
            .collect()
    }
}

/// The steps a training folder's checkpoint has done (0 without one).
pub fn trained_steps(train_dir: &Path) -> u64 {
    #[derive(serde::Deserialize)]
    struct State {
        step: u64,
    }
    std::fs::read_to_string(train_dir.join("checkpoint").join("state.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<State>(&t).ok())
        .map_or(0, |s| s.step)
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(not(unix))]
fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::fs::write(link, target.to_string_lossy().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("hayate-rl-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn stages_follow_the_files_and_publishing_is_by_content() {
        let root = temp("stages");
        let net0 = root.join("net0.onnx");
        std::fs::write(&net0, b"network zero").unwrap();
        let run = RunDir::new(root.join("run"));
        let settings = RlSettings {
            generations: 2,
            train_steps: 10,
            ..RlSettings::default()
        };
        assert!(
            run.init(&settings, None).is_err(),
            "a new run needs a network"
        );
        assert_eq!(run.init(&settings, Some(&net0)).unwrap(), settings);
        // A second init keeps the stored settings.
        let other = RlSettings {
            generations: 9,
            ..settings.clone()
        };
        assert_eq!(run.init(&other, None).unwrap(), settings);
        let name0 = run.current().unwrap();
        assert_eq!(name0.len(), 64 + 5, "{name0}");
        assert_eq!(
            std::fs::read(run.current_link()).unwrap(),
            b"network zero",
            "the link reads as the network"
        );

        let mut done = false;
        let data_done = |_: u32| done;
        assert_eq!(run.next_stage(&settings, &data_done), Stage::Begin(1));
        assert_eq!(run.begin(1).unwrap(), name0);
        assert_eq!(run.next_stage(&settings, &data_done), Stage::Generate(1));
        done = true;
        let data_done = |_: u32| done;
        assert_eq!(run.next_stage(&settings, &data_done), Stage::Train(1));
        let ckpt = run.train_dir(1).join("checkpoint");
        std::fs::create_dir_all(&ckpt).unwrap();
        std::fs::write(ckpt.join("state.json"), r#"{"step": 4, "x": 1}"#).unwrap();
        assert_eq!(run.next_stage(&settings, &data_done), Stage::Train(1));
        std::fs::write(ckpt.join("state.json"), r#"{"step": 10}"#).unwrap();
        assert_eq!(run.next_stage(&settings, &data_done), Stage::Export(1));
        std::fs::write(run.candidate(1), b"network one").unwrap();
        assert_eq!(run.next_stage(&settings, &data_done), Stage::Gate(1));

        // The current network changes only when the candidate is promoted.
        let r = run.finish(1, [3, 1, 6], false).unwrap();
        assert!(!r.promoted);
        assert_eq!((r.score() * 100.0).round(), 35.0);
        assert_eq!(run.current().unwrap(), name0);
        assert_eq!(run.next_stage(&settings, &data_done), Stage::Begin(2));
        run.begin(2).unwrap();
        std::fs::write(run.candidate(2), b"network one").unwrap();
        let r2 = run.finish(2, [7, 0, 3], true).unwrap();
        assert_eq!(r2.candidate, r.candidate, "same bytes, same name");
        assert_eq!(run.current().unwrap(), r.candidate);
        assert_eq!(std::fs::read(run.current_link()).unwrap(), b"network one");
        assert_eq!(run.next_stage(&settings, &data_done), Stage::Done);
        assert_eq!(run.results().len(), 2);
        // The model of a begun generation stays fixed.
        assert_eq!(run.begin(2).unwrap(), name0);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn the_window_takes_the_newest_generations() {
        let root = temp("window");
        let run = RunDir::new(&root);
        for g in 1..=4 {
            std::fs::create_dir_all(run.data_dir(g)).unwrap();
            std::fs::write(run.data_dir(g).join("shard-000000.hcpe3"), b"x").unwrap();
            std::fs::write(run.data_dir(g).join("shard-000000.games.jsonl"), b"{}").unwrap();
        }
        let files = run.window_files(4, 2);
        assert_eq!(files.len(), 2);
        assert!(files[0].starts_with(run.data_dir(3)));
        assert!(files[1].starts_with(run.data_dir(4)));
        assert_eq!(run.window_files(1, 3).len(), 1);
        let _ = std::fs::remove_dir_all(&root);
    }
}
