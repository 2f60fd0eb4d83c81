//! The search's tunable constants in one place. Each is declared once with its default and
//! the range a tuner may try; the engine takes `setoption name Tune_<name> value <n>` for each
//! (hidden options: `usi` does not list them), so that a tuning run changes them without a
//! rebuild. The defaults are the values the SPRT runs kept.

macro_rules! search_params {
    ($( $(#[doc = $doc:literal])* $name:ident: $default:expr, $min:expr, $max:expr; )*) => {
        /// The search's tunable constants (margins in eval units, depths in plies).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])* pub $name: i32, )*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $( $name: $default, )* }
            }
        }

        impl SearchParams {
            /// Every parameter: name, default, smallest and largest value a tuner may set.
            pub const TABLE: &'static [(&'static str, i32, i32, i32)] =
                &[ $( (stringify!($name), $default, $min, $max), )* ];

            /// The parameter called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            /// Sets the parameter called `name`; false when there is none (ranges are the
            /// caller's: the USI option table checks them).
            pub fn set(&mut self, name: &str, value: i32) -> bool {
                match name {
                    $( stringify!($name) => { self.$name = value; true } )*
                    _ => false,
                }
            }
        }
    };
}

search_params! {
    /// Razoring: margin at depth 0.
    razor_base: 250, 0, 1000;
    /// Razoring: margin added per ply.
    razor_depth: 200, 0, 1000;
    /// Reverse futility: margin per ply (less one ply when improving).
    rfp_margin: 120, 20, 400;
    /// Reverse futility: applies below this depth.
    rfp_max_depth: 8, 1, 16;
    /// Null move: base reduction.
    nmp_base: 3, 1, 6;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_depth_div: 4, 1, 12;
    /// Null move: one more ply per this much eval above beta (at most three).
    nmp_eval_div: 200, 50, 1000;
    /// Singular extensions: from this depth.
    se_min_depth: 6, 4, 12;
    /// Singular extensions: the excluded search's margin below the TT value, per ply.
    se_margin: 1, 1, 8;
    /// Singular extensions: two plies off the PV when this far below the singular beta.
    se_double: 40, 0, 200;
    /// Singular extensions: plies taken off the TT move when it is not singular but its TT
    /// value beats beta.
    se_negative: 1, 0, 3;
    /// Late-move pruning: quiets after `(lmp_base + depth²) / (2 - improving)` moves.
    lmp_base: 3, 0, 10;
    /// Quiets with a continuation history below `-this × depth` are pruned (lmr depth < 4).
    cont_prune: 3000, 500, 10000;
    /// Futility pruning of quiets: margin at lmr depth 0.
    futility_base: 150, 0, 500;
    /// Futility pruning of quiets: this much less margin once a move has raised alpha.
    futility_best_cut: 60, 0, 300;
    /// Futility pruning of quiets: margin per ply of lmr depth.
    futility_depth: 120, 20, 400;
    /// Futility and SEE pruning of quiets: one ply more (less) of lmr depth per this much
    /// continuation history (the last two moves').
    futility_history_div: 2500, 500, 20000;
    /// SEE pruning of quiets: threshold `-this × lmr_depth²`.
    see_quiet: 24, 0, 200;
    /// SEE pruning of captures and checks: threshold `-this × depth`.
    see_noisy: 120, 0, 400;
    /// SEE pruning of captures and checks: below this depth.
    see_noisy_max_depth: 7, 1, 64;
    /// Futility pruning of captures: margin at lmr depth 0 (before the captured piece).
    cap_futility_base: 150, 0, 600;
    /// Futility pruning of captures: margin per ply of lmr depth.
    cap_futility_depth: 120, 20, 500;
    /// LMR table: `(lmr_base + ln d · ln m × 100 / lmr_div) / 100`.
    lmr_div: 220, 100, 400;
    /// LMR table: the rounding offset, in hundredths of a ply.
    lmr_base: 50, 0, 150;
    /// LMR: more reduction at expected cut nodes, in 1/1024 plies.
    lmr_cut: 1024, 0, 4096;
    /// LMR: one ply less per this much quiet history above `lmr_offset` (more below it).
    lmr_history_div: 12000, 2000, 40000;
    /// LMR: re-search one deeper when the reduced result beats the best by this + 2·depth.
    lmr_deeper: 40, 0, 200;
    /// LMR: re-search one shallower when it beats the best by less than this.
    lmr_shallower: 10, 0, 50;
    /// Hindsight: a reduced move's node is searched a ply shallower when its static eval and
    /// the parent's add to more than this (both sides think they are better: a quiet position).
    hindsight_margin: 90, 0, 400;
    /// Aspiration window: first half-width.
    aspiration: 40, 5, 200;
    /// Quiescence: captures that cannot lift the eval to within this of alpha are skipped.
    qs_futility: 200, 0, 600;
    /// History bonus: `min(stat_quad·d² + stat_lin·d, stat_max)`.
    stat_quad: 16, 0, 64;
    /// History bonus: linear term.
    stat_lin: 32, 0, 256;
    /// History bonus: cap.
    stat_max: 2400, 500, 8000;
    /// Quiet ordering: Stockfish's threat terms (leaving or entering a square attacked by a
    /// lesser piece), in percent of its weights (0 leaves them out).
    threat_order: 100, 0, 200;
    /// Quiet ordering: Stockfish's bonus for a direct check that SEE does not lose, in percent
    /// of its 16,384 (0 leaves it out).
    check_order: 100, 0, 200;
    /// After an LMR re-search, the move's continuation histories learn its result (a bonus
    /// when it beat beta, a malus when it stayed at alpha), in percent of the usual bonus
    /// (Stockfish's post-LMR update; 0: none).
    post_lmr: 100, 0, 200;
    /// LMR: the stat score counts this much less, so a quiet with no history is reduced
    /// `lmr_offset / lmr_history_div` plies more (Stockfish's constant).
    lmr_offset: 6000, 0, 20000;
    /// LMR: this much less reduction per unit of correction the static eval got (the
    /// correction history's adjustment: an uncertain eval), in 1/1024 plies.
    lmr_corr: 10, 0, 100;
    /// A move searched at full depth without LMR (a non-PV node's first, a good capture)
    /// loses a ply when the reduction LMR would give it (two plies more without a TT move, two
    /// less for the TT move) exceeds this, in 1/1024 plies (YaneuraOu's 2983; 100000: never).
    full_shallow: 2983, 0, 100000;
    /// Quiet moves scored below `-bad_quiet` are handed out after the losing captures
    /// (Stockfish's bad quiets, his threshold; 0: off).
    bad_quiet: 14000, 0, 100000;
    /// Quiescence, first ply: the quiet checks that SEE does not lose are tried after the
    /// captures (YaneuraOu's `QCHECK` stage; 0: off).
    qs_checks: 1, 0, 1;
    /// Quiescence: the mate-in-1 probe at every ply without a TT entry, not only the first
    /// (YaneuraOu's; 0: first ply only).
    qs_mate_all: 1, 0, 1;
    /// The mate-in-1 probes (main search and quiescence) try only the near checks: drops,
    /// moves next to the king and knight checks, not distant slider or discovered checks
    /// (YaneuraOu's `mate_1ply`; 0: every check).
    mate1_near: 1, 0, 1;
    /// Quiescence in check: quiet evasions tried once an evasion holds (100: all of them;
    /// SEE-losing evasions are skipped either way).
    qs_quiet_evasions: 2, 0, 100;
    /// Quiescence out of check: past this many moves only recaptures on the square the last
    /// move went to and checks are tried (YaneuraOu's and Stockfish's move-count pruning;
    /// 0: off).
    qs_move_count: 2, 0, 64;
}

impl SearchParams {
    /// The LMR table entry for `depth` and `move_count` (both ≥ 1), in 1/1024 plies.
    pub fn reduction_1024(&self, depth: usize, move_count: usize) -> i32 {
        let lnd_lnm = (depth as f64).ln() * (move_count as f64).ln();
        ((f64::from(self.lmr_base) + lnd_lnm * 100.0 * 100.0 / f64::from(self.lmr_div)) / 100.0
            * 1024.0) as i32
    }

    /// How much less LMR reduces a quiet move with history score `stat`, in 1/1024 plies: a
    /// score below `lmr_offset` gives a negative value (more reduction).
    #[inline(always)]
    pub fn stat_reduction_1024(&self, stat: i32) -> i32 {
        (stat - self.lmr_offset) * 1024 / self.lmr_history_div
    }

    /// The history bonus (and malus) of a cutoff at `depth`.
    #[inline(always)]
    pub fn stat_bonus(&self, depth: i32) -> i32 {
        (depth * depth * self.stat_quad + self.stat_lin * depth).min(self.stat_max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        let d = SearchParams::default();
        for &(name, default, min, max) in SearchParams::TABLE {
            assert!(min <= default && default <= max, "{name}");
            assert_eq!(d.get(name), Some(default));
            assert_eq!(
                SearchParams::TABLE.iter().filter(|p| p.0 == name).count(),
                1
            );
        }
    }

    #[test]
    fn parameters_are_set_by_name() {
        let mut p = SearchParams::default();
        assert!(p.set("rfp_margin", 95));
        assert_eq!((p.rfp_margin, p.get("rfp_margin")), (95, Some(95)));
        assert!(!p.set("nothing", 1));
        assert_eq!(p.get("nothing"), None);
    }

    #[test]
    fn a_quiet_without_history_is_reduced_half_a_ply_more() {
        let p = SearchParams::default();
        assert_eq!(p.stat_reduction_1024(0), -512);
        assert_eq!(p.stat_reduction_1024(6000), 0);
        assert_eq!(p.stat_reduction_1024(18_000), 1024);
        let none = SearchParams { lmr_offset: 0, ..p };
        assert_eq!(none.stat_reduction_1024(0), 0);
    }

    #[test]
    fn the_reduction_table_is_the_one_the_search_used() {
        let p = SearchParams::default();
        for d in 1..64usize {
            for m in 1..64usize {
                let before = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.2) as i32;
                let whole = p.reduction_1024(d, m) / 1024;
                assert!((whole - before).abs() <= 1, "depth {d}, move {m}");
                if whole != before {
                    // Only where the float product sits on a whole ply.
                    let x = 0.5 + (d as f64).ln() * (m as f64).ln() / 2.2;
                    assert!((x - x.round()).abs() < 1e-3, "depth {d}, move {m}");
                }
            }
        }
    }
}
