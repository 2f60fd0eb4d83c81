//! The MCTS player behind the USI loop, the CSA client and the arena: the network and the tree
//! it keeps between moves, and `think` in four steps (root shortcuts, the tree, the search in
//! [`crate::run`], the answer in [`crate::answer`]). Its USI options are in `options.rs`.

use crate::answer::answer;
use crate::cache::NnCache;
use crate::params::SearchParams;
use crate::report::TreeSize;
use crate::root::root_shortcut;
use crate::run::Run;
use crate::search::{SharedBackend, expand_root};
use crate::tree::Tree;
use hayate_core::player::{BestMove, Info, Limits, Player, Signals};
use hayate_core::timeman::TimeOptions;
use hayate_core::usi_option::OptionError;
use hayate_core::{Position, UsiOption};
use hayate_infer::kind::LoadOptions;
use hayate_infer::{Backend, BackendKind};
use hayate_nn::dataset::shuffle::SplitMix64;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the last search did (for tests, benches and logs).
#[derive(Clone, Debug, Default)]
pub struct SearchReport {
    /// Playouts this search (backed-up descents).
    pub playouts: u64,
    /// Nodes in the tree at the end.
    pub nodes: usize,
    /// Nodes in the tree at the start (kept from the previous search).
    pub reused_nodes: usize,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// Whether the root was proven won or lost, or a root mate was found.
    pub proven: Option<bool>,
    /// Where the move came from.
    pub source: &'static str,
}

/// The PUCT player.
pub struct MctsPlayer {
    pub(crate) params: SearchParams,
    pub(crate) time: TimeOptions,
    pub(crate) backend_kind: BackendKind,
    pub(crate) model_path: String,
    pub(crate) random_seed: u64,
    /// CPU threads one network call may use (`DNN_Threads`).
    pub(crate) dnn_threads: usize,
    pub(crate) resign_threshold: f64,
    pub(crate) eval_coef: f64,
    pub(crate) pv_interval_ms: u64,
    pub(crate) cache_entries: usize,
    backend: Option<SharedBackend>,
    pub(crate) loaded_for: Option<(BackendKind, String)>,
    /// The backend's name, until an `info string` has said which one runs.
    announce: Option<String>,
    pub(crate) cache: Option<Arc<NnCache>>,
    pub(crate) tree: Option<Tree>,
    /// The generator of the root noise (reseeded by `Random_Seed`).
    pub(crate) noise_rng: SplitMix64,
    report: SearchReport,
}

impl Default for MctsPlayer {
    fn default() -> Self {
        MctsPlayer::new()
    }
}

impl MctsPlayer {
    /// A player with dlshogi's defaults and the tract backend; set `DNN_Model` before use.
    pub fn new() -> MctsPlayer {
        MctsPlayer {
            params: SearchParams::default(),
            // dlshogi keeps a second back from the main time; a batch in flight at the
            // deadline needs a quarter of a short byoyomi.
            time: TimeOptions {
                time_margin_ms: 1000,
                short_deadline_share: 4,
                ..TimeOptions::default()
            },
            backend_kind: BackendKind::Tract,
            model_path: String::new(),
            random_seed: 1,
            dnn_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            resign_threshold: 0.01,
            eval_coef: 756.0,
            pv_interval_ms: 500,
            cache_entries: 1 << 20,
            backend: None,
            loaded_for: None,
            announce: None,
            cache: None,
            tree: None,
            noise_rng: SplitMix64::new(1),
            report: SearchReport::default(),
        }
    }

    /// A player that uses `backend` (kept whatever `DNN_Backend` says).
    pub fn with_backend(backend: Box<dyn Backend>) -> MctsPlayer {
        let mut p = MctsPlayer::new();
        p.announce = Some(backend.name());
        p.backend = Some(Arc::new(Mutex::new(backend)));
        p.backend_kind = BackendKind::Uniform;
        p.loaded_for = Some((BackendKind::Uniform, "<given>".to_string()));
        p
    }

    /// The search constants.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// The search constants, to change directly (tests, tools).
    pub fn params_mut(&mut self) -> &mut SearchParams {
        &mut self.params
    }

    /// Seeds the root noise (`Random_Seed`); a random backend is drawn again from it.
    pub fn set_random_seed(&mut self, seed: u64) {
        self.random_seed = seed;
        self.noise_rng = SplitMix64::new(seed);
        if self.backend_kind == BackendKind::Random {
            self.loaded_for = None;
        }
    }

    /// Resigns when the root's value falls below `threshold` (`Resign_Threshold` / 1000; 0
    /// never resigns).
    pub fn set_resign_threshold(&mut self, threshold: f64) {
        self.resign_threshold = threshold;
    }

    /// Entries of the NN cache (`NN_Cache_Entries`), made at the next `prepare`.
    pub fn set_cache_entries(&mut self, entries: usize) {
        self.cache_entries = entries;
    }

    /// Milliseconds between `info` lines during a search (`PV_Interval`; 0: none).
    pub fn set_pv_interval_ms(&mut self, ms: u64) {
        self.pv_interval_ms = ms;
    }

    /// The root of the tree kept from the last search, if any.
    pub fn tree_root(&self) -> Option<&crate::node::Node> {
        self.tree.as_ref().map(Tree::root)
    }

    /// What the last search found at its root: each move searched with its visits (unvisited
    /// moves left out), and the root's mean value for its side to move. `None` when the last
    /// `think` answered without a search (a root mate, a declaration, a single move, an error).
    pub fn root_visits(&self) -> Option<(Vec<(hayate_core::Move, u32)>, f64)> {
        if self.report.playouts == 0 {
            return None;
        }
        let root = self.tree_root()?;
        let visits = root
            .edges()
            .iter()
            .filter(|e| e.n() > 0)
            .map(|e| (e.mv, e.n()))
            .collect();
        let n = root.n();
        let value = if n == 0 {
            0.5
        } else {
            root.win.get() / f64::from(n)
        };
        Some((visits, value))
    }

    /// Forgets the network answers kept in the NN cache (benchmarks that must not hit it).
    pub fn clear_cache(&mut self) {
        if let Some(c) = &self.cache {
            c.clear();
        }
    }

    /// What the last search did.
    pub fn last_report(&self) -> &SearchReport {
        &self.report
    }

    fn ensure_backend(&mut self) -> Result<SharedBackend, String> {
        let want = (self.backend_kind, self.model_path.clone());
        if let (Some(b), Some(l)) = (&self.backend, &self.loaded_for)
            && (*l == want || l.1 == "<given>")
        {
            return Ok(b.clone());
        }
        let opts = LoadOptions {
            model: &self.model_path,
            seed: self.random_seed,
            threads: self.dnn_threads,
        };
        let backend = hayate_infer::load(self.backend_kind, &opts).map_err(|e| e.to_string())?;
        self.announce = Some(backend.name());
        let shared: SharedBackend = Arc::new(Mutex::new(backend));
        self.backend = Some(shared.clone());
        self.loaded_for = Some(want);
        // Answers of another network are wrong for this one.
        if let Some(c) = &self.cache {
            c.clear();
        }
        self.tree = None;
        Ok(shared)
    }

    fn ensure_cache(&mut self) -> Arc<NnCache> {
        match &self.cache {
            Some(c) if c.capacity() >= self.cache_entries.max(1) => c.clone(),
            _ => {
                let c = Arc::new(NnCache::new(self.cache_entries));
                self.cache = Some(c.clone());
                c
            }
        }
    }

    /// The root of the search: the kept subtree of the moves played since, or a new tree,
    /// expanded by the network.
    fn prepare_tree(
        &mut self,
        pos: &Position,
        backend: &SharedBackend,
        cache: &NnCache,
    ) -> Result<(), String> {
        let tree = match &mut self.tree {
            Some(t) => {
                t.advance(pos, self.params.reuse_subtree);
                t
            }
            None => self.tree.insert(Tree::new(pos)),
        };
        let expanded = expand_root(tree.root(), pos, &self.params, backend, cache);
        if expanded.is_err() {
            self.tree = None;
        } else if self.params.root_noise.epsilon > 0.0 {
            let edges = tree.root_mut().edges_mut();
            crate::noise::mix(edges, self.params.root_noise, &mut self.noise_rng);
        }
        expanded
    }
}

/// An `info string` line.
fn say(info: &mut dyn FnMut(&Info), text: String) {
    info(&Info {
        string: Some(text),
        ..Info::default()
    });
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        format!("Hayate MCTS {}", env!("CARGO_PKG_VERSION"))
    }

    fn options(&self) -> Vec<UsiOption> {
        self.usi_options()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        self.set_usi_option(name, value)
    }

    fn prepare(&mut self) -> Result<(), String> {
        self.ensure_backend()?;
        self.ensure_cache();
        Ok(())
    }

    fn new_game(&mut self) {
        self.tree = None;
    }

    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        let t0 = Instant::now();
        self.report = SearchReport::default();
        let backend = match self.ensure_backend() {
            Ok(b) => b,
            Err(e) => {
                say(info, format!("error: {e}"));
                return BestMove::Resign;
            }
        };
        if let Some(name) = self.announce.take() {
            say(info, format!("backend {name}"));
        }
        let cache = self.ensure_cache();
        if let Some(s) = root_shortcut(pos, &self.params, t0, info) {
            self.report.source = s.source;
            self.report.proven = s.proven;
            return s.best;
        }
        if let Err(e) = self.prepare_tree(pos, &backend, &cache) {
            say(info, format!("error: {e}"));
            return BestMove::Resign;
        }
        let Some(root) = self.tree.as_ref().map(Tree::root) else {
            return BestMove::Resign;
        };
        let run = Run {
            params: &self.params,
            time: &self.time,
            pv_interval: Duration::from_millis(self.pv_interval_ms),
            eval_coef: self.eval_coef,
            pos,
            root,
            backend: &backend,
            cache: &cache,
        };
        let outcome = run.search(limits, signals, t0, info);
        let elapsed = t0.elapsed();
        let size = TreeSize {
            nodes: outcome.nodes,
            node_limit: self.params.node_limit,
            seldepth: 0,
        };
        let a = answer(
            root,
            &outcome,
            (elapsed, size, self.eval_coef),
            self.resign_threshold,
            info,
        );
        self.report = SearchReport {
            playouts: outcome.playouts,
            nodes: outcome.nodes,
            reused_nodes: outcome.reused_nodes,
            elapsed,
            proven: a.proven,
            source: a.source,
        };
        a.best
    }
}
