//! The αβ player: options, threads (Lazy SMP), time, and the [`Player`] interface.

use crate::history::History;
use crate::params::SearchParams;
use crate::search::{Clock, RootMove, SearchConfig, Shared, Worker};
use crate::tt::TranspositionTable;
use crate::value::*;
use crate::vote::{ThreadResult, best_thread};
use hayate_core::player::{BestMove, GameOver, Info, Limits, Player, Signals};
use hayate_core::spin_option;
use hayate_core::timeman::{TimeOptions, plan};
use hayate_core::usi_option::{Binding, OptionError, UsiOption, declare_all, find, set_bound};
use hayate_core::{DeclarationRule, Move, Position};
use hayate_eval::Evaluator;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Engine options (USI names in the doc of each field).
#[derive(Clone, Debug)]
pub struct Options {
    /// `USI_Hash`: TT size in MB.
    pub hash_mb: usize,
    /// `Threads`.
    pub threads: usize,
    /// `MultiPV`.
    pub multipv: usize,
    /// `DrawValue`: what a draw is worth to us, in centipawns (pawn = 90).
    pub draw_value: i32,
    /// `MaxMovesToDraw`: the game is drawn when the move number exceeds this (0 = no limit).
    pub max_moves_to_draw: u32,
    /// `NetworkDelay`, `MinimumThinkingTime`, `SlowMover`.
    pub time: TimeOptions,
    /// `ResignValue`: resign when the best score is below minus this (0 = never resign early).
    pub resign_value: i32,
    /// `Tune_<name>` (hidden): the search's tunable constants.
    pub params: SearchParams,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 256,
            threads: 1,
            multipv: 1,
            draw_value: 0,
            max_moves_to_draw: 0,
            time: TimeOptions::default(),
            resign_value: 0,
            params: SearchParams::default(),
        }
    }
}

/// The options other than `Tune_*`, each bound to its field: name, range and field once.
const BOUND: &[Binding<Options>] = &[
    spin_option!("USI_Hash", o => o.hash_mb, 1, 65536),
    spin_option!("Threads", o => o.threads, 1, 256),
    spin_option!("MultiPV", o => o.multipv, 1, 600),
    // Pondering follows `go ponder`: nothing to keep.
    Binding {
        declare: |_| UsiOption::check("USI_Ponder", true),
        apply: |_, _| Ok(()),
    },
    spin_option!("DrawValue", o => o.draw_value, -30000, 30000),
    spin_option!("MaxMovesToDraw", o => o.max_moves_to_draw, 0, 100000),
    spin_option!("NetworkDelay", o => o.time.network_delay_ms, 0, 10000),
    spin_option!("MinimumThinkingTime", o => o.time.minimum_thinking_ms, 0, 100000),
    spin_option!("SlowMover", o => o.time.slow_mover, 1, 1000),
    spin_option!("ResignValue", o => o.resign_value, 0, 32000),
];

/// The USI name prefix of the hidden tuning options (declared in [`SearchParams::TABLE`]).
const TUNE: &str = "Tune_";

impl Options {
    /// The USI options, declared once: names, kinds and ranges, current values as defaults.
    /// `Options::default().usi_options()` lists them without building a player.
    pub fn usi_options(&self) -> Vec<UsiOption> {
        let mut table = declare_all(BOUND, self);
        table.extend(SearchParams::TABLE.iter().map(|&(name, _, min, max)| {
            let v = self.params.get(name).unwrap_or_default();
            UsiOption::spin(&format!("{TUNE}{name}"), v.into(), min.into(), max.into()).hidden()
        }));
        table
    }

    /// Sets one option from its USI text, checked against [`Options::usi_options`]. Cheap:
    /// `USI_Hash` only records the size; the table is resized by [`Player::prepare`].
    ///
    /// # Errors
    /// The option is unknown or the value outside the declaration.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        // `Hash` is what UCI-minded GUIs send.
        let name = if name == "Hash" { "USI_Hash" } else { name };
        let tune = name
            .get(..TUNE.len())
            .filter(|p| p.eq_ignore_ascii_case(TUNE));
        if tune.is_none() {
            return set_bound(BOUND, self, name, value);
        }
        let table = self.usi_options();
        let opt = find(&table, name).ok_or_else(|| OptionError::Unknown(name.into()))?;
        let v: i32 = parse_num(name, &opt.validate(value)?)?;
        self.params.set(&opt.name[TUNE.len()..], v);
        Ok(())
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (resign/win included).
    pub best: BestMove,
    /// Score of the best line.
    pub score: Value,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Completed depth.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// The αβ player over evaluator `E`.
pub struct AlphaBeta<E: Evaluator> {
    eval: Arc<E>,
    tt: TranspositionTable,
    histories: Vec<History>,
    /// A search has written to the table and histories since they were last cleared.
    searched: bool,
    /// Current options.
    pub options: Options,
}

impl<E: Evaluator> AlphaBeta<E> {
    /// A player with default options (256 MB TT, 1 thread).
    pub fn new(eval: E) -> AlphaBeta<E> {
        Self::with_options(eval, Options::default())
    }

    /// A player with the given options.
    pub fn with_options(eval: E, options: Options) -> AlphaBeta<E> {
        AlphaBeta {
            eval: Arc::new(eval),
            tt: TranspositionTable::new(options.hash_mb),
            histories: (0..options.threads.max(1))
                .map(|_| History::new())
                .collect(),
            searched: false,
            options,
        }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Resizes the TT (after `USI_Hash` changes).
    pub fn resize_hash(&mut self, mb: usize) {
        self.options.hash_mb = mb;
        self.tt = TranspositionTable::new(mb);
    }

    /// Clears the TT and histories.
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
        self.searched = false;
    }

    /// Searches `pos` under `limits`.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        self.searched = true;
        let threads = self.options.threads.max(1);
        if self.histories.len() != threads {
            self.histories = (0..threads).map(|_| History::new()).collect();
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return SearchResult {
                best: BestMove::Resign,
                score: mated_in(0),
                pv: vec![],
                depth: 0,
                nodes: 0,
                elapsed: start.elapsed(),
            };
        }
        if pos.can_declare_win(DeclarationRule::Csa27) {
            wait_while_pondering(limits, signals);
            return SearchResult {
                best: BestMove::Win,
                score: mate_in(1),
                pv: vec![],
                depth: 0,
                nodes: 0,
                elapsed: start.elapsed(),
            };
        }
        self.tt.new_search();
        let cfg = SearchConfig {
            multipv: self.options.multipv.max(1),
            draw_value: self.options.draw_value,
            max_moves_to_draw: self.options.max_moves_to_draw,
            depth_limit: limits.depth.map_or(MAX_PLY as i32 - 10, |d| {
                (d as i32).clamp(1, MAX_PLY as i32 - 10)
            }),
            node_limit: limits.nodes.unwrap_or(0),
            params: self.options.params,
        };
        let time_plan = plan(
            limits,
            pos.side_to_move(),
            pos.game_ply(),
            &self.options.time,
        );
        let shared = Shared {
            tt: &self.tt,
            signals,
            abort: AtomicBool::new(false),
            total_nodes: AtomicU64::new(0),
            start,
        };
        let eval: &E = &self.eval;
        let cfg_multipv = cfg.multipv;
        let (main_hist, helper_hists) = self.histories.split_at_mut(1);
        // The first move of the last line shown, to show the played line last (below).
        let mut shown = Move::NONE;
        let mut report_main = |info: &Info| {
            if let Some(&m) = info.pv.first() {
                shown = m;
            }
            report(info);
        };
        let result = std::thread::scope(|s| {
            let shared = &shared;
            let mut handles = Vec::new();
            for (i, h) in helper_hists.iter_mut().enumerate() {
                let p = pos.clone();
                let cfg = cfg.clone();
                let sm = limits.search_moves.clone();
                handles.push(s.spawn(move || {
                    let mut w = Worker::new(i + 1, p, eval, shared, cfg, h, &sm);
                    w.iterate(&mut |_| {});
                    (w.completed_depth, w.root_moves.first().cloned())
                }));
            }
            let mut main = Worker::new(
                0,
                pos.clone(),
                eval,
                shared,
                cfg,
                &mut main_hist[0],
                &limits.search_moves,
            );
            main.clock = Some(Clock {
                plan: time_plan,
                pondering: limits.ponder,
                start,
            });
            main.iterate(&mut report_main);
            // A finished search must not answer before `stop` (infinite) or `ponderhit` (ponder).
            wait_while_pondering(limits, signals);
            shared.abort.store(true, Ordering::Relaxed);
            let mut answers = vec![(main.completed_depth, main.root_moves.first().cloned())];
            answers.extend(handles.into_iter().filter_map(|h| h.join().ok()));
            // Helpers vote only where the answer may vary: one line, no depth limit.
            let vote = cfg_multipv == 1 && limits.depth.is_none();
            let pick = if vote { voted(&answers) } else { 0 };
            (pick, answers.swap_remove(pick))
        });
        let nodes = shared.total_nodes.load(Ordering::Relaxed);
        let (pick, (depth, best)) = result;
        let Some(best) = best else {
            return SearchResult {
                best: BestMove::Resign,
                score: mated_in(0),
                pv: vec![],
                depth: 0,
                nodes,
                elapsed: start.elapsed(),
            };
        };
        let score = best.last_score();
        if score > -INFINITE && (pick > 0 || (cfg_multipv == 1 && !shown.same(best.mv))) {
            // A helper's answer, or a best move found in an unfinished iteration: the played
            // line is the one the GUI should see last.
            let ms = start.elapsed().as_millis() as u64;
            report(&Info {
                depth: Some(depth.max(1) as u32),
                time_ms: Some(ms),
                nodes: Some(nodes),
                nps: Some(nodes * 1000 / ms.max(1)),
                score: Some(to_score(score)),
                pv: best.pv.clone(),
                ..Info::default()
            });
        }
        // `ResignValue`: resign when the best line is worse than minus it (being mated included).
        let resign = self.options.resign_value > 0 && score < -self.options.resign_value;
        let bm = if resign {
            BestMove::Resign
        } else {
            let ponder = best
                .pv
                .get(1)
                .copied()
                .or_else(|| self.ponder_from_tt(pos, best.mv));
            BestMove::Move {
                best: best.mv,
                ponder,
            }
        };
        SearchResult {
            best: bm,
            score,
            pv: best.pv,
            depth,
            nodes,
            elapsed: start.elapsed(),
        }
    }

    fn ponder_from_tt(&self, pos: &Position, best: Move) -> Option<Move> {
        let mut p = pos.clone();
        p.do_move(best);
        let hit = self.tt.probe(p.key())?;
        p.to_move(hit.mv)
    }
}

/// The thread whose answer to play, by [`best_thread`]'s vote over each thread's last
/// completed depth and best root move.
fn voted(answers: &[(i32, Option<RootMove>)]) -> usize {
    let results: Vec<ThreadResult> = answers
        .iter()
        .map(|(depth, rm)| match rm {
            Some(rm) if rm.last_score() > -INFINITE => ThreadResult {
                depth: *depth,
                mv: rm.mv,
                score: rm.last_score(),
            },
            _ => ThreadResult {
                depth: 0,
                mv: Move::NONE,
                score: 0,
            },
        })
        .collect();
    best_thread(&results)
}

fn wait_while_pondering(limits: &Limits, signals: &Signals) {
    while (limits.infinite || (limits.ponder && !signals.is_ponderhit())) && !signals.is_stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn parse_num<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, OptionError> {
    value.trim().parse().map_err(|_| OptionError::NotANumber {
        name: name.to_string(),
        value: value.to_string(),
    })
}

impl<E: Evaluator> Player for AlphaBeta<E> {
    fn name(&self) -> String {
        format!(
            "Hayate {} ({})",
            env!("CARGO_PKG_VERSION"),
            self.eval.name()
        )
    }

    fn options(&self) -> Vec<UsiOption> {
        self.options.usi_options()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        self.options.set(name, value)
    }

    /// Resizes the TT to `USI_Hash` (fallibly: a size that does not fit gets the largest that
    /// does, and an error saying so; the process never aborts).
    fn prepare(&mut self) -> Result<(), String> {
        if self.tt.requested_mb() != self.options.hash_mb {
            // Free the old table first: two large tables need not live at once.
            self.tt = TranspositionTable::new(1);
            self.tt = TranspositionTable::new(self.options.hash_mb);
        }
        // A table that is ready at once is not yet in memory: give the thread bringing its
        // pages in up to a second, so that a table of a few GB is whole before the first search
        // and a larger one mostly is (the rest comes in as the game starts).
        self.tt.settle(std::time::Duration::from_secs(1));
        if self.tt.size_mb() < self.tt.requested_mb() {
            return Err(format!(
                "USI_Hash {} MB does not fit in the memory available; the table has {} MB",
                self.tt.requested_mb(),
                self.tt.size_mb()
            ));
        }
        Ok(())
    }

    /// Clears the tables unless `game_over` already did: a GUI sends `usinewgame`, `position`
    /// and `go` back to back, and a clear here would run on the clock.
    fn new_game(&mut self) {
        if self.searched {
            self.clear();
        }
    }

    /// The tables are cleared now, between games, off any clock (`new_game` then has
    /// nothing to do).
    fn game_over(&mut self, _result: GameOver) {
        self.new_game();
    }

    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        self.search(pos, limits, signals, info).best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate_eval::Material;

    #[test]
    fn a_game_over_clears_the_tables_so_that_the_next_new_game_has_nothing_to_do() {
        let options = Options {
            hash_mb: 1,
            ..Options::default()
        };
        let mut p = AlphaBeta::with_options(Material, options);
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let think = |p: &mut AlphaBeta<Material>| {
            p.search(&Position::startpos(), &limits, &Signals::new(), &mut |_| {});
        };
        think(&mut p);
        assert!(p.searched && p.tt.hashfull() > 0);
        p.game_over(GameOver::Draw);
        assert!(!p.searched);
        assert_eq!(p.tt.hashfull(), 0);
        // A GUI that sends no `gameover`: `usinewgame` clears.
        think(&mut p);
        assert!(p.tt.hashfull() > 0);
        p.new_game();
        assert!(!p.searched);
        assert_eq!(p.tt.hashfull(), 0);
    }
}
