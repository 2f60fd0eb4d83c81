//! The DL player's USI options: their declarations (dlshogi's names and defaults), which are
//! also what `setoption` accepts (a value is checked against its declaration before it is
//! read), and how each value is read.

use crate::player::MctsPlayer;
use hayate_core::UsiOption;
use hayate_core::usi_option::{OptionError, find};
use hayate_infer::BackendKind;

impl MctsPlayer {
    /// The USI options of the DL player, with their declarations.
    pub(crate) fn usi_options(&self) -> Vec<UsiOption> {
        let p = &self.params;
        let spin = UsiOption::spin;
        let check = UsiOption::check;
        vec![
            UsiOption::string("DNN_Model", &self.model_path),
            UsiOption::combo("DNN_Backend", "tract", &BackendKind::NAMES),
            spin("DNN_Batch_Size", p.batch_size as i64, 1, 256),
            spin("DNN_Threads", self.dnn_threads as i64, 1, 256),
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
                "Root_Noise_Alpha",
                (p.root_noise.alpha * 1000.0).round() as i64,
                1,
                100_000,
            ),
            spin(
                "Root_Noise_Epsilon",
                (p.root_noise.epsilon * 1000.0).round() as i64,
                0,
                1000,
            ),
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
            // Set by the hybrid (its host declares it with the αβ player's options).
            spin("NetworkDelay", self.time.network_delay_ms as i64, 0, 10000).hidden(),
        ]
    }

    /// Sets one USI option, after checking the value against the option's declaration.
    pub(crate) fn set_usi_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let table = self.usi_options();
        let decl = find(&table, name).ok_or_else(|| OptionError::Unknown(name.into()))?;
        let value = decl.validate(value)?;
        // Validated: a spin is an integer within its range, a check `true` or `false`.
        let int = value.parse::<i64>().unwrap_or_default();
        let (n, on) = (int.max(0) as u64, value == "true");
        let (hundredths, thousandths) = (int as f32 / 100.0, int as f32 / 1000.0);
        let p = &mut self.params;
        match decl.name.as_str() {
            "DNN_Model" => {
                self.model_path = if value == "<empty>" {
                    String::new()
                } else {
                    value
                }
            }
            "DNN_Backend" => {
                self.backend_kind =
                    BackendKind::parse(&value).ok_or_else(|| OptionError::NotAllowed {
                        name: "DNN_Backend".into(),
                        value: value.clone(),
                        allowed: BackendKind::NAMES.iter().map(|n| n.to_string()).collect(),
                    })?;
                if self.loaded_for.as_ref().is_some_and(|l| l.1 == "<given>") {
                    self.loaded_for = None;
                }
            }
            "DNN_Batch_Size" => p.batch_size = n as usize,
            "DNN_Threads" => {
                self.dnn_threads = n as usize;
                if self.loaded_for.as_ref().is_some_and(|l| l.1 != "<given>") {
                    self.loaded_for = None;
                }
            }
            "UCT_Threads" => p.threads = n as usize,
            "UCT_NodeLimit" => p.node_limit = n as usize,
            "NN_Cache_Entries" => self.set_cache_entries(n as usize),
            "Softmax_Temperature" => {
                p.softmax_temperature = hundredths;
                // Cached priors were softmaxed at the old temperature.
                if let Some(c) = &self.cache {
                    c.clear();
                }
                self.tree = None;
            }
            "C_init" => p.puct.c_init = hundredths,
            "C_base" => p.puct.c_base = n as f32,
            "C_fpu_reduction" => p.puct.fpu_reduction = hundredths,
            "C_init_root" => p.puct_root.c_init = hundredths,
            "C_base_root" => p.puct_root.c_base = n as f32,
            "C_fpu_reduction_root" => p.puct_root.fpu_reduction = hundredths,
            "Mate_Root_Search" => p.root_mate = on,
            "Mate_Root_Nodes" => p.root_mate_nodes = n,
            "DfPn_Hash" => p.root_mate_hash_mb = n as usize,
            "Mate_Leaf_Depth" => p.leaf_mate_depth = n as u32,
            "Mate_Leaf_Nodes" => p.leaf_mate_nodes = n,
            "PV_Mate_Search_Threads" => p.pv_mate_threads = n as usize,
            "PV_Mate_Search_Nodes" => p.pv_mate_nodes = n,
            "ReuseSubtree" => p.reuse_subtree = on,
            "Root_Noise_Alpha" => p.root_noise.alpha = thousandths,
            "Root_Noise_Epsilon" => p.root_noise.epsilon = thousandths,
            "Resign_Threshold" => self.set_resign_threshold(f64::from(thousandths)),
            "Draw_Value_Black" => p.draw_value[0] = thousandths,
            "Draw_Value_White" => p.draw_value[1] = thousandths,
            "Draw_Ply" => p.draw_ply = n as u32,
            "Eval_Coef" => self.eval_coef = n as f64,
            "PV_Interval" => self.set_pv_interval_ms(n),
            "Byoyomi_Margin" => self.time.byoyomi_margin_ms = n,
            "Time_Margin" => self.time.time_margin_ms = n,
            "NetworkDelay" => self.time.network_delay_ms = n,
            "Random_Seed" => self.set_random_seed(n),
            other => {
                return Err(OptionError::rejected(
                    other,
                    "declared but not read (a bug)",
                ));
            }
        }
        Ok(())
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
