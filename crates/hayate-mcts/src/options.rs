//! The DL player's USI options: their declarations (dlshogi's names and defaults), which are
//! also what `setoption` accepts (a value is checked against its declaration before it is
//! read), and how each value is read.

use crate::player::MctsPlayer;
use hayate_core::UsiOption;
use hayate_core::usi_option::{Binding, OptionError, declare_all, set_bound};
use hayate_core::{bind_option, check_option, spin_option};
use hayate_infer::BackendKind;

/// A spin option over a float field shown in 1/`scale` units (`C_init` 100 = 1.00).
fn scaled(x: f32, scale: f32) -> i64 {
    (x * scale).round() as i64
}

/// The binding of a float field shown as a spin in 1/`scale` units:
/// `scaled_spin!("C_init", m => m.params.puct.c_init, 100.0, 0, 500)`.
macro_rules! scaled_spin {
    ($name:literal, $m:ident => $place:expr, $scale:expr, $min:expr, $max:expr) => {
        bind_option!(
            |$m| UsiOption::spin($name, scaled($place, $scale), $min, $max),
            |$m, v| $place = v.int() as f32 / $scale
        )
    };
}

/// The DL player's options, each bound to what it sets (dlshogi's names, ranges and scales).
const BOUND: &[Binding<MctsPlayer>] = &[
    bind_option!(|m| UsiOption::string("DNN_Model", &m.model_path), |m, v| {
        m.model_path = if v.text() == "<empty>" {
            String::new()
        } else {
            v.text().to_string()
        }
    }),
    Binding {
        declare: |m| UsiOption::combo("DNN_Backend", m.backend_kind.name(), &BackendKind::NAMES),
        apply: |m, v| {
            m.backend_kind = BackendKind::parse(v.text()).ok_or_else(|| {
                OptionError::rejected("DNN_Backend", format!("{:?} is not built in", v.text()))
            })?;
            if m.loaded_for.as_ref().is_some_and(|l| l.1 == "<given>") {
                m.loaded_for = None;
            }
            Ok(())
        },
    },
    spin_option!("DNN_Batch_Size", m => m.params.batch_size, 1, 256),
    bind_option!(
        |m| UsiOption::spin("DNN_Threads", m.dnn_threads as i64, 1, 256),
        |m, v| {
            m.dnn_threads = v.int() as usize;
            if m.loaded_for.as_ref().is_some_and(|l| l.1 != "<given>") {
                m.loaded_for = None;
            }
        }
    ),
    spin_option!("UCT_Threads", m => m.params.threads, 1, 256),
    spin_option!("UCT_NodeLimit", m => m.params.node_limit, 1000, 1_000_000_000),
    bind_option!(
        |m| UsiOption::spin("NN_Cache_Entries", m.cache_entries as i64, 1, 1 << 28),
        |m, v| m.set_cache_entries(v.int() as usize)
    ),
    bind_option!(
        |m| UsiOption::spin(
            "Softmax_Temperature",
            scaled(m.params.softmax_temperature, 100.0),
            1,
            500
        ),
        |m, v| {
            m.params.softmax_temperature = v.int() as f32 / 100.0;
            // Cached priors were softmaxed at the old temperature.
            if let Some(c) = &m.cache {
                c.clear();
            }
            m.tree = None;
        }
    ),
    scaled_spin!("C_init", m => m.params.puct.c_init, 100.0, 0, 500),
    bind_option!(
        |m| UsiOption::spin("C_base", m.params.puct.c_base as i64, 10000, 100000),
        |m, v| m.params.puct.c_base = v.int() as f32
    ),
    scaled_spin!("C_fpu_reduction", m => m.params.puct.fpu_reduction, 100.0, 0, 100),
    scaled_spin!("C_init_root", m => m.params.puct_root.c_init, 100.0, 0, 500),
    bind_option!(
        |m| UsiOption::spin(
            "C_base_root",
            m.params.puct_root.c_base as i64,
            10000,
            100000
        ),
        |m, v| m.params.puct_root.c_base = v.int() as f32
    ),
    scaled_spin!("C_fpu_reduction_root", m => m.params.puct_root.fpu_reduction, 100.0, 0, 100),
    check_option!("Mate_Root_Search", m => m.params.root_mate),
    spin_option!("Mate_Root_Nodes", m => m.params.root_mate_nodes, 1000, 100_000_000),
    spin_option!("DfPn_Hash", m => m.params.root_mate_hash_mb, 1, 4096),
    spin_option!("Mate_Leaf_Depth", m => m.params.leaf_mate_depth, 0, 15),
    spin_option!("Mate_Leaf_Nodes", m => m.params.leaf_mate_nodes, 1, 10_000_000),
    spin_option!("PV_Mate_Search_Threads", m => m.params.pv_mate_threads, 0, 256),
    spin_option!("PV_Mate_Search_Nodes", m => m.params.pv_mate_nodes, 0, 10_000_000),
    check_option!("ReuseSubtree", m => m.params.reuse_subtree),
    scaled_spin!("Root_Noise_Alpha", m => m.params.root_noise.alpha, 1000.0, 1, 100_000),
    scaled_spin!("Root_Noise_Epsilon", m => m.params.root_noise.epsilon, 1000.0, 0, 1000),
    bind_option!(
        |m| UsiOption::spin(
            "Resign_Threshold",
            (m.resign_threshold * 1000.0).round() as i64,
            0,
            1000
        ),
        |m, v| m.set_resign_threshold(v.int() as f64 / 1000.0)
    ),
    scaled_spin!("Draw_Value_Black", m => m.params.draw_value[0], 1000.0, 0, 1000),
    scaled_spin!("Draw_Value_White", m => m.params.draw_value[1], 1000.0, 0, 1000),
    spin_option!("Draw_Ply", m => m.params.draw_ply, 0, 100000),
    bind_option!(
        |m| UsiOption::spin("Eval_Coef", m.eval_coef as i64, 1, 10000),
        |m, v| m.eval_coef = v.int() as f64
    ),
    bind_option!(
        |m| UsiOption::spin("PV_Interval", m.pv_interval_ms as i64, 0, 100000),
        |m, v| m.set_pv_interval_ms(v.int() as u64)
    ),
    spin_option!("Byoyomi_Margin", m => m.time.byoyomi_margin_ms, 0, 100000),
    spin_option!("Time_Margin", m => m.time.time_margin_ms, 0, 100000),
    bind_option!(
        |m| UsiOption::spin("Random_Seed", m.random_seed as i64, 0, i64::MAX),
        |m, v| m.set_random_seed(v.int() as u64)
    ),
    // Set by the hybrid (its host declares it with the αβ player's options).
    bind_option!(
        |m| UsiOption::spin("NetworkDelay", m.time.network_delay_ms as i64, 0, 10000).hidden(),
        |m, v| m.time.network_delay_ms = v.int() as u64
    ),
];

impl MctsPlayer {
    /// The USI options of the DL player, with their declarations.
    pub(crate) fn usi_options(&self) -> Vec<UsiOption> {
        declare_all(BOUND, self)
    }

    /// Sets one USI option, after checking the value against the option's declaration.
    pub(crate) fn set_usi_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        set_bound(BOUND, self, name, value)
    }
}

#[cfg(test)]
mod tests {
    use crate::player::MctsPlayer;
    use hayate_core::usi_option::OptionKind;

    /// The value a declaration shows for `name` now (its default is the current value).
    fn shown(p: &MctsPlayer, name: &str) -> String {
        let table = p.usi_options();
        let o = table.iter().find(|o| o.name == name).expect("declared");
        o.default_value()
    }

    #[test]
    fn every_option_takes_its_declared_range_and_nothing_beyond() {
        let mut p = MctsPlayer::new();
        let mut spins = 0;
        for o in p.usi_options() {
            match o.kind {
                OptionKind::Spin { min, max, .. } => {
                    spins += 1;
                    for v in [min, max] {
                        p.set_usi_option(&o.name, &v.to_string())
                            .unwrap_or_else(|e| panic!("{}: {e}", o.name));
                        assert_eq!(shown(&p, &o.name), v.to_string(), "{}", o.name);
                    }
                    for v in [min.checked_sub(1), max.checked_add(1)]
                        .into_iter()
                        .flatten()
                    {
                        let e = p.set_usi_option(&o.name, &v.to_string());
                        assert!(e.is_err(), "{} took {v}", o.name);
                    }
                }
                OptionKind::Check { .. } => {
                    for v in ["true", "false"] {
                        p.set_usi_option(&o.name, v).expect("a check value");
                        assert_eq!(shown(&p, &o.name), v, "{}", o.name);
                    }
                    assert!(p.set_usi_option(&o.name, "maybe").is_err());
                }
                _ => {}
            }
        }
        assert!(spins > 25, "{spins} spin options");
        // dlshogi's ranges, which were declared but not enforced: C_init to 5.00, C_base from
        // 10,000.
        assert!(p.set_usi_option("C_init", "100000").is_err());
        assert!(p.set_usi_option("C_base", "1").is_err());
        assert!(p.set_usi_option("No_Such_Option", "1").is_err());
    }
}
