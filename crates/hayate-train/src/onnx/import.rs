//! Import of a dlshogi ResNet / SE-ResNet ONNX file (dlshogi's own exports or Hayate's) into
//! a [`DlshogiNet`], so that published models can be fine-tuned.
//!
//! The graph is read structurally, not by initializer names (PyTorch's names vary):
//! - the `Conv` nodes in graph order are the stem (the 3×3 and the 1×1 on `input1`, the 1×1 on
//!   `input2`), two per residual block, then the two 27-plane head convolutions (the value one
//!   is followed by a batch norm or carries a bias, the policy one is not);
//! - a convolution's batch norm is the `BatchNormalization` consuming its output; PyTorch's
//!   exporter folds most of them into the convolution, in which case the convolution's bias
//!   becomes a batch norm with `γ=1, β=bias, mean=0, var=1−ε`, which computes the same thing;
//! - the stem's batch norm consumes the sum of the three stem convolutions;
//! - `Gemm`/`MatMul` nodes in order are the SE layers (two per block) and the value head's two
//!   fully connected layers; `transB=1` weights are transposed to burn's `[in, out]`;
//! - the policy bias is the 2187-element initializer added to the flattened policy;
//! - the activation is swish when `Sigmoid`·`Mul` pairs exist outside the SE gates and no `Relu`.

use super::proto::{DecodeError, Value, decode, repeated_i64};
use crate::error::TrainError;
use crate::model::resnet::{INPUT1, POLICY_LABELS, POLICY_PLANES};
use crate::model::{Activation, DlshogiNet, DlshogiNetConfig};
use burn::module::{Param, RunningState};
use burn::nn::BatchNorm;
use burn::nn::conv::Conv2d;
use burn::tensor::{Device, Tensor, TensorData};
use std::collections::HashMap;

const BN_EPS: f32 = 1e-5;

fn err(msg: impl Into<String>) -> TrainError {
    TrainError::Onnx(msg.into())
}

impl From<DecodeError> for TrainError {
    fn from(e: DecodeError) -> TrainError {
        TrainError::Onnx(e.to_string())
    }
}

/// A float tensor from the file.
#[derive(Clone, Debug)]
struct Arr {
    dims: Vec<usize>,
    data: Vec<f32>,
}

#[derive(Clone, Debug, Default)]
struct Node {
    op: String,
    inputs: Vec<String>,
    outputs: Vec<String>,
    ints: HashMap<String, i64>,
    floats: HashMap<String, f32>,
}

fn parse_tensor(buf: &[u8]) -> Result<(String, Arr), TrainError> {
    let f = decode(buf)?;
    let mut name = String::new();
    let mut dims_v = Vec::new();
    let mut dtype = 1;
    let mut raw: Option<&[u8]> = None;
    let mut floats = Vec::new();
    let mut int64s = Vec::new();
    for (k, v) in &f {
        match k {
            1 => dims_v.push(*v),
            2 => dtype = v.as_i64().unwrap_or(0),
            4 => match *v {
                Value::Fixed32(x) => floats.push(f32::from_bits(x)),
                Value::Bytes(b) => floats.extend(
                    b.chunks_exact(4)
                        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                ),
                _ => return Err(err("bad float_data")),
            },
            7 => int64s.push(*v),
            8 => name = v.as_string().unwrap_or_default(),
            9 => raw = v.as_bytes(),
            _ => {}
        }
    }
    let dims: Vec<usize> = repeated_i64(&dims_v)?
        .into_iter()
        .map(|d| usize::try_from(d).map_err(|_| err(format!("{name}: negative dimension"))))
        .collect::<Result<_, _>>()?;
    let data: Vec<f32> = match (dtype, raw) {
        (1, Some(r)) => r
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        (1, None) => floats,
        (7, Some(r)) => r
            .chunks_exact(8)
            .map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8])) as f32)
            .collect(),
        (7, None) => repeated_i64(&int64s)?
            .into_iter()
            .map(|x| x as f32)
            .collect(),
        _ => return Err(err(format!("{name}: unsupported tensor type {dtype}"))),
    };
    if data.len() != dims.iter().product::<usize>() {
        return Err(err(format!(
            "{name}: data does not match its shape {dims:?}"
        )));
    }
    Ok((name, Arr { dims, data }))
}

fn parse_node(buf: &[u8]) -> Result<Node, TrainError> {
    let mut n = Node::default();
    for (k, v) in decode(buf)? {
        match k {
            1 => n.inputs.push(v.as_string().unwrap_or_default()),
            2 => n.outputs.push(v.as_string().unwrap_or_default()),
            4 => n.op = v.as_string().unwrap_or_default(),
            5 => {
                let a = decode(v.as_bytes().ok_or_else(|| err("bad attribute"))?)?;
                let mut name = String::new();
                for (ak, av) in &a {
                    match ak {
                        1 => name = av.as_string().unwrap_or_default(),
                        2 => {
                            if let Some(f) = av.as_f32() {
                                n.floats.insert(name.clone(), f);
                            }
                        }
                        3 => {
                            if let Some(i) = av.as_i64() {
                                n.ints.insert(name.clone(), i);
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    Ok(n)
}

struct Graph {
    nodes: Vec<Node>,
    inits: HashMap<String, Arr>,
    /// Value name → indices of the nodes consuming it.
    consumers: HashMap<String, Vec<usize>>,
}

fn parse_graph(bytes: &[u8]) -> Result<Graph, TrainError> {
    let model = decode(bytes)?;
    let graph = model
        .iter()
        .find(|(k, _)| *k == 7)
        .and_then(|(_, v)| v.as_bytes())
        .ok_or_else(|| err("no graph"))?;
    let mut nodes = Vec::new();
    let mut inits = HashMap::new();
    for (k, v) in decode(graph)? {
        let b = v.as_bytes().ok_or_else(|| err("bad graph field"))?;
        match k {
            1 => nodes.push(parse_node(b)?),
            5 => {
                let (name, arr) = parse_tensor(b)?;
                inits.insert(name, arr);
            }
            _ => {}
        }
    }
    let mut consumers: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, n) in nodes.iter().enumerate() {
        for x in &n.inputs {
            consumers.entry(x.clone()).or_default().push(i);
        }
    }
    Ok(Graph {
        nodes,
        inits,
        consumers,
    })
}

impl Graph {
    fn init(&self, name: &str) -> Result<&Arr, TrainError> {
        self.inits
            .get(name)
            .ok_or_else(|| err(format!("{name} is not an initializer")))
    }

    /// The batch norm consuming `value` directly, if any.
    fn bn_after(&self, value: &str) -> Option<&Node> {
        self.consumers.get(value).and_then(|cs| {
            cs.iter()
                .map(|&i| &self.nodes[i])
                .find(|n| n.op == "BatchNormalization")
        })
    }
}

fn tensor<const D: usize>(a: &Arr, dims: [usize; D], device: &Device) -> Tensor<D> {
    Tensor::from_data(TensorData::new(a.data.clone(), dims), device)
}

fn set_conv(conv: &mut Conv2d, w: &Arr, device: &Device) -> Result<(), TrainError> {
    let want = conv.weight.shape().dims::<4>();
    if w.dims != want {
        return Err(err(format!(
            "convolution weight {:?}, model expects {want:?}",
            w.dims
        )));
    }
    conv.weight = Param::from_tensor(tensor(w, want, device));
    Ok(())
}

/// BN parameters `(γ, β, mean, var, ε)`.
type BnParams = (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>, f32);

fn bn_params(g: &Graph, bn: &Node) -> Result<BnParams, TrainError> {
    let get = |i: usize| -> Result<Vec<f32>, TrainError> {
        let name = bn
            .inputs
            .get(i)
            .ok_or_else(|| err("BatchNormalization input missing"))?;
        Ok(g.init(name)?.data.clone())
    };
    let eps = bn.floats.get("epsilon").copied().unwrap_or(BN_EPS);
    Ok((get(1)?, get(2)?, get(3)?, get(4)?, eps))
}

fn identity_bn(bias: Vec<f32>) -> BnParams {
    let n = bias.len();
    (
        vec![1.0; n],
        bias,
        vec![0.0; n],
        vec![1.0 - BN_EPS; n],
        BN_EPS,
    )
}

fn set_bn(bn: &mut BatchNorm, p: BnParams, device: &Device) -> Result<(), TrainError> {
    let n = bn.gamma.shape().dims::<1>()[0];
    if [&p.0, &p.1, &p.2, &p.3].iter().any(|v| v.len() != n) {
        return Err(err(format!(
            "batch norm of {n} features has parameters of another size"
        )));
    }
    let t = |v: Vec<f32>| Tensor::<1>::from_data(TensorData::new(v, [n]), device);
    bn.gamma = Param::from_tensor(t(p.0));
    bn.beta = Param::from_tensor(t(p.1));
    bn.running_mean = RunningState::new(t(p.2));
    bn.running_var = RunningState::new(t(p.3));
    bn.epsilon = f64::from(p.4);
    Ok(())
}

/// A conv's batch norm: the one after it, or one made from its bias, or none.
fn conv_bn(g: &Graph, conv: &Node) -> Result<Option<BnParams>, TrainError> {
    let out = conv
        .outputs
        .first()
        .ok_or_else(|| err("Conv without output"))?;
    let bias = conv
        .inputs
        .get(2)
        .map(|b| g.init(b).map(|a| a.data.clone()))
        .transpose()?;
    match (g.bn_after(out), bias) {
        (Some(bn), None) => Ok(Some(bn_params(g, bn)?)),
        (Some(bn), Some(b)) => {
            // BN(x + b) = BN with mean − b.
            let mut p = bn_params(g, bn)?;
            for (m, b) in p.2.iter_mut().zip(b) {
                *m -= b;
            }
            Ok(Some(p))
        }
        (None, Some(b)) => Ok(Some(identity_bn(b))),
        (None, None) => Ok(None),
    }
}

/// A fully connected layer's weight as burn's `[in, out]`, and its bias.
fn fc(g: &Graph, n: &Node) -> Result<(Arr, Option<Vec<f32>>), TrainError> {
    let w = g.init(n.inputs.get(1).ok_or_else(|| err("Gemm without weight"))?)?;
    if w.dims.len() != 2 {
        return Err(err("fully connected weight is not 2-D"));
    }
    let trans = n.op == "Gemm" && n.ints.get("transB").copied().unwrap_or(0) == 1;
    let w = if trans {
        let (o, i) = (w.dims[0], w.dims[1]);
        let mut t = vec![0.0; o * i];
        for r in 0..o {
            for c in 0..i {
                t[c * o + r] = w.data[r * i + c];
            }
        }
        Arr {
            dims: vec![i, o],
            data: t,
        }
    } else {
        w.clone()
    };
    let b = match n.inputs.get(2) {
        Some(b) if !b.is_empty() => Some(g.init(b)?.data.clone()),
        _ => None,
    };
    Ok((w, b))
}

fn set_linear(
    l: &mut burn::nn::Linear,
    (w, b): (Arr, Option<Vec<f32>>),
    device: &Device,
) -> Result<(), TrainError> {
    let want = l.weight.shape().dims::<2>();
    if w.dims != want {
        return Err(err(format!(
            "fully connected weight {:?}, model expects {want:?}",
            w.dims
        )));
    }
    l.weight = Param::from_tensor(tensor(&w, want, device));
    if let Some(bias) = b {
        let n = bias.len();
        l.bias = Some(Param::from_tensor(Tensor::from_data(
            TensorData::new(bias, [n]),
            device,
        )));
    }
    Ok(())
}

/// Reads a dlshogi ResNet / SE-ResNet ONNX file into a network on `device` (rules in the
/// module doc).
///
/// # Errors
/// [`TrainError::Onnx`] when the file is not protobuf or its graph does not have dlshogi's
/// structure.
pub fn import_dlshogi(
    bytes: &[u8],
    device: &Device,
) -> Result<(DlshogiNet, DlshogiNetConfig), TrainError> {
    let g = parse_graph(bytes)?;
    let convs: Vec<&Node> = g.nodes.iter().filter(|n| n.op == "Conv").collect();
    if convs.len() < 5 || !(convs.len() - 5).is_multiple_of(2) {
        return Err(err(format!(
            "{} convolutions: not a dlshogi ResNet (expected 5 + 2 per block)",
            convs.len()
        )));
    }
    let weight = |n: &Node| -> Result<&Arr, TrainError> {
        let w = g.init(n.inputs.get(1).ok_or_else(|| err("Conv without weight"))?)?;
        if w.dims.len() != 4 {
            return Err(err("convolution weight is not 4-D"));
        }
        Ok(w)
    };
    // The stem: the first three convolutions, told apart by input and kernel.
    let mut stem3 = None;
    let mut stem1 = None;
    let mut stem2 = None;
    for &c in &convs[..3] {
        let w = weight(c)?;
        match (c.inputs[0].as_str(), w.dims[2]) {
            ("input1", 3) => stem3 = Some(c),
            ("input1", 1) => stem1 = Some(c),
            ("input2", 1) => stem2 = Some(c),
            _ => return Err(err("the first three convolutions are not dlshogi's stem")),
        }
    }
    let (Some(stem3), Some(stem1), Some(stem2)) = (stem3, stem1, stem2) else {
        return Err(err("incomplete stem"));
    };
    let channels = weight(stem3)?.dims[0];
    let input2 = weight(stem2)?.dims[1];
    let blocks = (convs.len() - 5) / 2;
    let heads = &convs[convs.len() - 2..];
    let (value_conv, policy_conv) = if conv_bn(&g, heads[0])?.is_some() {
        (heads[0], heads[1])
    } else {
        (heads[1], heads[0])
    };
    let fcs: Vec<&Node> = g
        .nodes
        .iter()
        .filter(|n| n.op == "Gemm" || n.op == "MatMul")
        .collect();
    if fcs.len() < 2 {
        return Err(err("no value head"));
    }
    let se_fcs = &fcs[..fcs.len() - 2];
    let se_reduction = if se_fcs.is_empty() {
        None
    } else if se_fcs.len() == 2 * blocks {
        let (w, _) = fc(&g, se_fcs[0])?;
        Some(channels / w.dims[1].max(1))
    } else {
        return Err(err("SE layers in some blocks only"));
    };
    let relu = g.nodes.iter().any(|n| n.op == "Relu");
    let (value_fc1, _) = fc(&g, fcs[fcs.len() - 2])?;
    let cfg = DlshogiNetConfig {
        blocks,
        channels,
        activation: if relu {
            Activation::Relu
        } else {
            Activation::Swish
        },
        se_reduction,
        input2,
        fcl: value_fc1.dims[1],
    };
    if value_fc1.dims[0] != POLICY_LABELS || weight(policy_conv)?.dims[0] != POLICY_PLANES {
        return Err(err("heads do not have dlshogi's 27 planes"));
    }
    if weight(stem1)?.dims[1] != INPUT1 {
        return Err(err("input1 does not have 62 planes"));
    }
    let mut net = cfg.init(device);

    set_conv(&mut net.stem3, weight(stem3)?, device)?;
    set_conv(&mut net.stem1, weight(stem1)?, device)?;
    set_conv(&mut net.stem2, weight(stem2)?, device)?;
    // The stem BN consumes Add(Add(a, b), c) (in some order): find the BN after the last Add
    // fed by a stem convolution chain.
    let stem_bn = g
        .nodes
        .iter()
        .filter(|n| n.op == "BatchNormalization")
        .find(|bn| !convs.iter().any(|c| c.outputs.first() == bn.inputs.first()))
        .ok_or_else(|| err("no stem batch norm"))?;
    let mut stem_p = bn_params(&g, stem_bn)?;
    for c in [stem3, stem1, stem2] {
        if let Some(b) = c.inputs.get(2) {
            for (m, b) in stem_p.2.iter_mut().zip(&g.init(b)?.data) {
                *m -= b;
            }
        }
    }
    set_bn(&mut net.stem_bn, stem_p, device)?;
    for (i, blk) in net.blocks.iter_mut().enumerate() {
        let (c1, c2) = (convs[3 + 2 * i], convs[4 + 2 * i]);
        set_conv(&mut blk.conv1, weight(c1)?, device)?;
        set_conv(&mut blk.conv2, weight(c2)?, device)?;
        let b1 = conv_bn(&g, c1)?.ok_or_else(|| err(format!("block {i}: no batch norm")))?;
        let b2 = conv_bn(&g, c2)?.ok_or_else(|| err(format!("block {i}: no batch norm")))?;
        set_bn(&mut blk.bn1, b1, device)?;
        set_bn(&mut blk.bn2, b2, device)?;
        if let Some(se) = &mut blk.se {
            set_linear(&mut se.fc1, fc(&g, se_fcs[2 * i])?, device)?;
            set_linear(&mut se.fc2, fc(&g, se_fcs[2 * i + 1])?, device)?;
        }
    }
    set_conv(&mut net.policy_conv, weight(policy_conv)?, device)?;
    let bias = g
        .nodes
        .iter()
        .filter(|n| n.op == "Add")
        .flat_map(|n| n.inputs.iter())
        .filter_map(|x| g.inits.get(x))
        .find(|a| a.data.len() == POLICY_LABELS)
        .ok_or_else(|| err("no policy bias"))?;
    net.policy_bias = Param::from_tensor(tensor(bias, [POLICY_LABELS], device));
    set_conv(&mut net.value_conv, weight(value_conv)?, device)?;
    let vb = conv_bn(&g, value_conv)?.ok_or_else(|| err("value head without batch norm"))?;
    set_bn(&mut net.value_bn, vb, device)?;
    set_linear(&mut net.value_fc1, fc(&g, fcs[fcs.len() - 2])?, device)?;
    set_linear(&mut net.value_fc2, fc(&g, fcs[fcs.len() - 1])?, device)?;
    Ok((net, cfg))
}
