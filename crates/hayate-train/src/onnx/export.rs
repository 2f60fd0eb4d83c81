//! Export of [`DlshogiNet`] to ONNX with dlshogi's interface (reference §1.6):
//! inputs `input1` `[batch_size,62,9,9]` and `input2` `[batch_size,57|119,9,9]`, outputs
//! `output_policy` `[batch_size,2187]` (logits) and `output_value` `[batch_size,1]` (sigmoid),
//! batch axis dynamic. Batch norms are exported as `BatchNormalization` with the running
//! statistics; swish as `Sigmoid` + `Mul`.
//!
//! Initializers are named after the module paths (`blocks.3.conv1.weight`, `stem_bn.gamma`,
//! …) so that [`super::import`] can read Hayate's own files back exactly.

use super::graph::{Attr, Dim, GraphBuilder};
use crate::model::resnet::{INPUT1, POLICY_LABELS, ResBlock};
use crate::model::{Activation, DlshogiNet};
use burn::module::Param;
use burn::nn::conv::Conv2d;
use burn::nn::{BatchNorm, Linear};
use burn::tensor::Tensor;

/// Shape and values of a tensor, on the host.
pub(crate) fn host<const D: usize>(t: Tensor<D>) -> (Vec<usize>, Vec<f32>) {
    let data = t.to_data();
    let dims = data.shape().to_vec();
    let values = data
        .convert::<f32>()
        .try_to_vec::<f32>()
        .unwrap_or_default();
    (dims, values)
}

/// Graph building with the network's activation (shared by the exporters).
pub(crate) struct Exporter {
    pub(crate) g: GraphBuilder,
    pub(crate) act: Activation,
}

impl Exporter {
    pub(crate) fn conv(&mut self, x: &str, conv: &Conv2d, name: &str) -> String {
        let (dims, w) = host(conv.weight.val());
        let w = self.g.float_init(&format!("{name}.weight"), &dims, &w);
        let k = dims[2] as i64;
        let p = k / 2;
        let mut inputs = vec![x.to_string(), w];
        if let Some(b) = &conv.bias {
            let (bd, bv) = host(b.val());
            inputs.push(self.g.float_init(&format!("{name}.bias"), &bd, &bv));
        }
        let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        self.g.node(
            "Conv",
            &refs,
            &[
                ("kernel_shape", Attr::Ints(vec![k, k])),
                ("pads", Attr::Ints(vec![p, p, p, p])),
                ("strides", Attr::Ints(vec![1, 1])),
            ],
            None,
        )
    }

    pub(crate) fn bn(&mut self, x: &str, bn: &BatchNorm, name: &str) -> String {
        let (d, gamma) = host(bn.gamma.val());
        let (_, beta) = host(bn.beta.val());
        let (_, mean) = host(bn.running_mean.value());
        let (_, var) = host(bn.running_var.value());
        let s = self.g.float_init(&format!("{name}.gamma"), &d, &gamma);
        let b = self.g.float_init(&format!("{name}.beta"), &d, &beta);
        let m = self
            .g
            .float_init(&format!("{name}.running_mean"), &d, &mean);
        let v = self.g.float_init(&format!("{name}.running_var"), &d, &var);
        self.g.node(
            "BatchNormalization",
            &[x, &s, &b, &m, &v],
            &[("epsilon", Attr::Float(bn.epsilon as f32))],
            None,
        )
    }

    pub(crate) fn act(&mut self, x: &str) -> String {
        match self.act {
            Activation::Relu => self.g.node("Relu", &[x], &[], None),
            Activation::Swish => {
                let s = self.g.node("Sigmoid", &[x], &[], None);
                self.g.node("Mul", &[x, &s], &[], None)
            }
        }
    }

    /// `x·W + b` with burn's `[in, out]` weight layout (`Gemm` without transposition).
    pub(crate) fn linear(&mut self, x: &str, l: &Linear, name: &str) -> String {
        let (wd, w) = host(l.weight.val());
        let w = self.g.float_init(&format!("{name}.weight"), &wd, &w);
        let mut inputs = vec![x.to_string(), w];
        if let Some(b) = &l.bias {
            let (bd, bv) = host(b.val());
            inputs.push(self.g.float_init(&format!("{name}.bias"), &bd, &bv));
        }
        let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        self.g.node("Gemm", &refs, &[], None)
    }
}

/// The dlshogi stem modules.
pub(crate) struct Stem<'a> {
    pub(crate) stem3: &'a Conv2d,
    pub(crate) stem1: &'a Conv2d,
    pub(crate) stem2: &'a Conv2d,
    pub(crate) bn: &'a BatchNorm,
}

/// The dlshogi head modules.
pub(crate) struct Heads<'a> {
    pub(crate) policy_conv: &'a Conv2d,
    pub(crate) policy_bias: &'a Param<Tensor<1>>,
    pub(crate) value_conv: &'a Conv2d,
    pub(crate) value_bn: &'a BatchNorm,
    pub(crate) value_fc1: &'a Linear,
    pub(crate) value_fc2: &'a Linear,
}

impl Exporter {
    /// Emits one residual (SE-)block on `x` and returns its output.
    pub(crate) fn res_block(&mut self, x: &str, blk: &ResBlock, p: &str) -> String {
        let h = self.conv(x, &blk.conv1, &format!("{p}.conv1"));
        let h = self.bn(&h, &blk.bn1, &format!("{p}.bn1"));
        let h = self.act(&h);
        let h = self.conv(&h, &blk.conv2, &format!("{p}.conv2"));
        let mut h = self.bn(&h, &blk.bn2, &format!("{p}.bn2"));
        if let Some(se) = &blk.se {
            let (wd, _) = host(se.fc2.weight.val());
            let channels = wd[1] as i64;
            let s = self.g.node("GlobalAveragePool", &[&h], &[], None);
            let s = self
                .g
                .node("Flatten", &[&s], &[("axis", Attr::Int(1))], None);
            let s = self.linear(&s, &se.fc1, &format!("{p}.se.fc1"));
            let s = self.act(&s);
            let s = self.linear(&s, &se.fc2, &format!("{p}.se.fc2"));
            let s = self.g.node("Sigmoid", &[&s], &[], None);
            let shape = self
                .g
                .int_init(&format!("{p}.se.shape"), &[-1, channels, 1, 1]);
            let s = self.g.node("Reshape", &[&s, &shape], &[], None);
            h = self.g.node("Mul", &[&h, &s], &[], None);
        }
        let r = self.g.node("Add", &[&h, x], &[], None);
        self.act(&r)
    }

    /// Declares dlshogi's inputs/outputs and emits the stem; returns the trunk's input.
    pub(crate) fn dlshogi_stem(&mut self, stem: &Stem<'_>) -> String {
        let (i2dims, _) = host(stem.stem2.weight.val());
        let input2 = i2dims[1];
        let batch = Dim::Symbol("batch_size");
        self.g.input(
            "input1",
            &[
                batch.clone(),
                Dim::Fixed(INPUT1 as i64),
                Dim::Fixed(9),
                Dim::Fixed(9),
            ],
        );
        self.g.input(
            "input2",
            &[
                batch.clone(),
                Dim::Fixed(input2 as i64),
                Dim::Fixed(9),
                Dim::Fixed(9),
            ],
        );
        self.g.output(
            "output_policy",
            &[batch.clone(), Dim::Fixed(POLICY_LABELS as i64)],
        );
        self.g.output("output_value", &[batch, Dim::Fixed(1)]);
        let a = self.conv("input1", stem.stem3, "stem3");
        let b = self.conv("input1", stem.stem1, "stem1");
        let c = self.conv("input2", stem.stem2, "stem2");
        let ab = self.g.node("Add", &[&a, &b], &[], None);
        let sum = self.g.node("Add", &[&ab, &c], &[], None);
        let x = self.bn(&sum, stem.bn, "stem_bn");
        self.act(&x)
    }

    /// Emits dlshogi's policy and value heads on the trunk output `x`.
    pub(crate) fn dlshogi_heads(&mut self, x: &str, h: &Heads<'_>) {
        let p = self.conv(x, h.policy_conv, "policy_conv");
        let p = self
            .g
            .node("Flatten", &[&p], &[("axis", Attr::Int(1))], None);
        let (bd, bv) = host(h.policy_bias.val());
        let pb = self.g.float_init("policy_bias", &bd, &bv);
        self.g.node("Add", &[&p, &pb], &[], Some("output_policy"));
        let v = self.conv(x, h.value_conv, "value_conv");
        let v = self.bn(&v, h.value_bn, "value_bn");
        let v = self.act(&v);
        let v = self
            .g
            .node("Flatten", &[&v], &[("axis", Attr::Int(1))], None);
        let v = self.linear(&v, h.value_fc1, "value_fc1");
        let v = self.act(&v);
        let v = self.linear(&v, h.value_fc2, "value_fc2");
        self.g.node("Sigmoid", &[&v], &[], Some("output_value"));
    }
}

/// Serialises `net` as an ONNX model (interface in the module doc).
pub fn export_dlshogi(net: &DlshogiNet) -> Vec<u8> {
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
        x = e.res_block(&x, blk, &format!("blocks.{i}"));
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
    e.g.finish(
        "hayate_dlshogi",
        "dlshogi-compatible policy/value network exported by Hayate",
    )
}
