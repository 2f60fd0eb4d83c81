//! The engine the binary plays with: an αβ player over the evaluation chosen by `EvalType`
//! (or, with `EvalType dl`, the MCTS player over the ONNX model in `DNN_Model`), wrapped so
//! that changing the evaluation (or its file) rebuilds the player at the next `isready` and
//! keeps every other option.

use hayate_core::Position;
use hayate_core::player::{BestMove, Info, Limits, Player, Signals};
use hayate_eval::{Kkpee9, Material, Nnue};
use hayate_mcts::MctsPlayer;
use hayate_search::AlphaBeta;
use std::path::PathBuf;

/// The evaluations the engine can play with; the first is the default (it needs no file).
/// `dl` is the MCTS player with a policy/value network.
pub const EVAL_TYPES: [&str; 4] = ["kkpee9", "material", "nnue", "dl"];

/// What the player is built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalChoice {
    /// One of [`EVAL_TYPES`].
    pub eval_type: String,
    /// `EvalDir`: where `EvalFile` is looked for when it is a bare name.
    pub eval_dir: String,
    /// `EvalFile`: the NNUE file (`nn.bin`).
    pub eval_file: String,
}

impl Default for EvalChoice {
    fn default() -> Self {
        EvalChoice {
            eval_type: EVAL_TYPES[0].into(),
            eval_dir: "eval".into(),
            eval_file: "nn.bin".into(),
        }
    }
}

impl EvalChoice {
    /// The NNUE file: `EvalFile` itself when it names a path, else `EvalDir/EvalFile`.
    pub fn nnue_path(&self) -> PathBuf {
        let f = PathBuf::from(&self.eval_file);
        if f.is_absolute() || self.eval_file.contains('/') {
            f
        } else {
            PathBuf::from(&self.eval_dir).join(f)
        }
    }
}

/// Builds the αβ player for an evaluation.
///
/// # Errors
/// A message when the name is unknown or the evaluation cannot be built (e.g. a bad NNUE file).
pub fn make_alpha_beta(choice: &EvalChoice) -> Result<Box<dyn Player>, String> {
    match choice.eval_type.as_str() {
        "material" => Ok(Box::new(AlphaBeta::new(Material))),
        "kkpee9" => Ok(Box::new(AlphaBeta::new(Kkpee9::new()))),
        "nnue" => {
            let net = Nnue::load(choice.nnue_path()).map_err(|e| e.to_string())?;
            Ok(Box::new(AlphaBeta::new(net)))
        }
        "dl" => Ok(Box::new(MctsPlayer::new())),
        other => Err(format!(
            "unknown EvalType {other:?} (known: {})",
            EVAL_TYPES.join(", ")
        )),
    }
}

/// The player the USI loop and the CSA client drive.
pub struct EngineHost {
    choice: EvalChoice,
    built_for: Option<EvalChoice>,
    inner: Option<Box<dyn Player>>,
    /// Search options set so far, replayed when the player is rebuilt.
    options: Vec<(String, String)>,
}

impl EngineHost {
    /// A host with the default evaluation. Nothing heavy happens until `prepare`.
    pub fn new() -> EngineHost {
        EngineHost {
            choice: EvalChoice::default(),
            built_for: None,
            inner: None,
            options: Vec::new(),
        }
    }

    /// The table size for `go mate` in MiB: `USI_Hash` as set, else 256.
    pub fn mate_hash_mb(&self) -> usize {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == "USI_Hash" || n == "Hash")
            .and_then(|(_, v)| v.trim().parse().ok())
            .unwrap_or(256)
    }

    fn ensure_built(&mut self) -> Result<&mut Box<dyn Player>, String> {
        if self.built_for.as_ref() != Some(&self.choice) || self.inner.is_none() {
            // Drop the old player first: two 300 MB tables need not live at once.
            self.inner = None;
            self.built_for = None;
            let mut p = make_alpha_beta(&self.choice)?;
            // Options belong to the αβ player or to the DL player; each takes its own.
            let own: Vec<String> = p.options().into_iter().map(|(n, _)| n).collect();
            for (n, v) in &self.options {
                if own.iter().any(|o| o == n) {
                    p.set_option(n, v)?;
                }
            }
            self.inner = Some(p);
            self.built_for = Some(self.choice.clone());
        }
        self.inner.as_mut().ok_or_else(|| "no player".to_string())
    }
}

impl Default for EngineHost {
    fn default() -> Self {
        Self::new()
    }
}

impl Player for EngineHost {
    fn name(&self) -> String {
        format!("Hayate {}", env!("CARGO_PKG_VERSION"))
    }

    fn options(&self) -> Vec<(String, String)> {
        let vars: Vec<String> = EVAL_TYPES.iter().map(|e| format!("var {e}")).collect();
        let mut v = vec![
            (
                "EvalType".to_string(),
                format!("combo default {} {}", EVAL_TYPES[0], vars.join(" ")),
            ),
            (
                "EvalDir".to_string(),
                format!("string default {}", EvalChoice::default().eval_dir),
            ),
            (
                "EvalFile".to_string(),
                format!("string default {}", EvalChoice::default().eval_file),
            ),
        ];
        // The αβ options are the same for every evaluation: declare a cheap player's; then
        // the DL player's own.
        v.extend(AlphaBeta::new(Material).options());
        for (n, d) in MctsPlayer::new().options() {
            if !v.iter().any(|(name, _)| *name == n) {
                v.push((n, d));
            }
        }
        v
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "EvalType" => {
                if !EVAL_TYPES.contains(&value) {
                    return Err(format!(
                        "unknown EvalType {value:?} (known: {})",
                        EVAL_TYPES.join(", ")
                    ));
                }
                self.choice.eval_type = value.to_string();
                return Ok(());
            }
            "EvalDir" => {
                self.choice.eval_dir = value.to_string();
                return Ok(());
            }
            "EvalFile" => {
                self.choice.eval_file = value.to_string();
                return Ok(());
            }
            _ => {}
        }
        // Validate against the player that owns the option: the built one if it does, else a
        // fresh αβ or DL player (cheap: nothing is loaded before `prepare`).
        let built_owns = self
            .inner
            .as_ref()
            .is_some_and(|p| p.options().iter().any(|(n, _)| n == name));
        match self.inner.as_mut() {
            Some(p) if built_owns => p.set_option(name, value)?,
            _ => {
                let ab = AlphaBeta::new(Material);
                if ab.options().iter().any(|(n, _)| n == name) {
                    AlphaBeta::new(Material).set_option(name, value)?;
                } else {
                    MctsPlayer::new().set_option(name, value)?;
                }
            }
        }
        self.options.retain(|(n, _)| n != name);
        self.options.push((name.to_string(), value.to_string()));
        Ok(())
    }

    fn prepare(&mut self) -> Result<(), String> {
        self.ensure_built()?.prepare()
    }

    fn new_game(&mut self) {
        if let Ok(p) = self.ensure_built() {
            p.new_game();
        }
    }

    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        match self.ensure_built() {
            Ok(p) => p.think(pos, limits, signals, info),
            Err(e) => {
                info(&Info {
                    string: Some(format!("error: {e}")),
                    ..Info::default()
                });
                // Without a player, any legal move beats losing on time.
                match pos.legal_moves().iter().next() {
                    Some(&m) => BestMove::Move {
                        best: m,
                        ponder: None,
                    },
                    None => BestMove::Resign,
                }
            }
        }
    }
}
