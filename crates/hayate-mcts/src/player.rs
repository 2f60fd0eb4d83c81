//! The MCTS player behind the USI loop, the CSA client and the arena: options, the root checks
//! that need no search, the threads of one search, time management and `info` lines.

use crate::backend::Backend;
use crate::cache::NnCache;
use crate::leaf::{leaf_mate, searched_moves};
use crate::node::NodeState;
use crate::params::SearchParams;
use crate::report::{best_edge, principal_variation, top_two_visits, winrate_to_cp};
use crate::search::{RootResult, SearchShared, SharedBackend, expand_root};
use crate::test_backends::{RandomBackend, UniformBackend};
use crate::timeman::{TimeOptions, TimePlan, plan};
use crate::tract_backend::TractBackend;
use crate::tree::Tree;
use hayate_core::player::{BestMove, Info, Limits, Player, Score, Signals};
use hayate_core::{Move, MoveList, Position, UsiOption};
use hayate_mate::{DfpnOptions, MateResult, OddPlyResult, OddPlySearch, solve};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Which inference backend runs the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    /// tract (pure Rust), the default.
    Tract,
    /// ONNX Runtime through `ort` (only with the `ort` cargo feature).
    Ort,
    /// Uniform priors, even values (no model).
    Uniform,
    /// A seeded random function of the position (no model).
    Random,
}

impl BackendKind {
    /// The USI names, in `DNN_Backend`'s order.
    pub const NAMES: [&'static str; 4] = ["tract", "ort", "uniform", "random"];

    fn parse(s: &str) -> Option<BackendKind> {
        match s.to_ascii_lowercase().as_str() {
            "tract" => Some(BackendKind::Tract),
            "ort" | "onnxruntime" => Some(BackendKind::Ort),
            "uniform" => Some(BackendKind::Uniform),
            "random" => Some(BackendKind::Random),
            _ => None,
        }
    }
}

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
    params: SearchParams,
    time: TimeOptions,
    backend_kind: BackendKind,
    model_path: String,
    random_seed: u64,
    resign_threshold: f64,
    eval_coef: f64,
    pv_interval_ms: u64,
    cache_entries: usize,
    backend: Option<SharedBackend>,
    loaded_for: Option<(BackendKind, String)>,
    cache: Option<Arc<NnCache>>,
    tree: Option<Tree>,
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
            time: TimeOptions::default(),
            backend_kind: BackendKind::Tract,
            model_path: String::new(),
            random_seed: 1,
            resign_threshold: 0.01,
            eval_coef: 756.0,
            pv_interval_ms: 500,
            cache_entries: 1 << 20,
            backend: None,
            loaded_for: None,
            cache: None,
            tree: None,
            report: SearchReport::default(),
        }
    }

    /// A player that uses `backend` (kept whatever `DNN_Backend` says).
    pub fn with_backend(backend: Box<dyn Backend>) -> MctsPlayer {
        let mut p = MctsPlayer::new();
        p.backend = Some(Arc::new(Mutex::new(backend)));
        p.loaded_for = None;
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

    /// The root of the tree kept from the last search, if any.
    pub fn tree_root(&self) -> Option<&crate::node::Node> {
        self.tree.as_ref().map(Tree::root)
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
        let backend: Box<dyn Backend> = match self.backend_kind {
            BackendKind::Uniform => Box::new(UniformBackend),
            BackendKind::Random => Box::new(RandomBackend::new(self.random_seed)),
            BackendKind::Tract => {
                if self.model_path.is_empty() {
                    return Err("DNN_Model is not set".to_string());
                }
                Box::new(
                    TractBackend::load(Path::new(&self.model_path)).map_err(|e| e.to_string())?,
                )
            }
            BackendKind::Ort => {
                #[cfg(feature = "ort")]
                {
                    Box::new(
                        crate::ort_backend::OrtBackend::load(Path::new(&self.model_path))
                            .map_err(|e| e.to_string())?,
                    )
                }
                #[cfg(not(feature = "ort"))]
                {
                    return Err("DNN_Backend ort: this build has no ONNX Runtime support (cargo feature `ort`)".to_string());
                }
            }
        };
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

    fn info_line(
        &self,
        root: &crate::node::Node,
        elapsed: Duration,
        nodes: usize,
        seldepth: u32,
    ) -> Info {
        let pv = principal_variation(root, 64);
        let n = root.n() as u64;
        let ms = elapsed.as_millis() as u64;
        let score = best_edge(root)
            .and_then(|i| root.edges()[i].q())
            .map(|q| Score::Cp(winrate_to_cp(q, self.eval_coef)));
        Info {
            depth: Some(pv.len() as u32),
            seldepth: Some(seldepth.max(pv.len() as u32)),
            time_ms: Some(ms),
            nodes: Some(n),
            nps: Some(n * 1000 / ms.max(1)),
            hashfull: Some(
                (nodes.saturating_mul(1000) / self.params.node_limit.max(1)).min(1000) as u32,
            ),
            score,
            pv,
            ..Info::default()
        }
    }
}

fn parse_num<T>(name: &str, v: &str, min: T, max: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + Copy + std::fmt::Display,
{
    let x: T = v
        .trim()
        .parse()
        .map_err(|_| format!("{name}: not a number: {v:?}"))?;
    if x < min || x > max {
        return Err(format!("{name}: {x} is outside {min}..={max}"));
    }
    Ok(x)
}

fn parse_bool(name: &str, v: &str) -> Result<bool, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{name}: expected true or false, got {v:?}")),
    }
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        format!("Hayate MCTS {}", env!("CARGO_PKG_VERSION"))
    }

    fn options(&self) -> Vec<UsiOption> {
        let p = &self.params;
        let spin = UsiOption::spin;
        let check = UsiOption::check;
        vec![
            UsiOption::string("DNN_Model", &self.model_path),
            UsiOption::combo("DNN_Backend", "tract", &BackendKind::NAMES),
            spin("DNN_Batch_Size", p.batch_size as i64, 1, 256),
            spin("UCT_Threads", p.threads as i64, 1, 256),
            spin("UCT_NodeLimit", p.node_limit as i64, 1000, 1_000_000_000),
            spin("NN_Cache_Entries", self.cache_entries as i64, 1, 1 << 28),
            spin(
                "Softmax_Temperature",
                (p.softmax_temperature * 100.0).round() as i64,
                1,
                500,
            ),
            spin("C_init", (p.puct.c_init * 100.0).round() as i64, 0, 500),
            spin("C_base", p.puct.c_base as i64, 10000, 100000),
            spin(
                "C_fpu_reduction",
                (p.puct.fpu_reduction * 100.0).round() as i64,
                0,
                100,
            ),
            spin(
                "C_init_root",
                (p.puct_root.c_init * 100.0).round() as i64,
                0,
                500,
            ),
            spin("C_base_root", p.puct_root.c_base as i64, 10000, 100000),
            spin(
                "C_fpu_reduction_root",
                (p.puct_root.fpu_reduction * 100.0).round() as i64,
                0,
                100,
            ),
            check("Mate_Root_Search", p.root_mate),
            spin(
                "Mate_Root_Nodes",
                p.root_mate_nodes as i64,
                1000,
                100_000_000,
            ),
            spin("DfPn_Hash", p.root_mate_hash_mb as i64, 1, 4096),
            spin("Mate_Leaf_Depth", p.leaf_mate_depth as i64, 0, 15),
            spin("Mate_Leaf_Nodes", p.leaf_mate_nodes as i64, 1, 10_000_000),
            spin("PV_Mate_Search_Threads", p.pv_mate_threads as i64, 0, 256),
            spin(
                "PV_Mate_Search_Nodes",
                p.pv_mate_nodes as i64,
                0,
                10_000_000,
            ),
            check("ReuseSubtree", p.reuse_subtree),
            spin(
                "Resign_Threshold",
                (self.resign_threshold * 1000.0).round() as i64,
                0,
                1000,
            ),
            spin(
                "Draw_Value_Black",
                (p.draw_value[0] * 1000.0).round() as i64,
                0,
                1000,
            ),
            spin(
                "Draw_Value_White",
                (p.draw_value[1] * 1000.0).round() as i64,
                0,
                1000,
            ),
            spin("Draw_Ply", p.draw_ply as i64, 0, 100000),
            spin("Eval_Coef", self.eval_coef as i64, 1, 10000),
            spin("PV_Interval", self.pv_interval_ms as i64, 0, 100000),
            spin(
                "Byoyomi_Margin",
                self.time.byoyomi_margin_ms as i64,
                0,
                100000,
            ),
            spin("Time_Margin", self.time.time_margin_ms as i64, 0, 100000),
            spin("Random_Seed", self.random_seed as i64, 0, i64::MAX),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let p = &mut self.params;
        let f100 = |v| parse_num::<u32>(name, v, 0, 100_000).map(|x| x as f32 / 100.0);
        match name {
            "DNN_Model" => {
                self.model_path = if value == "<empty>" {
                    String::new()
                } else {
                    value.trim().to_string()
                }
            }
            "DNN_Backend" => {
                self.backend_kind = BackendKind::parse(value).ok_or_else(|| {
                    format!(
                        "DNN_Backend: unknown {value:?} (known: {})",
                        BackendKind::NAMES.join(", ")
                    )
                })?;
                if self.loaded_for.as_ref().is_some_and(|l| l.1 == "<given>") {
                    self.loaded_for = None;
                }
            }
            "DNN_Batch_Size" => p.batch_size = parse_num(name, value, 1, 256)?,
            "UCT_Threads" => p.threads = parse_num(name, value, 1, 256)?,
            "UCT_NodeLimit" => p.node_limit = parse_num(name, value, 1000, 1_000_000_000)?,
            "NN_Cache_Entries" => self.cache_entries = parse_num(name, value, 1, 1 << 28)?,
            "Softmax_Temperature" => {
                p.softmax_temperature = parse_num::<u32>(name, value, 1, 500)? as f32 / 100.0;
                // Cached priors were softmaxed at the old temperature.
                if let Some(c) = &self.cache {
                    c.clear();
                }
                self.tree = None;
            }
            "C_init" => p.puct.c_init = f100(value)?,
            "C_base" => p.puct.c_base = parse_num::<u32>(name, value, 1, 10_000_000)? as f32,
            "C_fpu_reduction" => p.puct.fpu_reduction = f100(value)?,
            "C_init_root" => p.puct_root.c_init = f100(value)?,
            "C_base_root" => {
                p.puct_root.c_base = parse_num::<u32>(name, value, 1, 10_000_000)? as f32
            }
            "C_fpu_reduction_root" => p.puct_root.fpu_reduction = f100(value)?,
            "Mate_Root_Search" => p.root_mate = parse_bool(name, value)?,
            "Mate_Root_Nodes" => p.root_mate_nodes = parse_num(name, value, 1, u64::MAX)?,
            "DfPn_Hash" => p.root_mate_hash_mb = parse_num(name, value, 1, 1 << 20)?,
            "Mate_Leaf_Depth" => p.leaf_mate_depth = parse_num(name, value, 0, 15)?,
            "Mate_Leaf_Nodes" => p.leaf_mate_nodes = parse_num(name, value, 1, u64::MAX)?,
            "PV_Mate_Search_Threads" => p.pv_mate_threads = parse_num(name, value, 0, 256)?,
            "PV_Mate_Search_Nodes" => p.pv_mate_nodes = parse_num(name, value, 0, 100_000_000)?,
            "ReuseSubtree" => p.reuse_subtree = parse_bool(name, value)?,
            "Resign_Threshold" => {
                self.resign_threshold = parse_num::<u32>(name, value, 0, 1000)? as f64 / 1000.0
            }
            "Draw_Value_Black" => {
                p.draw_value[0] = parse_num::<u32>(name, value, 0, 1000)? as f32 / 1000.0
            }
            "Draw_Value_White" => {
                p.draw_value[1] = parse_num::<u32>(name, value, 0, 1000)? as f32 / 1000.0
            }
            "Draw_Ply" => p.draw_ply = parse_num(name, value, 0, u32::MAX)?,
            "Eval_Coef" => self.eval_coef = parse_num::<u32>(name, value, 1, 100_000)? as f64,
            "PV_Interval" => self.pv_interval_ms = parse_num(name, value, 0, u64::MAX)?,
            "Byoyomi_Margin" => self.time.byoyomi_margin_ms = parse_num(name, value, 0, u64::MAX)?,
            "Time_Margin" => self.time.time_margin_ms = parse_num(name, value, 0, u64::MAX)?,
            "Random_Seed" => {
                self.random_seed = parse_num(name, value, 0, u64::MAX)?;
                if self.backend_kind == BackendKind::Random {
                    self.loaded_for = None;
                }
            }
            _ => return Err(format!("unknown option {name:?}")),
        }
        Ok(())
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
                info(&Info {
                    string: Some(format!("error: {e}")),
                    ..Info::default()
                });
                return BestMove::Resign;
            }
        };
        let cache = self.ensure_cache();
        // Answers that need no search (dlshogi's root checks).
        let mut moves = MoveList::new();
        searched_moves(pos, &mut moves);
        if moves.is_empty() {
            self.report.source = "no legal move";
            return BestMove::Resign;
        }
        if pos.can_declare_win(self.params.declaration) {
            self.report.source = "declaration";
            return BestMove::Win;
        }
        let mut root_pos = pos.clone();
        if let Some(m) = leaf_mate(&mut root_pos, &self.params) {
            self.report.source = "root odd-ply mate";
            self.report.proven = Some(true);
            // The search gives the first move only: the shortest depth that still finds a mate
            // is the length to report.
            let plies = (1..=self.params.leaf_mate_depth)
                .step_by(2)
                .find(|&d| {
                    matches!(
                        OddPlySearch::new(self.params.leaf_mate_nodes).search(&mut root_pos, d),
                        OddPlyResult::Mate(_)
                    )
                })
                .unwrap_or(self.params.leaf_mate_depth);
            info(&Info {
                score: Some(Score::Mate(plies as i32)),
                pv: vec![m],
                time_ms: Some(t0.elapsed().as_millis() as u64),
                ..Info::default()
            });
            return BestMove::Move {
                best: m,
                ponder: None,
            };
        }
        // Tree reuse.
        match &mut self.tree {
            Some(t) => {
                t.advance(pos, self.params.reuse_subtree);
            }
            None => self.tree = Some(Tree::new(pos)),
        }
        let Some(tree) = self.tree.as_ref() else {
            return BestMove::Resign;
        };
        if let Err(e) = expand_root(tree.root(), pos, &self.params, &backend, &cache) {
            info(&Info {
                string: Some(format!("error: {e}")),
                ..Info::default()
            });
            self.tree = None;
            return BestMove::Resign;
        }
        let root = tree.root();
        let reused_nodes = root.count();
        let shared = SearchShared::new(
            &self.params,
            root,
            pos,
            &backend,
            &cache,
            reused_nodes,
            limits.nodes.unwrap_or(u64::MAX),
        );
        let root_mate: Mutex<Option<Vec<Move>>> = Mutex::new(None);
        let us = pos.side_to_move();
        let mut pondering = limits.ponder;
        let mut clock = t0;
        let mut time_plan = if pondering {
            TimePlan::UNLIMITED
        } else {
            plan(limits, us, pos.game_ply(), &self.time)
        };
        let dfpn_done = AtomicBool::new(!self.params.root_mate);
        let interval = Duration::from_millis(self.pv_interval_ms);
        let mut last_info = t0;
        let start_playouts = root.n();
        let checked = crate::pv_mate::Checked::default();
        std::thread::scope(|s| {
            for i in 0..self.params.threads.max(1) {
                shared.running.fetch_add(1, Ordering::AcqRel);
                let shared = &shared;
                let spawned = std::thread::Builder::new()
                    .name(format!("mcts-{i}"))
                    .spawn_scoped(s, move || shared.worker());
                if spawned.is_err() {
                    shared.running.fetch_sub(1, Ordering::AcqRel);
                }
            }
            if shared.running.load(Ordering::Acquire) == 0 {
                // No thread could start: search on this one.
                shared.running.fetch_add(1, Ordering::AcqRel);
                shared.worker();
            }
            let checked = &checked;
            for i in 0..self.params.pv_mate_threads {
                let shared = &shared;
                let (nodes, hash) = (self.params.pv_mate_nodes, 16);
                // A PV-mate thread that cannot start only means fewer proofs.
                let _ = std::thread::Builder::new()
                    .name(format!("mcts-pvmate-{i}"))
                    .spawn_scoped(s, move || {
                        crate::pv_mate::pv_mate_thread(shared, checked, nodes, hash)
                    });
            }
            if self.params.root_mate {
                let (shared, root_mate, dfpn_done) = (&shared, &root_mate, &dfpn_done);
                let opts = DfpnOptions {
                    max_nodes: Some(self.params.root_mate_nodes),
                    hash_mb: self.params.root_mate_hash_mb,
                    ..DfpnOptions::default()
                };
                let spawned = std::thread::Builder::new()
                    .name("mcts-dfpn".into())
                    .spawn_scoped(s, move || {
                        if let MateResult::Mate(line) = solve(pos, &opts, &shared.stop) {
                            *root_mate.lock().unwrap_or_else(|p| p.into_inner()) = Some(line);
                            shared.stop.store(true, Ordering::Release);
                        }
                        dfpn_done.store(true, Ordering::Release);
                    });
                if spawned.is_err() {
                    dfpn_done.store(true, Ordering::Release);
                }
            }
            loop {
                std::thread::sleep(Duration::from_millis(1));
                if signals.is_stopped() {
                    break;
                }
                if pondering && signals.is_ponderhit() {
                    pondering = false;
                    clock = Instant::now();
                    time_plan = plan(limits, us, pos.game_ply(), &self.time);
                }
                let now = Instant::now();
                if self.pv_interval_ms > 0 && now - last_info >= interval {
                    last_info = now;
                    info(&self.info_line(
                        root,
                        now - t0,
                        shared.nodes.load(Ordering::Relaxed),
                        shared.seldepth.load(Ordering::Relaxed),
                    ));
                }
                let workers_done = shared.running.load(Ordering::Acquire) == 0;
                let mate_found = root_mate.lock().map(|m| m.is_some()).unwrap_or(false);
                let finished =
                    workers_done || mate_found || shared.root_result() != RootResult::Unknown;
                // `go infinite` and pondering wait for `stop` (or `ponderhit`) whatever happens.
                if limits.infinite || pondering {
                    if finished {
                        shared.stop.store(true, Ordering::Release);
                    }
                    continue;
                }
                if finished {
                    break;
                }
                let elapsed = now - clock;
                if let Some(max) = time_plan.maximum
                    && elapsed >= max
                {
                    break;
                }
                if let Some(opt) = time_plan.optimum
                    && elapsed >= opt
                {
                    let (a, b) = top_two_visits(root);
                    // Close race: keep thinking up to the maximum.
                    if a as f64 >= 1.2 * b as f64 {
                        break;
                    }
                }
                if let Some(max) = time_plan.maximum
                    && elapsed > max / 10
                {
                    // The runner-up cannot catch up in the time left: stop early.
                    let (a, b) = top_two_visits(root);
                    let done = (root.n() - start_playouts.min(root.n())) as f64;
                    let rate = done / elapsed.as_secs_f64().max(1e-3);
                    let left = rate * (max - elapsed).as_secs_f64();
                    if (a - b) as f64 > left && a > 0 {
                        break;
                    }
                }
            }
            shared.stop.store(true, Ordering::Release);
        });
        let elapsed = t0.elapsed();
        let nodes = shared.nodes.load(Ordering::Relaxed);
        let root_result = shared.root_result();
        let error = shared.error.lock().map(|e| e.clone()).unwrap_or(None);
        let playouts = shared.playouts();
        drop(shared);
        self.report = SearchReport {
            playouts,
            nodes,
            reused_nodes,
            elapsed,
            proven: None,
            source: "search",
        };
        if let Some(e) = error {
            info(&Info {
                string: Some(format!("error: {e}")),
                ..Info::default()
            });
        }
        let mate_line = root_mate.into_inner().unwrap_or_else(|p| p.into_inner());
        if let Some(line) = mate_line.filter(|l| !l.is_empty()) {
            self.report.proven = Some(true);
            self.report.source = "root df-pn";
            info(&Info {
                score: Some(Score::Mate(line.len() as i32)),
                pv: line.clone(),
                time_ms: Some(elapsed.as_millis() as u64),
                nodes: Some(root.n() as u64),
                ..Info::default()
            });
            return BestMove::Move {
                best: line[0],
                ponder: line.get(1).copied(),
            };
        }
        let mut last = self.info_line(root, elapsed, nodes, 0);
        match root_result {
            RootResult::Win => {
                self.report.proven = Some(true);
                last.score = Some(Score::Cp(30000));
            }
            RootResult::Loss => {
                self.report.proven = Some(false);
                last.score = Some(Score::Cp(-30000));
            }
            RootResult::Unknown => {}
        }
        info(&last);
        if root_result == RootResult::Loss {
            return BestMove::Resign;
        }
        let Some(i) = best_edge(root) else {
            return BestMove::Resign;
        };
        let edge = &root.edges()[i];
        if root_result != RootResult::Win && edge.q().is_some_and(|q| q < self.resign_threshold) {
            return BestMove::Resign;
        }
        let ponder = edge
            .child()
            .filter(|c| c.state() == NodeState::Expanded)
            .and_then(|c| best_edge(c).map(|j| &c.edges()[j]))
            .filter(|e| e.n() > 0)
            .map(|e| e.mv);
        BestMove::Move {
            best: edge.mv,
            ponder,
        }
    }
}
