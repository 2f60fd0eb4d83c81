//! Search constants, with dlshogi's USI defaults (`reference/deep-learning.md` §1.7, §1.11).

use crate::noise::RootNoise;
use hayate_core::DeclarationRule;

/// The PUCT exploration constants of one kind of node (root or not).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puct {
    /// `c_init` of `c = ln((N + c_base + 1) / c_base) + c_init`.
    pub c_init: f32,
    /// `c_base`.
    pub c_base: f32,
    /// First-play urgency reduction: an unvisited child scores the parent's mean value less
    /// `fpu_reduction * sqrt(sum of the priors already visited)`.
    pub fpu_reduction: f32,
}

impl Puct {
    /// The exploration factor at a node visited `n` times.
    #[inline]
    pub fn c(&self, n: u32) -> f32 {
        ((n as f32 + self.c_base + 1.0) / self.c_base).ln() + self.c_init
    }
}

/// Everything that shapes the tree search.
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// Constants below the root (`C_init` 144, `C_base` 28288, `C_fpu_reduction` 27).
    pub puct: Puct,
    /// Constants at the root (`C_init_root` 116, `C_base_root` 25617, `C_fpu_reduction_root` 0).
    pub puct_root: Puct,
    /// Softmax temperature over the legal moves' logits (`Softmax_Temperature` 174 → 1.74).
    pub softmax_temperature: f32,
    /// Search threads (`UCT_Threads`).
    pub threads: usize,
    /// Positions per network call (`DNN_Batch_Size`).
    pub batch_size: usize,
    /// Most tree nodes kept (`UCT_NodeLimit`); the search stops when the tree reaches it. An
    /// expanded node costs about 40 bytes per legal move (~3 KB in a middle game), so the
    /// default of 1,000,000 (dlshogi: 10,000,000 on machines with far more memory) stays
    /// within a few GB; on CPU inference it is about an hour of search.
    pub node_limit: usize,
    /// Value of a draw for the player who moved into it, by that player's colour
    /// (`Draw_Value_Black`, `Draw_Value_White`, 0.5 by default).
    pub draw_value: [f32; 2],
    /// Game ply past which positions are draws; 0 = off (`Draw_Ply`).
    pub draw_ply: u32,
    /// Plies looked back for a repetition inside the tree (dlshogi: 16).
    pub repetition_plies: usize,
    /// Depth of the odd-ply mate search at each new node (dlshogi: 5); 0 = off.
    pub leaf_mate_depth: u32,
    /// Moves the leaf mate search may make before giving up.
    pub leaf_mate_nodes: u64,
    /// Entering-king rule for declarations at the root and at leaves.
    pub declaration: DeclarationRule,
    /// Run df-pn on the root position in its own thread (`Mate_Root_Search`).
    pub root_mate: bool,
    /// df-pn node limit at the root.
    pub root_mate_nodes: u64,
    /// df-pn table size (MiB).
    pub root_mate_hash_mb: usize,
    /// PV-mate threads (`PV_Mate_Search_Threads`, 0 = off).
    pub pv_mate_threads: usize,
    /// df-pn node limit per PV position (`PV_Mate_Search_Nodes`).
    pub pv_mate_nodes: u64,
    /// Keep the subtree of the moves played between searches (`ReuseSubtree`).
    pub reuse_subtree: bool,
    /// Dirichlet noise mixed into the root's priors at each search (self-play; `Root_Noise_Alpha`,
    /// `Root_Noise_Epsilon`, both ×1000; ε = 0, the default, is off).
    pub root_noise: RootNoise,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            puct: Puct {
                c_init: 1.44,
                c_base: 28288.0,
                fpu_reduction: 0.27,
            },
            puct_root: Puct {
                c_init: 1.16,
                c_base: 25617.0,
                fpu_reduction: 0.0,
            },
            softmax_temperature: 1.74,
            threads: 2,
            batch_size: 16,
            node_limit: 1_000_000,
            draw_value: [0.5, 0.5],
            draw_ply: 0,
            repetition_plies: 16,
            leaf_mate_depth: 5,
            leaf_mate_nodes: 5_000,
            declaration: DeclarationRule::Csa27,
            root_mate: true,
            root_mate_nodes: 1_000_000,
            root_mate_hash_mb: 64,
            pv_mate_threads: 0,
            pv_mate_nodes: 500_000,
            reuse_subtree: true,
            root_noise: RootNoise {
                alpha: 0.15,
                epsilon: 0.0,
            },
        }
    }
}
