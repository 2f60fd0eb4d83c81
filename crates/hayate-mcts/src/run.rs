//! One timed search over a prepared root, KataGo-style in three parts: the threads (workers,
//! PV-mate threads, the root df-pn), the watch (time, `stop`/`ponderhit`, `info`, the stop
//! rules) and the outcome.

use crate::cache::NnCache;
use crate::node::Node;
use crate::params::SearchParams;
use crate::report::{TreeSize, info_line, top_two_visits};
use crate::search::{RootResult, SearchShared, SharedBackend};
use crate::stop::{Progress, StopRule, any_stops, time_rules};
use hayate_core::player::{Info, Limits, Signals};
use hayate_core::timeman::{TimeOptions, TimePlan, plan};
use hayate_core::{Move, Position};
use hayate_mate::{DfpnOptions, MateResult, solve};
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::thread::Scope;
use std::time::{Duration, Instant};

/// Everything one search needs.
pub struct Run<'a> {
    /// Search constants.
    pub params: &'a SearchParams,
    /// Clock margins.
    pub time: &'a TimeOptions,
    /// Time between `info` lines (zero: none).
    pub pv_interval: Duration,
    /// `Eval_Coef` for scores.
    pub eval_coef: f64,
    /// The root position.
    pub pos: &'a Position,
    /// The root, expanded.
    pub root: &'a Node,
    /// The network.
    pub backend: &'a SharedBackend,
    /// The NN cache.
    pub cache: &'a NnCache,
}

/// What a search leaves behind.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Playouts this search.
    pub playouts: u64,
    /// Nodes in the tree at the end.
    pub nodes: usize,
    /// Nodes in the tree at the start.
    pub reused_nodes: usize,
    /// What is proven about the root.
    pub root_result: RootResult,
    /// The first backend error.
    pub error: Option<String>,
    /// A mate the root df-pn found.
    pub mate_line: Option<Vec<Move>>,
}

impl Run<'_> {
    /// Searches until a limit, a proof, `stop`, or the time plan ends it; `t0` is when `go`
    /// arrived.
    pub fn search(
        &self,
        limits: &Limits,
        signals: &Signals,
        t0: Instant,
        info: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let reused_nodes = self.root.count();
        let shared = SearchShared::new(
            self.params,
            self.root,
            self.pos,
            self.backend,
            self.cache,
            reused_nodes,
            limits.nodes.unwrap_or(u64::MAX),
        );
        let root_mate: Mutex<Option<Vec<Move>>> = Mutex::new(None);
        let checked = crate::pv_mate::Checked::default();
        let clock = Clock::new(limits, self.pos, self.time, t0, self.root.n() as u64);
        std::thread::scope(|s| {
            spawn_workers(s, &shared);
            spawn_pv_mate(s, &shared, &checked);
            if self.params.root_mate {
                spawn_root_mate(s, &shared, &root_mate);
            }
            self.watch(&shared, &root_mate, clock, (limits, signals), info);
            shared.stop.store(true, Ordering::Release);
        });
        let error = shared.error.lock().map(|e| e.clone()).unwrap_or(None);
        Outcome {
            playouts: shared.playouts(),
            nodes: shared.nodes.load(Ordering::Relaxed),
            reused_nodes,
            root_result: shared.root_result(),
            error,
            mate_line: root_mate.into_inner().unwrap_or_else(|p| p.into_inner()),
        }
    }

    /// Polls every millisecond until the search should end.
    fn watch(
        &self,
        shared: &SearchShared<'_>,
        root_mate: &Mutex<Option<Vec<Move>>>,
        mut clock: Clock,
        (limits, signals): (&Limits, &Signals),
        info: &mut dyn FnMut(&Info),
    ) {
        let t0 = clock.start;
        let mut last_info = t0;
        loop {
            std::thread::sleep(Duration::from_millis(1));
            if signals.is_stopped() {
                return;
            }
            if clock.pondering && signals.is_ponderhit() {
                clock.ponderhit(limits, self.pos, self.time);
            }
            let now = Instant::now();
            if !self.pv_interval.is_zero() && now - last_info >= self.pv_interval {
                last_info = now;
                info(&self.info(shared, now - t0));
            }
            let mate_found = root_mate.lock().map(|m| m.is_some()).unwrap_or(false);
            let finished = shared.running.load(Ordering::Acquire) == 0
                || mate_found
                || shared.root_result() != RootResult::Unknown;
            // `go infinite` and pondering wait for `stop` (or `ponderhit`) whatever happens.
            if limits.infinite || clock.pondering {
                if finished {
                    shared.stop.store(true, Ordering::Release);
                }
                continue;
            }
            let progress = Progress {
                elapsed: now - clock.start,
                top_two: top_two_visits(self.root),
                playouts: (self.root.n() as u64).saturating_sub(clock.start_playouts),
                wind_down: shared.wind_down(),
            };
            if finished || any_stops(&clock.rules, &progress) {
                return;
            }
        }
    }

    /// The `info` line for the search so far.
    fn info(&self, shared: &SearchShared<'_>, elapsed: Duration) -> Info {
        let size = TreeSize {
            nodes: shared.nodes.load(Ordering::Relaxed),
            node_limit: self.params.node_limit,
            seldepth: shared.seldepth.load(Ordering::Relaxed),
        };
        info_line(self.root, elapsed, size, self.eval_coef)
    }
}

/// The move's clock: when it started and the rules that end it (none while pondering).
struct Clock {
    pondering: bool,
    start: Instant,
    rules: Vec<Box<dyn StopRule>>,
    /// Root visits when the search started (the rules count this search's playouts).
    start_playouts: u64,
}

impl Clock {
    fn new(
        limits: &Limits,
        pos: &Position,
        time: &TimeOptions,
        t0: Instant,
        start_playouts: u64,
    ) -> Clock {
        let plan = if limits.ponder {
            TimePlan::UNLIMITED
        } else {
            plan(limits, pos.side_to_move(), pos.game_ply(), time)
        };
        Clock {
            pondering: limits.ponder,
            start: t0,
            rules: time_rules(&plan),
            start_playouts,
        }
    }

    /// The opponent played the expected move: the clock starts now.
    fn ponderhit(&mut self, limits: &Limits, pos: &Position, time: &TimeOptions) {
        self.pondering = false;
        self.start = Instant::now();
        self.rules = time_rules(&plan(limits, pos.side_to_move(), pos.game_ply(), time));
    }
}

/// Starts the worker threads (searches on this thread when none can start).
fn spawn_workers<'s>(s: &'s Scope<'s, '_>, shared: &'s SearchShared<'_>) {
    for i in 0..shared.params.threads.max(1) {
        shared.running.fetch_add(1, Ordering::AcqRel);
        let spawned = std::thread::Builder::new()
            .name(format!("mcts-{i}"))
            .spawn_scoped(s, move || shared.worker());
        if spawned.is_err() {
            shared.running.fetch_sub(1, Ordering::AcqRel);
        }
    }
    if shared.running.load(Ordering::Acquire) == 0 {
        shared.running.fetch_add(1, Ordering::AcqRel);
        shared.worker();
    }
}

/// Starts the PV-mate threads; one that cannot start only means fewer proofs.
fn spawn_pv_mate<'s>(
    s: &'s Scope<'s, '_>,
    shared: &'s SearchShared<'_>,
    checked: &'s crate::pv_mate::Checked,
) {
    for i in 0..shared.params.pv_mate_threads {
        let nodes = shared.params.pv_mate_nodes;
        let _ = std::thread::Builder::new()
            .name(format!("mcts-pvmate-{i}"))
            .spawn_scoped(s, move || {
                crate::pv_mate::pv_mate_thread(shared, checked, nodes, 16)
            });
    }
}

/// Starts df-pn on the root; a mate it finds ends the search.
fn spawn_root_mate<'s>(
    s: &'s Scope<'s, '_>,
    shared: &'s SearchShared<'_>,
    root_mate: &'s Mutex<Option<Vec<Move>>>,
) {
    let opts = DfpnOptions {
        max_nodes: Some(shared.params.root_mate_nodes),
        hash_mb: shared.params.root_mate_hash_mb,
        ..DfpnOptions::default()
    };
    // Without the thread the search only misses the root proof.
    let _ = std::thread::Builder::new()
        .name("mcts-dfpn".into())
        .spawn_scoped(s, move || {
            if let MateResult::Mate(line) = solve(shared.root_pos, &opts, &shared.stop) {
                *root_mate.lock().unwrap_or_else(|p| p.into_inner()) = Some(line);
                shared.stop.store(true, Ordering::Release);
            }
        });
}
