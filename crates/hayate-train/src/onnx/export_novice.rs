//! Export of [`NoviceNet`] to ONNX. Interface: input `input` `[batch_size, 85, 9, 9]` (the
//! channels of [`hayate_nn::novice`]); outputs `output_policy` `[batch_size, 2187]` (logits),
//! `output_value` `[batch_size, 3]` (win/draw/loss probabilities), `output_declaration`
//! `[batch_size, 3]` (probabilities) and `output_effects` `[batch_size, 162]` (sigmoid).

use super::export::{Exporter, host};
use super::graph::{Attr, Dim, GraphBuilder};
use crate::model::NoviceNet;
use crate::model::resnet::POLICY_LABELS;
use hayate_nn::novice::NOVICE_CHANNELS;

/// Serialises `net` as an ONNX model (interface in the module doc).
pub fn export_novice(net: &NoviceNet) -> Vec<u8> {
    let mut e = Exporter {
        g: GraphBuilder::new(),
        act: net.activation,
    };
    let batch = Dim::Symbol("batch_size");
    e.g.input(
        "input",
        &[
            batch.clone(),
            Dim::Fixed(NOVICE_CHANNELS as i64),
            Dim::Fixed(9),
            Dim::Fixed(9),
        ],
    );
    e.g.output(
        "output_policy",
        &[batch.clone(), Dim::Fixed(POLICY_LABELS as i64)],
    );
    e.g.output("output_value", &[batch.clone(), Dim::Fixed(3)]);
    e.g.output("output_declaration", &[batch.clone(), Dim::Fixed(3)]);
    e.g.output("output_effects", &[batch, Dim::Fixed(162)]);
    let x = e.conv("input", &net.stem, "stem");
    let x = e.bn(&x, &net.stem_bn, "stem_bn");
    let mut x = e.act(&x);
    for (i, blk) in net.blocks.iter().enumerate() {
        x = e.res_block(&x, blk, &format!("blocks.{i}"));
    }
    let flat =
        |e: &mut Exporter, v: &str| e.g.node("Flatten", &[v], &[("axis", Attr::Int(1))], None);
    let p = e.conv(&x, &net.policy_conv, "policy_conv");
    let p = flat(&mut e, &p);
    let (bd, bv) = host(net.policy_bias.val());
    let pb = e.g.float_init("policy_bias", &bd, &bv);
    e.g.node("Add", &[&p, &pb], &[], Some("output_policy"));
    let v = e.conv(&x, &net.value_conv, "value_conv");
    let v = e.bn(&v, &net.value_bn, "value_bn");
    let v = e.act(&v);
    let v = flat(&mut e, &v);
    let v = e.linear(&v, &net.value_fc1, "value_fc1");
    let v = e.act(&v);
    let v = e.linear(&v, &net.value_fc2, "value_fc2");
    e.g.node(
        "Softmax",
        &[&v],
        &[("axis", Attr::Int(1))],
        Some("output_value"),
    );
    let d = e.g.node("GlobalAveragePool", &[&x], &[], None);
    let d = flat(&mut e, &d);
    let d = e.linear(&d, &net.declaration, "declaration");
    e.g.node(
        "Softmax",
        &[&d],
        &[("axis", Attr::Int(1))],
        Some("output_declaration"),
    );
    let z = e.conv(&x, &net.effects, "effects");
    let z = flat(&mut e, &z);
    e.g.node("Sigmoid", &[&z], &[], Some("output_effects"));
    e.g.finish(
        "hayate_novice",
        "Novice-style four-head SE-ResNet exported by Hayate",
    )
}
