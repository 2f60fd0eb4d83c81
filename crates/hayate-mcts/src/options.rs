//! The DL player's USI options: their declarations (dlshogi's names and defaults) and how each
//! value is read.

use crate::player::MctsPlayer;
use hayate_core::UsiOption;
use hayate_infer::BackendKind;
use hayate_nn::dataset::shuffle::SplitMix64;

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
        ]
    }

    /// Sets one USI option.
    pub(crate) fn set_usi_option(&mut self, name: &str, value: &str) -> Result<(), String> {
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
            "DNN_Threads" => {
                self.dnn_threads = parse_num(name, value, 1, 256)?;
                if self.loaded_for.as_ref().is_some_and(|l| l.1 != "<given>") {
                    self.loaded_for = None;
                }
            }
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
            "Root_Noise_Alpha" => {
                p.root_noise.alpha = parse_num::<u32>(name, value, 1, 100_000)? as f32 / 1000.0
            }
            "Root_Noise_Epsilon" => {
                p.root_noise.epsilon = parse_num::<u32>(name, value, 0, 1000)? as f32 / 1000.0
            }
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
            "NetworkDelay" => self.time.network_delay_ms = parse_num(name, value, 0, u64::MAX)?,
            "Random_Seed" => {
                self.random_seed = parse_num(name, value, 0, u64::MAX)?;
                self.noise_rng = SplitMix64::new(self.random_seed);
                if self.backend_kind == BackendKind::Random {
                    self.loaded_for = None;
                }
            }
            _ => return Err(format!("unknown option {name:?}")),
        }
        Ok(())
    }
}
