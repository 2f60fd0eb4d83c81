//! The engine the binary plays with: an αβ player over the evaluation chosen by `EvalType`
//! (or, with `EvalType dl`, the MCTS player over the ONNX model in `DNN_Model`; with `EvalType
//! hybrid`, both consulted together, the αβ side's evaluation chosen by `Hybrid_AlphaBeta`).
//!
//! Options are declared once, typed ([`UsiOption`]): the host's own (`EvalType`, `EvalDir`,
//! `EvalFile`, `Hybrid_AlphaBeta`), the αβ player's (`hayate_search::Options`), the DL player's
//! and the hybrid's (`hayate_hybrid::Options`). `setoption` only
//! checks a value against that table and records it; the player is built (or given the new
//! values) at `isready`, so a GUI's burst of options costs nothing. When the chosen evaluation
//! cannot be used (a bad `nn.bin`, a bad `DNN_Model`), the host says so at `isready` and at every
//! `go`, and plays with the default evaluation: it never answers with an unsearched move.

use hayate_core::Position;
use hayate_core::player::{BestMove, GameOver, Info, Limits, Player, Signals};
use hayate_core::usi_option::{OptionError, UsiOption, find};
use hayate_eval::{EvalKind, with_eval};
use hayate_hybrid::{AlphaBetaSide, HybridPlayer};
use hayate_mcts::MctsPlayer;
use hayate_search::{AlphaBeta, Options};
use std::path::PathBuf;

/// The evaluations the engine can play with; the first is the default (it needs no file).
/// `dl` is the MCTS player with a policy/value network; `hybrid` is an αβ player and the MCTS
/// player consulted together.
pub const EVAL_TYPES: [&str; 5] = {
    let n = EvalKind::NAMES;
    [n[0], n[1], n[2], "dl", "hybrid"]
};

/// The evaluations the hybrid's αβ side can use (`Hybrid_AlphaBeta`).
pub const HYBRID_AB_EVALS: [&str; 3] = EvalKind::NAMES;

/// The player `EvalType` chooses: the αβ player over an evaluation, the MCTS player (`dl`), or
/// both consulted together (`hybrid`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// The αβ player over this evaluation.
    AlphaBeta(EvalKind),
    /// The MCTS player over `DNN_Model`.
    Dl,
    /// The hybrid; its αβ side's evaluation is `Hybrid_AlphaBeta`.
    Hybrid,
}

impl PlayerKind {
    /// The `EvalType` name (one of [`EVAL_TYPES`]).
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::AlphaBeta(e) => e.name(),
            PlayerKind::Dl => EVAL_TYPES[3],
            PlayerKind::Hybrid => EVAL_TYPES[4],
        }
    }

    /// The kind named `s` (one of [`EVAL_TYPES`], case-insensitive).
    pub fn parse(s: &str) -> Option<PlayerKind> {
        match s.to_ascii_lowercase().as_str() {
            "dl" => Some(PlayerKind::Dl),
            "hybrid" => Some(PlayerKind::Hybrid),
            e => e.parse().ok().map(PlayerKind::AlphaBeta),
        }
    }

    /// Whose options the player built for this kind takes.
    fn owner(self) -> Owner {
        match self {
            PlayerKind::AlphaBeta(_) => Owner::AlphaBeta,
            PlayerKind::Dl => Owner::Dl,
            PlayerKind::Hybrid => Owner::Hybrid,
        }
    }
}

/// What the player is built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalChoice {
    /// `EvalType`.
    pub player: PlayerKind,
    /// `EvalDir`: where `EvalFile` is looked for when it is a bare name.
    pub eval_dir: String,
    /// `EvalFile`: the NNUE file (`nn.bin`).
    pub eval_file: String,
    /// `Hybrid_AlphaBeta`: the evaluation of the hybrid's αβ side.
    pub hybrid_ab: EvalKind,
}

impl Default for EvalChoice {
    fn default() -> Self {
        EvalChoice {
            player: PlayerKind::AlphaBeta(EvalKind::default()),
            eval_dir: "eval".into(),
            eval_file: "nn.bin".into(),
            hybrid_ab: EvalKind::default(),
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

    /// The evaluation of the αβ player built (`Hybrid_AlphaBeta` for the hybrid), if any.
    fn ab_eval(&self) -> Option<EvalKind> {
        match self.player {
            PlayerKind::AlphaBeta(e) => Some(e),
            PlayerKind::Hybrid => Some(self.hybrid_ab),
            PlayerKind::Dl => None,
        }
    }

    /// What the built player depends on: the files matter to `nnue` only.
    fn key(&self) -> (PlayerKind, Option<EvalKind>, Option<PathBuf>) {
        let ab = self.ab_eval();
        let file = ab.filter(|e| e.needs_file()).map(|_| self.nnue_path());
        (self.player, ab, file)
    }
}

/// Which player an option belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    Host,
    AlphaBeta,
    Dl,
    /// The hybrid's own options; a built hybrid also takes the αβ and DL options.
    Hybrid,
}

impl Owner {
    /// Whether a player built for `self` takes the options of `option`.
    fn takes(self, option: Owner) -> bool {
        self == option || (self == Owner::Hybrid && option != Owner::Host)
    }
}

fn owner(name: &str) -> Owner {
    if matches!(
        name,
        "EvalType" | "EvalDir" | "EvalFile" | "Hybrid_AlphaBeta"
    ) {
        Owner::Host
    } else if hayate_hybrid::Options::declares(name) {
        Owner::Hybrid
    } else if find(&Options::default().usi_options(), name).is_some() {
        Owner::AlphaBeta
    } else {
        Owner::Dl
    }
}

/// Every option, declared once: the host's, then the αβ player's, the DL player's and the
/// hybrid's. Building this table builds no player (no table, no file).
pub fn option_table() -> Vec<UsiOption> {
    let d = EvalChoice::default();
    let mut table = vec![
        UsiOption::combo("EvalType", d.player.name(), &EVAL_TYPES),
        UsiOption::string("EvalDir", &d.eval_dir),
        UsiOption::string("EvalFile", &d.eval_file),
        UsiOption::combo("Hybrid_AlphaBeta", d.hybrid_ab.name(), &HYBRID_AB_EVALS),
        UsiOption::check(MATE_GAME_RULES, false),
    ];
    table.extend(Options::default().usi_options());
    let hybrid = hayate_hybrid::Options::default().usi_options();
    for o in MctsPlayer::new().options().into_iter().chain(hybrid) {
        if find(&table, &o.name).is_none() {
            table.push(o);
        }
    }
    table
}

/// `go mate` counts every legal evasion as a defence (the game's rules) when set; by default it
/// follows the tsume-shogi convention, in which a futile interposition drop is no defence.
const MATE_GAME_RULES: &str = "Mate_GameRules";

/// Builds the player for `choice` with the option `values` that belong to it. Returns the
/// player and a warning that does not stop it from playing (e.g. a hash clamped to memory, or
/// a hybrid side that cannot be used).
///
/// # Errors
/// A message when the evaluation cannot be built (a bad NNUE file, a bad model, a hybrid with
/// neither side).
fn build(
    choice: &EvalChoice,
    values: &[(String, String)],
) -> Result<(Box<dyn Player>, Option<String>), String> {
    match choice.player {
        PlayerKind::Dl => {
            let mut p = dl_player(values)?;
            p.prepare().map_err(|e| {
                let model = values.iter().find(|(n, _)| n == "DNN_Model");
                format!(
                    "{e} (DNN_Model {:?})",
                    model.map_or("", |(_, v)| v.as_str())
                )
            })?;
            Ok((Box::new(p), None))
        }
        PlayerKind::Hybrid => build_hybrid(choice, values),
        PlayerKind::AlphaBeta(eval) => {
            let mut p: Box<dyn Player> = alpha_beta(eval, choice, values)?;
            let warning = p.prepare().err();
            Ok((p, warning))
        }
    }
}

/// The MCTS player with the DL options in `values` (its network is loaded by `prepare`).
fn dl_player(values: &[(String, String)]) -> Result<MctsPlayer, String> {
    let mut p = MctsPlayer::new();
    for (n, v) in values.iter().filter(|(n, _)| owner(n) == Owner::Dl) {
        p.set_option(n, v).map_err(|e| e.to_string())?;
    }
    Ok(p)
}

/// The αβ player over evaluation `eval` with the αβ options in `values`.
fn alpha_beta(
    kind: EvalKind,
    choice: &EvalChoice,
    values: &[(String, String)],
) -> Result<Box<dyn AlphaBetaSide>, String> {
    let mut options = Options::default();
    for (n, v) in values.iter().filter(|(n, _)| owner(n) == Owner::AlphaBeta) {
        options.set(n, v).map_err(|e| e.to_string())?;
    }
    let path = choice.nnue_path();
    // The evaluator type is chosen here, once: each arm builds the searcher of its own type.
    let loaded = kind.load(&path).map_err(|e| e.to_string())?;
    Ok(with_eval!(loaded, e => Box::new(AlphaBeta::with_options(e, options))))
}

/// The hybrid: the αβ side over `Hybrid_AlphaBeta` (a bad NNUE file leaves the DL side to
/// play alone) and the DL side, every option but the host's routed by the hybrid.
fn build_hybrid(
    choice: &EvalChoice,
    values: &[(String, String)],
) -> Result<(Box<dyn Player>, Option<String>), String> {
    let ab = alpha_beta(choice.hybrid_ab, choice, values);
    let mut p = HybridPlayer::new(ab, MctsPlayer::new());
    for (n, v) in values.iter().filter(|(n, _)| owner(n) != Owner::Host) {
        p.set_option(n, v).map_err(|e| e.to_string())?;
    }
    let warning = p.prepare().err();
    if !p.has_side() {
        return Err(warning.unwrap_or_else(|| "no side can play".into()));
    }
    Ok((Box::new(p), warning))
}

/// The player in use and what it was built for.
struct Built {
    /// `EvalChoice::key` of the choice it answers.
    key: (PlayerKind, Option<EvalKind>, Option<PathBuf>),
    player: Box<dyn Player>,
    /// The options of this player's kind take effect on it (false for the fallback, whose
    /// kind may differ from the choice's).
    owner: Owner,
    /// Why the chosen evaluation is not the one playing (the fallback's reason).
    error: Option<String>,
}

/// The player the USI loop and the CSA client drive.
pub struct EngineHost {
    table: Vec<UsiOption>,
    choice: EvalChoice,
    /// Every value set so far (canonical names and values), given to each player built.
    values: Vec<(String, String)>,
    /// Values set since the player was built or last prepared.
    pending: Vec<(String, String)>,
    built: Option<Built>,
}

impl EngineHost {
    /// A host with the default evaluation. Nothing heavy happens until `prepare`.
    pub fn new() -> EngineHost {
        EngineHost {
            table: option_table(),
            choice: EvalChoice::default(),
            values: Vec::new(),
            pending: Vec::new(),
            built: None,
        }
    }

    /// The table size for `go mate` in MiB: `USI_Hash` as set, else 256.
    pub fn mate_hash_mb(&self) -> usize {
        self.values
            .iter()
            .rev()
            .find(|(n, _)| n == "USI_Hash")
            .and_then(|(_, v)| v.trim().parse().ok())
            .unwrap_or(256)
    }

    /// The defences `go mate` counts: every legal evasion with `Mate_GameRules`, else all but
    /// futile interposition drops (the tsume-shogi convention).
    pub fn mate_defence(&self) -> hayate_mate::Defence {
        let game_rules = self
            .values
            .iter()
            .rev()
            .find(|(n, _)| n == MATE_GAME_RULES)
            .is_some_and(|(_, v)| v.eq_ignore_ascii_case("true"));
        if game_rules {
            hayate_mate::Defence::AllLegal
        } else {
            hayate_mate::Defence::NoFutileDrops
        }
    }

    /// Builds the player for the current choice, or the default one if that fails. Returns a
    /// warning for `isready`.
    fn rebuild(&mut self) -> Option<String> {
        // Drop the old player first: two large tables need not live at once.
        self.built = None;
        self.pending.clear();
        let key = self.choice.key();
        let chosen_owner = self.choice.player.owner();
        match build(&self.choice, &self.values) {
            Ok((player, warning)) => {
                self.built = Some(Built {
                    key,
                    player,
                    owner: chosen_owner,
                    error: None,
                });
                warning
            }
            Err(e) => {
                let error = format!(
                    "EvalType {} cannot be used: {e}; playing with the default evaluation ({})",
                    self.choice.player.name(),
                    EVAL_TYPES[0]
                );
                match build(&EvalChoice::default(), &self.values) {
                    Ok((player, _)) => {
                        self.built = Some(Built {
                            key,
                            player,
                            owner: Owner::AlphaBeta,
                            error: Some(error.clone()),
                        })
                    }
                    Err(e2) => return Some(format!("{error}; that failed too: {e2}")),
                }
                Some(error)
            }
        }
    }

    /// Makes the player match the options: built for the current choice, pending values
    /// applied. Returns a warning for `isready` (the fallback's reason included).
    fn ensure_ready(&mut self) -> Option<String> {
        let current = self.built.as_ref().is_some_and(|b| {
            // A fallback is retried when options change (e.g. a corrected `DNN_Model`).
            b.key == self.choice.key() && (b.error.is_none() || self.pending.is_empty())
        });
        if !current {
            return self.rebuild();
        }
        let pending = std::mem::take(&mut self.pending);
        let b = self.built.as_mut()?;
        let mut changed = false;
        for (n, v) in pending.iter().filter(|(n, _)| b.owner.takes(owner(n))) {
            if let Err(e) = b.player.set_option(n, v) {
                return Some(e.to_string());
            }
            changed = true;
        }
        let prepared = if changed { b.player.prepare() } else { Ok(()) };
        match prepared {
            Ok(()) => b.error.clone(),
            // The DL player failed to load its (new) model: fall back as at a first build.
            Err(_) if b.owner == Owner::Dl => self.rebuild(),
            Err(e) => Some(e),
        }
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

    fn options(&self) -> Vec<UsiOption> {
        self.table.clone()
    }

    /// Checks the value against the option table and records it: instant, whatever the
    /// option. It takes effect at the next `isready` (or `go`).
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        // `Hash` is what UCI-minded GUIs send.
        let name = if name == "Hash" { "USI_Hash" } else { name };
        let opt = find(&self.table, name).ok_or_else(|| OptionError::Unknown(name.into()))?;
        let value = opt.validate(value)?;
        let name = opt.name.clone();
        match name.as_str() {
            "EvalType" => {
                self.choice.player = PlayerKind::parse(&value).unwrap_or(self.choice.player)
            }
            "EvalDir" => self.choice.eval_dir = value.clone(),
            "EvalFile" => self.choice.eval_file = value.clone(),
            "Hybrid_AlphaBeta" => {
                self.choice.hybrid_ab = value.parse().unwrap_or(self.choice.hybrid_ab)
            }
            _ => {}
        }
        for list in [&mut self.values, &mut self.pending] {
            list.retain(|(n, _)| *n != name);
            list.push((name.clone(), value.clone()));
        }
        Ok(())
    }

    fn prepare(&mut self) -> Result<(), String> {
        match self.ensure_ready() {
            Some(warning) => Err(warning),
            None => Ok(()),
        }
    }

    fn new_game(&mut self) {
        let _ = self.ensure_ready();
        if let Some(b) = self.built.as_mut() {
            b.player.new_game();
        }
    }

    fn game_over(&mut self, result: GameOver) {
        if let Some(b) = self.built.as_mut() {
            b.player.game_over(result);
        }
    }

    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        // A GUI that skipped `isready` still gets the options it set.
        let warning = self.ensure_ready();
        let error = match self.built.as_ref() {
            Some(b) => b.error.clone().or(warning),
            None => Some(warning.unwrap_or_else(|| "no player".into())),
        };
        if let Some(e) = error {
            info(&Info {
                string: Some(format!("error: {e}")),
                ..Info::default()
            });
        }
        match self.built.as_mut() {
            Some(b) => b.player.think(pos, limits, signals, info),
            // Not even the default evaluation could be built (no memory): any legal move beats
            // losing on time.
            None => match pos.legal_moves().iter().next() {
                Some(&m) => BestMove::Move {
                    best: m,
                    ponder: None,
                },
                None => BestMove::Resign,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_keeps_every_option_once() {
        let t = option_table();
        for name in [
            "EvalType",
            "EvalDir",
            "EvalFile",
            "USI_Hash",
            "Threads",
            "MultiPV",
            "USI_Ponder",
            "DrawValue",
            "MaxMovesToDraw",
            "NetworkDelay",
            "MinimumThinkingTime",
            "SlowMover",
            "ResignValue",
            "DNN_Model",
            "DNN_Backend",
            "UCT_Threads",
            "Hybrid_AlphaBeta",
            "Mate_GameRules",
            "Hybrid_MateRule",
            "Hybrid_AbThreshold",
            "Hybrid_VerifyMargin",
            "Hybrid_VerifyDepth",
            "Hybrid_VerifyTime",
            "Hybrid_Info",
        ] {
            assert_eq!(t.iter().filter(|o| o.name == name).count(), 1, "{name}");
        }
        let hash = find(&t, "USI_Hash").expect("declared");
        assert_eq!(hash.default_value(), "256");
        assert_eq!(
            find(&t, "EvalType").map(|o| o.declaration()),
            Some(
                "type combo default kkpee9 var kkpee9 var material var nnue var dl var hybrid"
                    .into()
            )
        );
    }

    #[test]
    fn setoption_checks_and_records_without_building() {
        let mut h = EngineHost::new();
        h.set_option("USI_Hash", "60000").expect("in range");
        h.set_option("Hash", "16").expect("alias");
        assert!(h.set_option("USI_Hash", "65537").is_err());
        assert!(h.set_option("Threads", "many").is_err());
        assert!(h.set_option("EvalType", "frobnicate").is_err());
        assert!(h.set_option("NoSuchOption", "1").is_err());
        h.set_option("EvalType", "Material").expect("combo");
        assert!(h.built.is_none(), "setoption must not build a player");
        assert_eq!(h.choice.player, PlayerKind::AlphaBeta(EvalKind::Material));
        let hash: Vec<_> = h.values.iter().filter(|(n, _)| n == "USI_Hash").collect();
        assert_eq!(hash, [&("USI_Hash".to_string(), "16".to_string())]);
    }

    #[test]
    fn a_bad_nnue_file_falls_back_to_the_default_and_says_so() {
        let mut h = EngineHost::new();
        h.set_option("EvalType", "nnue").expect("ok");
        h.set_option("EvalFile", "/no/such/nn.bin").expect("ok");
        h.set_option("USI_Hash", "1").expect("ok");
        let err = h.prepare().expect_err("the file is missing");
        assert!(
            err.contains("/no/such/nn.bin") && err.contains("kkpee9"),
            "{err}"
        );
        let mut said = Vec::new();
        let best = h.think(
            &Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").expect("sfen"),
            &Limits {
                depth: Some(3),
                ..Limits::default()
            },
            &Signals::new(),
            &mut |i: &Info| said.extend(i.string.clone()),
        );
        // The default evaluation searched: it finds the mate in one, G*5b.
        assert!(matches!(best, BestMove::Move { best, .. } if best.to_usi() == "G*5b"));
        assert!(
            said.iter().any(|s| s.contains("/no/such/nn.bin")),
            "{said:?}"
        );
    }

    #[test]
    fn a_hybrid_with_no_usable_side_falls_back_and_one_side_is_enough() {
        let mut h = EngineHost::new();
        h.set_option("EvalType", "hybrid").expect("ok");
        h.set_option("Hybrid_AlphaBeta", "nnue").expect("ok");
        h.set_option("EvalFile", "/no/such/nn.bin").expect("ok");
        h.set_option("DNN_Model", "/no/such/model.onnx")
            .expect("ok");
        h.set_option("USI_Hash", "1").expect("ok");
        let err = h.prepare().expect_err("neither side can play");
        assert!(
            err.contains("kkpee9") && err.contains("/no/such/nn.bin"),
            "{err}"
        );
        // The αβ side alone is enough: the hybrid is built, says what is missing, and plays.
        h.set_option("Hybrid_AlphaBeta", "kkpee9").expect("ok");
        let err = h.prepare().expect_err("the model is missing");
        assert!(err.contains("αβ side alone"), "{err}");
        let mut said = Vec::new();
        let best = h.think(
            &Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").expect("sfen"),
            &Limits {
                depth: Some(3),
                ..Limits::default()
            },
            &Signals::new(),
            &mut |i: &Info| said.extend(i.string.clone()),
        );
        assert!(matches!(best, BestMove::Move { best, .. } if best.to_usi() == "G*5b"));
        assert!(
            said.iter().any(|s| s.contains("/no/such/model.onnx")),
            "{said:?}"
        );
        assert!(
            said.iter().any(|s| s.starts_with("hybrid: ab G*5b")),
            "{said:?}"
        );
    }
}
