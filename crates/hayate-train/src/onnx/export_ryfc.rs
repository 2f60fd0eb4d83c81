//! Export of [`RyfcNet`] to ONNX, with dlshogi's interface (`input1`, `input2` →
//! `output_policy` logits, `output_value` sigmoid). The C layers become two broadcast
//! `MatMul`s per layer (files: `W·x`, ranks: `x·Wᵀ` over the `[9,9]` planes of each channel),
//! the F layers a `MatMul` of `[C,81,81]` with the squares reshaped to `[B,C,81,1]`.

use super::export::{Exporter, Heads, Stem, host};
use super::graph::GraphBuilder;
use crate::model::RyfcNet;

/// Serialises `net` as an ONNX model (interface in the module doc).
pub fn export_ryfc(net: &RyfcNet) -> Vec<u8> {
    let mut e = Exporter {
        g: GraphBuilder::new(),
        act: net.activation,
    };
    let mut x = e.dlshogi_stem(&Stem {
        stem3: &net.stem3,
        stem1: &net.stem1,
        stem2: &net.stem2,
        bn: &net.stem_bn,
    });
    for (i, blk) in net.blocks.iter().enumerate() {
        let mut h = x.clone();
        let n = blk.layers.len();
        for (j, l) in blk.layers.iter().enumerate() {
            let p = format!("blocks.{i}.layers.{j}");
            if let Some(pos) = &l.position {
                let (d, v) = host(pos.val());
                let pe = e.g.float_init(&format!("{p}.position"), &d, &v);
                h = e.g.node("Add", &[&h, &pe], &[], None);
            }
            h = if let Some(conv) = &l.conv {
                e.conv(&h, conv, &format!("{p}.conv"))
            } else if let (Some(f), Some(r), Some(mix)) = (&l.files, &l.ranks, &l.mix) {
                let (fd, fv) = host(f.val());
                let fw = e.g.float_init(&format!("{p}.files"), &fd, &fv);
                let along_files = e.g.node("MatMul", &[&fw, &h], &[], None);
                let (rd, rv) = host(r.val());
                let c = rd[0];
                let mut rt = vec![0.0; rv.len()];
                for ch in 0..c {
                    for a in 0..9 {
                        for b in 0..9 {
                            rt[ch * 81 + b * 9 + a] = rv[ch * 81 + a * 9 + b];
                        }
                    }
                }
                let rw = e.g.float_init(&format!("{p}.ranks_t"), &rd, &rt);
                let along_ranks = e.g.node("MatMul", &[&h, &rw], &[], None);
                let sum = e.g.node("Add", &[&along_files, &along_ranks], &[], None);
                e.conv(&sum, mix, &format!("{p}.mix"))
            } else if let Some(full) = &l.full {
                let (d, v) = host(full.val());
                let c = d[0] as i64;
                let w = e.g.float_init(&format!("{p}.full"), &d, &v);
                let s1 = e.g.int_init(&format!("{p}.squares"), &[-1, c, 81, 1]);
                let s2 = e.g.int_init(&format!("{p}.board"), &[-1, c, 9, 9]);
                let xs = e.g.node("Reshape", &[&h, &s1], &[], None);
                let y = e.g.node("MatMul", &[&w, &xs], &[], None);
                e.g.node("Reshape", &[&y, &s2], &[], None)
            } else {
                h
            };
            h = e.bn(&h, &l.bn, &format!("{p}.bn"));
            if j + 1 < n {
                h = e.act(&h);
            }
        }
        let r = e.g.node("Add", &[&h, &x], &[], None);
        x = e.act(&r);
    }
    e.dlshogi_heads(
        &x,
        &Heads {
            policy_conv: &net.policy_conv,
            policy_bias: &net.policy_bias,
            value_conv: &net.value_conv,
            value_bn: &net.value_bn,
            value_fc1: &net.value_fc1,
            value_fc2: &net.value_fc2,
        },
    );
    e.g.finish("hayate_ryfc", "RyfcNet (cross network) exported by Hayate")
}
