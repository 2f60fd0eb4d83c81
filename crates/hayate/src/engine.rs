//! The engine the binary plays with: an αβ player over the evaluation chosen by `EvalType`,
//! wrapped so that changing the evaluation rebuilds the player and keeps the other options.

use hayate_core::Position;
use hayate_core::player::{BestMove, Info, Limits, Player, Signals};
use hayate_eval::{Kkpee9, Material};
use hayate_search::AlphaBeta;

/// The evaluations the engine can play with; the first is the default (needs no file).
pub const EVAL_TYPES: [&str; 2] = ["kkpee9", "material"];

/// Builds the αβ player for an evaluation name.
///
/// # Errors
/// A message when the name is unknown or the evaluation cannot be built.
pub fn make_alpha_beta(eval_type: &str) -> Result<Box<dyn Player>, String> {
    match eval_type {
        "material" => Ok(Box::new(AlphaBeta::new(Material))),
        "kkpee9" => Ok(Box::new(AlphaBeta::new(Kkpee9::new()))),
        other => Err(format!(
            "unknown EvalType {other:?} (known: {})",
            EVAL_TYPES.join(", ")
        )),
    }
}

/// The player the USI loop and the CSA client drive.
pub struct EngineHost {
    eval_type: String,
    built_for: Option<String>,
    inner: Option<Box<dyn Player>>,
    /// Options set so far, replayed when the player is rebuilt.
    options: Vec<(String, String)>,
}

impl EngineHost {
    /// A host with the default evaluation. Nothing heavy happens until `prepare`.
    pub fn new() -> EngineHost {
        EngineHost {
            eval_type: EVAL_TYPES[0].to_string(),
            built_for: None,
            inner: None,
            options: Vec::new(),
        }
    }

    fn ensure_built(&mut self) -> Result<&mut Box<dyn Player>, String> {
        if self.built_for.as_deref() != Some(&self.eval_type) || self.inner.is_none() {
            let mut p = make_alpha_beta(&self.eval_type)?;
            for (n, v) in &self.options {
                p.set_option(n, v)?;
            }
            self.inner = Some(p);
            self.built_for = Some(self.eval_type.clone());
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
        let mut v = vec![(
            "EvalType".to_string(),
            format!(
                "combo default {} {}",
                EVAL_TYPES[0],
                EVAL_TYPES
                    .iter()
                    .map(|e| format!("var {e}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        )];
        // The option set is the same for every evaluation: declare the default player's.
        if let Ok(p) = make_alpha_beta("material") {
            v.extend(p.options());
        }
        v
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name == "EvalType" {
            if !EVAL_TYPES.contains(&value) {
                return Err(format!(
                    "unknown EvalType {value:?} (known: {})",
                    EVAL_TYPES.join(", ")
                ));
            }
            self.eval_type = value.to_string();
            return Ok(());
        }
        // Validate against a player (the built one, or a cheap material one).
        match self.inner.as_mut() {
            Some(p) => p.set_option(name, value)?,
            None => make_alpha_beta("material")?.set_option(name, value)?,
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
