//! Export of prelude's [`Gmlp`] to ONNX. Interface: input `tokens` int64 `[batch_size, 95]`
//! (ids of [`hayate_nn::prelude`]); outputs `output_policy` `[batch_size, 1496]` (logits over
//! the compact labels) and `output_value` `[batch_size, 1]` (sigmoid). GELU is written out as
//! `0.5·x·(1 + erf(x/√2))` (ONNX has no `Gelu` before opset 20).

use super::export::host;
use super::graph::{Attr, Dim, GraphBuilder};
use crate::model::Gmlp;
use burn::nn::Linear;
use hayate_nn::prelude::PRELUDE_TOKENS;

fn linear(g: &mut GraphBuilder, x: &str, l: &Linear, name: &str) -> String {
    let (wd, w) = host(l.weight.val());
    let w = g.float_init(&format!("{name}.weight"), &wd, &w);
    let y = g.node("MatMul", &[x, &w], &[], None);
    match &l.bias {
        Some(b) => {
            let (bd, bv) = host(b.val());
            let b = g.float_init(&format!("{name}.bias"), &bd, &bv);
            g.node("Add", &[&y, &b], &[], None)
        }
        None => y,
    }
}

fn gelu(g: &mut GraphBuilder, x: &str, consts: &(String, String, String)) -> String {
    let (sqrt2, one, half) = consts;
    let d = g.node("Div", &[x, sqrt2], &[], None);
    let e = g.node("Erf", &[&d], &[], None);
    let a = g.node("Add", &[&e, one], &[], None);
    let m = g.node("Mul", &[x, &a], &[], None);
    g.node("Mul", &[&m, half], &[], None)
}

fn slice(g: &mut GraphBuilder, x: &str, axis: i64, start: usize, end: usize, tag: &str) -> String {
    let s = g.int_init(&format!("{tag}.starts"), &[start as i64]);
    let e = g.int_init(&format!("{tag}.ends"), &[end as i64]);
    let a = g.int_init(&format!("{tag}.axes"), &[axis]);
    g.node("Slice", &[x, &s, &e, &a], &[], None)
}

/// Serialises `net` as an ONNX model (interface in the module doc).
pub fn export_gmlp(net: &Gmlp) -> Vec<u8> {
    let mut g = GraphBuilder::new();
    let batch = Dim::Symbol("batch_size");
    let t = PRELUDE_TOKENS;
    g.int_input("tokens", &[batch.clone(), Dim::Fixed(t as i64)]);
    let labels = net.compact.dims()[0];
    g.output("output_policy", &[batch.clone(), Dim::Fixed(labels as i64)]);
    g.output("output_value", &[batch, Dim::Fixed(1)]);
    let consts = (
        g.float_init("sqrt2", &[], &[std::f32::consts::SQRT_2]),
        g.float_init("one", &[], &[1.0]),
        g.float_init("half", &[], &[0.5]),
    );
    let (ed, ew) = host(net.embed.weight.val());
    let emb = g.float_init("embed.weight", &ed, &ew);
    let x = g.node("Gather", &[&emb, "tokens"], &[("axis", Attr::Int(0))], None);
    let (pd, pw) = host(net.position.val());
    let pos = g.float_init("position", &pd, &pw);
    let mut x = g.node("Add", &[&x, &pos], &[], None);
    for (i, blk) in net.blocks.iter().enumerate() {
        let p = format!("blocks.{i}");
        let z = linear(&mut g, &x, &blk.proj_in, &format!("{p}.proj_in"));
        let z = gelu(&mut g, &z, &consts);
        let f = blk.proj_in.weight.shape().dims::<2>()[1];
        let h = f / 2;
        let u = slice(&mut g, &z, 2, 0, h, &format!("{p}.u"));
        let v = slice(&mut g, &z, 2, h, f, &format!("{p}.v"));
        let (sd, sw) = host(blk.spatial.val());
        let s = g.float_init(&format!("{p}.spatial"), &sd, &sw);
        let mixed = g.node("MatMul", &[&s, &v], &[], None);
        let (_, cb) = host(blk.spatial_bias.val());
        let c = g.float_init(&format!("{p}.spatial_bias"), &[t, 1], &cb);
        let mixed = g.node("Add", &[&mixed, &c], &[], None);
        let gated = g.node("Mul", &[&u, &mixed], &[], None);
        let y = linear(&mut g, &gated, &blk.proj_out, &format!("{p}.proj_out"));
        x = g.node("Add", &[&x, &y], &[], None);
    }
    let sq = slice(&mut g, &x, 1, 0, 81, "squares");
    let p = linear(&mut g, &sq, &net.policy, "policy");
    let p = g.node(
        "Transpose",
        &[&p],
        &[("perm", Attr::Ints(vec![0, 2, 1]))],
        None,
    );
    let shape = g.int_init("policy.shape", &[-1, 27 * 81]);
    let p = g.node("Reshape", &[&p, &shape], &[], None);
    let compact: Vec<i64> = net
        .compact
        .to_data()
        .convert::<i64>()
        .try_to_vec::<i64>()
        .unwrap_or_default();
    let idx = g.int_init("compact_labels", &compact);
    g.node(
        "Gather",
        &[&p, &idx],
        &[("axis", Attr::Int(1))],
        Some("output_policy"),
    );
    let pooled = g.node(
        "ReduceMean",
        &[&x],
        &[("axes", Attr::Ints(vec![1])), ("keepdims", Attr::Int(0))],
        None,
    );
    let v = linear(&mut g, &pooled, &net.value1, "value1");
    let v = gelu(&mut g, &v, &consts);
    let v = linear(&mut g, &v, &net.value2, "value2");
    g.node("Sigmoid", &[&v], &[], Some("output_value"));
    g.finish("hayate_gmlp", "prelude-style gMLP exported by Hayate")
}
