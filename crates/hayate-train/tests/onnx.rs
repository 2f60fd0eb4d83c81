//! ONNX export: dlshogi's names and shapes, and the same outputs in tract as in burn (1e-4).

use burn::module::Module;
use burn::tensor::Device;
use burn::tensor::activation::sigmoid;
use hayate_nn::dataset::{BatchConfig, InputKind, fill_batch};
use hayate_train::network::Network;
use hayate_train::onnx::export_dlshogi;
use hayate_train::onnx::proto::{Value, decode};
use hayate_train::optim::OptimizerConfig;
use hayate_train::schedule::Schedule;
use hayate_train::train::{RunOptions, TrainConfig, train};
use hayate_train::{DlshogiNet, DlshogiNetConfig, checkpoint};
use tract_onnx::prelude::*;

/// A briefly trained network (so that the batch-norm statistics are not the defaults).
fn trained(name: &str) -> DlshogiNet {
    let data = hayate_train::synthetic::random_games(32, 1);
    let cfg = TrainConfig {
        batch_size: 16,
        steps: 3,
        lr: 0.01,
        schedule: Schedule::Constant,
        optimizer: OptimizerConfig::dlshogi_sgd(),
        val_lambda: 0.333,
        clip_grad_norm: None,
        checkpoint_every: 0,
        eval_every: 0,
        seed: 2,
    };
    // Tests run in parallel and may train the same model: one directory per call.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("hayate-onnx-{}-{call}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let model_cfg = DlshogiNetConfig::from_name(name).unwrap();
    let device = Device::flex();
    train::<DlshogiNet>(
        &model_cfg,
        &cfg,
        &data,
        None,
        &dir,
        &device,
        &RunOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    let l = checkpoint::load::<DlshogiNet>(&dir.join("checkpoint"), &device, None).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    l.model
}

/// A declared graph input or output: name and dimensions (numbers or symbols) as text.
type Io = (String, Vec<String>);

fn io_names(bytes: &[u8]) -> (Vec<Io>, Vec<Io>) {
    let model = decode(bytes).unwrap();
    let graph = model
        .iter()
        .find(|(f, _)| *f == 7)
        .unwrap()
        .1
        .as_bytes()
        .unwrap();
    let describe = |vi: &[u8]| {
        let f = decode(vi).unwrap();
        let name = f
            .iter()
            .find(|(k, _)| *k == 1)
            .unwrap()
            .1
            .as_string()
            .unwrap();
        let ty = decode(
            f.iter()
                .find(|(k, _)| *k == 2)
                .unwrap()
                .1
                .as_bytes()
                .unwrap(),
        )
        .unwrap();
        let tensor = decode(ty[0].1.as_bytes().unwrap()).unwrap();
        let shape = decode(
            tensor
                .iter()
                .find(|(k, _)| *k == 2)
                .unwrap()
                .1
                .as_bytes()
                .unwrap(),
        )
        .unwrap();
        let dims = shape
            .iter()
            .map(|(_, d)| match decode(d.as_bytes().unwrap()).unwrap()[0] {
                (1, Value::Varint(v)) => v.to_string(),
                (2, s) => s.as_string().unwrap(),
                _ => "?".into(),
            })
            .collect();
        (name, dims)
    };
    let g = decode(graph).unwrap();
    let ins = g
        .iter()
        .filter(|(f, _)| *f == 11)
        .map(|(_, v)| describe(v.as_bytes().unwrap()))
        .collect();
    let outs = g
        .iter()
        .filter(|(f, _)| *f == 12)
        .map(|(_, v)| describe(v.as_bytes().unwrap()))
        .collect();
    (ins, outs)
}

fn check_against_tract(net: &DlshogiNet, nyugyoku: bool, n: usize) {
    let device = Device::flex();
    let bytes = export_dlshogi(net);
    let data = hayate_train::synthetic::random_games(n, 4);
    let bc = BatchConfig {
        batch_size: n,
        input: InputKind::Dlshogi { nyugyoku },
        ..BatchConfig::default()
    };
    let batch = fill_batch(&data.samples, &bc);
    let out = net.valid().forward_batch(&data.samples, &batch, &device);
    let want_p = out.policy.to_data().try_to_vec::<f32>().unwrap();
    let want_v = sigmoid(out.value).to_data().try_to_vec::<f32>().unwrap();
    let c2 = batch.input2.len() / (n * 81);
    let plan = tract_onnx::onnx()
        .model_for_read(&mut std::io::Cursor::new(&bytes))
        .unwrap()
        .with_input_fact(0, f32::fact([n, 62, 9, 9]).into())
        .unwrap()
        .with_input_fact(1, f32::fact([n, c2, 9, 9]).into())
        .unwrap()
        .into_optimized()
        .unwrap()
        .into_runnable()
        .unwrap();
    let x1 = Tensor::from_shape(&[n, 62, 9, 9], &batch.input1).unwrap();
    let x2 = Tensor::from_shape(&[n, c2, 9, 9], &batch.input2).unwrap();
    let res = plan.run(tvec!(x1.into(), x2.into())).unwrap();
    let got_p = res[0]
        .try_as_plain_ram()
        .unwrap()
        .as_slice::<f32>()
        .unwrap();
    let got_v = res[1]
        .try_as_plain_ram()
        .unwrap()
        .as_slice::<f32>()
        .unwrap();
    assert_eq!(res[0].shape(), &[n, 2187]);
    assert_eq!(res[1].shape(), &[n, 1]);
    let max_p = want_p
        .iter()
        .zip(got_p)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    let max_v = want_v
        .iter()
        .zip(got_v)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    eprintln!("max |burn - tract|: policy {max_p:e}, value {max_v:e}");
    assert!(
        max_p < 1e-4 && max_v < 1e-4,
        "policy {max_p}, value {max_v}"
    );
}

#[test]
fn export_has_dlshogi_interface() {
    let net = DlshogiNetConfig::from_name("resnet1x8")
        .unwrap()
        .init(&Device::flex());
    let (ins, outs) = io_names(&export_dlshogi(&net));
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        ins,
        vec![
            ("input1".to_string(), s(&["batch_size", "62", "9", "9"])),
            ("input2".to_string(), s(&["batch_size", "57", "9", "9"])),
        ]
    );
    assert_eq!(
        outs,
        vec![
            ("output_policy".to_string(), s(&["batch_size", "2187"])),
            ("output_value".to_string(), s(&["batch_size", "1"])),
        ]
    );
}

#[test]
fn resnet_relu_matches_tract() {
    let net = trained("resnet2x16_relu");
    check_against_tract(&net, false, 5);
    check_against_tract(&net, false, 1);
}

#[test]
fn senet_swish_nyugyoku_matches_tract() {
    let net = trained("senet2x16_swish_nyugyoku");
    check_against_tract(&net, true, 4);
}

#[test]
fn import_round_trips() {
    let device = Device::flex();
    for name in ["resnet2x16_swish", "senet2x16_relu_reduction4"] {
        let net = trained(name);
        let bytes = export_dlshogi(&net);
        let (back, cfg) = hayate_train::onnx::import_dlshogi(&bytes, &device).unwrap();
        assert_eq!(cfg, DlshogiNetConfig::from_name(name).unwrap());
        // Same file again, byte for byte.
        assert_eq!(export_dlshogi(&back), bytes, "{name}");
    }
    assert!(hayate_train::onnx::import_dlshogi(b"not onnx", &device).is_err());
}

#[test]
fn gmlp_matches_tract() {
    use hayate_train::network::tokens_tensor;
    use hayate_train::onnx::export_gmlp;
    use hayate_train::{Gmlp, GmlpConfig};
    let device = Device::flex();
    let cfg = GmlpConfig {
        blocks: 2,
        d_model: 16,
        d_ffn: 32,
    };
    // Random spatial weights too (they start at zero).
    let mut net: Gmlp = cfg.init(&device);
    for b in &mut net.blocks {
        b.spatial = burn::module::Param::from_tensor(burn::tensor::Tensor::random(
            [95, 95],
            burn::tensor::Distribution::Normal(0.0, 0.1),
            &device,
        ));
    }
    let n = 3;
    let data = hayate_train::synthetic::random_games(n, 5);
    let batch = fill_batch(&data.samples, &BatchConfig::default());
    let out = net.forward_batch(&data.samples, &batch, &device);
    let want_p = out.policy.to_data().try_to_vec::<f32>().unwrap();
    let want_v = sigmoid(out.value).to_data().try_to_vec::<f32>().unwrap();
    let tokens = tokens_tensor(&data.samples, &device)
        .to_data()
        .convert::<i64>()
        .try_to_vec::<i64>()
        .unwrap();
    let bytes = export_gmlp(&net);
    let plan = tract_onnx::onnx()
        .model_for_read(&mut std::io::Cursor::new(&bytes))
        .unwrap()
        .with_input_fact(0, i64::fact([n, 95]).into())
        .unwrap()
        .into_optimized()
        .unwrap()
        .into_runnable()
        .unwrap();
    let x = Tensor::from_shape(&[n, 95], &tokens).unwrap();
    let res = plan.run(tvec!(x.into())).unwrap();
    assert_eq!(res[0].shape(), &[n, 1496]);
    let got_p = res[0]
        .try_as_plain_ram()
        .unwrap()
        .as_slice::<f32>()
        .unwrap();
    let got_v = res[1]
        .try_as_plain_ram()
        .unwrap()
        .as_slice::<f32>()
        .unwrap();
    let max_p = want_p
        .iter()
        .zip(got_p)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    let max_v = want_v
        .iter()
        .zip(got_v)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    eprintln!("gmlp max |burn - tract|: policy {max_p:e}, value {max_v:e}");
    assert!(
        max_p < 1e-4 && max_v < 1e-4,
        "policy {max_p}, value {max_v}"
    );
}

#[test]
fn ryfc_matches_tract() {
    use hayate_train::onnx::export_ryfc;
    use hayate_train::{Activation, RyfcConfig, RyfcNet};
    let device = Device::flex();
    let cfg = RyfcConfig {
        blocks: 2,
        channels: 8,
        recipe: "SCF".into(),
        activation: Activation::Swish,
        input2: 57,
    };
    let mut net: RyfcNet = cfg.init(&device).unwrap();
    // Non-zero position embeddings.
    for b in &mut net.blocks {
        for l in &mut b.layers {
            if l.position.is_some() {
                l.position = Some(burn::module::Param::from_tensor(
                    burn::tensor::Tensor::random(
                        [8, 9, 9],
                        burn::tensor::Distribution::Normal(0.0, 0.5),
                        &device,
                    ),
                ));
            }
        }
    }
    let n = 3;
    let data = hayate_train::synthetic::random_games(n, 12);
    let batch = fill_batch(&data.samples, &BatchConfig::default());
    let out = net.forward_batch(&data.samples, &batch, &device);
    let want_p = out.policy.to_data().try_to_vec::<f32>().unwrap();
    let want_v = sigmoid(out.value).to_data().try_to_vec::<f32>().unwrap();
    let bytes = export_ryfc(&net);
    let plan = tract_onnx::onnx()
        .model_for_read(&mut std::io::Cursor::new(&bytes))
        .unwrap()
        .with_input_fact(0, f32::fact([n, 62, 9, 9]).into())
        .unwrap()
        .with_input_fact(1, f32::fact([n, 57, 9, 9]).into())
        .unwrap()
        .into_optimized()
        .unwrap()
        .into_runnable()
        .unwrap();
    let x1 = Tensor::from_shape(&[n, 62, 9, 9], &batch.input1).unwrap();
    let x2 = Tensor::from_shape(&[n, 57, 9, 9], &batch.input2).unwrap();
    let res = plan.run(tvec!(x1.into(), x2.into())).unwrap();
    let got_p = res[0]
        .try_as_plain_ram()
        .unwrap()
        .as_slice::<f32>()
        .unwrap();
    let got_v = res[1]
        .try_as_plain_ram()
        .unwrap()
        .as_slice::<f32>()
        .unwrap();
    let max_p = want_p
        .iter()
        .zip(got_p)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    let max_v = want_v
        .iter()
        .zip(got_v)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    eprintln!("ryfc max |burn - tract|: policy {max_p:e}, value {max_v:e}");
    assert!(
        max_p < 1e-4 && max_v < 1e-4,
        "policy {max_p}, value {max_v}"
    );
}

#[test]
fn novice_matches_tract() {
    use hayate_train::onnx::export_novice;
    use hayate_train::{Activation, NoviceConfig, NoviceNet};
    let device = Device::flex();
    let cfg = NoviceConfig {
        blocks: 1,
        channels: 16,
        se_reduction: 4,
        activation: Activation::Swish,
    };
    let net: NoviceNet = cfg.init(&device);
    let n = 2;
    let data = hayate_train::synthetic::random_games(n, 13);
    let bc = BatchConfig {
        input: InputKind::Novice(Default::default()),
        ..BatchConfig::default()
    };
    let batch = fill_batch(&data.samples, &bc);
    let x = hayate_train::network::planes_tensor(&batch.input1, n, &device);
    let out = net.forward(x);
    let want = [
        out.policy.to_data().try_to_vec::<f32>().unwrap(),
        burn::tensor::activation::softmax(out.wdl, 1)
            .to_data()
            .try_to_vec::<f32>()
            .unwrap(),
        burn::tensor::activation::softmax(out.declaration, 1)
            .to_data()
            .try_to_vec::<f32>()
            .unwrap(),
        sigmoid(out.effects).to_data().try_to_vec::<f32>().unwrap(),
    ];
    let bytes = export_novice(&net);
    let plan = tract_onnx::onnx()
        .model_for_read(&mut std::io::Cursor::new(&bytes))
        .unwrap()
        .with_input_fact(0, f32::fact([n, 85, 9, 9]).into())
        .unwrap()
        .into_optimized()
        .unwrap()
        .into_runnable()
        .unwrap();
    let x = Tensor::from_shape(&[n, 85, 9, 9], &batch.input1).unwrap();
    let res = plan.run(tvec!(x.into())).unwrap();
    for (k, w) in want.iter().enumerate() {
        let got = res[k]
            .try_as_plain_ram()
            .unwrap()
            .as_slice::<f32>()
            .unwrap();
        assert_eq!(got.len(), w.len());
        let max = w
            .iter()
            .zip(got)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        eprintln!("novice output {k}: max |burn - tract| {max:e}");
        assert!(max < 1e-4, "output {k}: {max}");
    }
}

/// A PyTorch-style export of `net` (ReLU, optional SE): batch norms after single
/// convolutions folded into the convolution's weight and bias, fully connected layers as
/// `Gemm` with `transB=1`, `Reshape` instead of `Flatten`, SE squeeze by `ReduceMean`.
fn pytorch_style(net: &DlshogiNet) -> Vec<u8> {
    use burn::nn::BatchNorm;
    use burn::nn::conv::Conv2d;
    use hayate_train::onnx::graph::{Attr, Dim, GraphBuilder};
    fn host<const D: usize>(t: burn::tensor::Tensor<D>) -> (Vec<usize>, Vec<f32>) {
        let d = t.to_data();
        (d.shape().to_vec(), d.try_to_vec::<f32>().unwrap())
    }
    fn conv(
        g: &mut GraphBuilder,
        x: &str,
        c: &Conv2d,
        bn: Option<&BatchNorm>,
        name: &str,
    ) -> String {
        let (dims, mut w) = host(c.weight.val());
        let mut inputs = vec![x.to_string()];
        let mut bias = None;
        if let Some(bn) = bn {
            let (_, gamma) = host(bn.gamma.val());
            let (_, beta) = host(bn.beta.val());
            let (_, mean) = host(bn.running_mean.value());
            let (_, var) = host(bn.running_var.value());
            let per = w.len() / dims[0];
            let mut b = vec![0.0; dims[0]];
            for o in 0..dims[0] {
                let s = gamma[o] / (var[o] + bn.epsilon as f32).sqrt();
                w[o * per..(o + 1) * per].iter_mut().for_each(|v| *v *= s);
                b[o] = beta[o] - mean[o] * s;
            }
            bias = Some(b);
        }
        inputs.push(g.float_init(&format!("{name}.weight"), &dims, &w));
        if let Some(b) = bias {
            inputs.push(g.float_init(&format!("{name}.bias"), &[dims[0]], &b));
        }
        let k = dims[2] as i64;
        let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        g.node(
            "Conv",
            &refs,
            &[
                ("kernel_shape", Attr::Ints(vec![k, k])),
                ("pads", Attr::Ints(vec![k / 2; 4])),
            ],
            None,
        )
    }
    fn gemm(g: &mut GraphBuilder, x: &str, l: &burn::nn::Linear, name: &str) -> String {
        let (d, w) = host(l.weight.val());
        let (i, o) = (d[0], d[1]);
        let mut t = vec![0.0; i * o];
        for r in 0..i {
            for c in 0..o {
                t[c * i + r] = w[r * o + c];
            }
        }
        let mut inputs = vec![
            x.to_string(),
            g.float_init(&format!("{name}.weight"), &[o, i], &t),
        ];
        if let Some(b) = &l.bias {
            let (bd, bv) = host(b.val());
            inputs.push(g.float_init(&format!("{name}.bias"), &bd, &bv));
        }
        let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
        g.node("Gemm", &refs, &[("transB", Attr::Int(1))], None)
    }
    let mut g = GraphBuilder::new();
    let b = Dim::Symbol("batch_size");
    g.input(
        "input1",
        &[b.clone(), Dim::Fixed(62), Dim::Fixed(9), Dim::Fixed(9)],
    );
    g.input(
        "input2",
        &[b.clone(), Dim::Fixed(57), Dim::Fixed(9), Dim::Fixed(9)],
    );
    g.output("output_policy", &[b.clone(), Dim::Fixed(2187)]);
    g.output("output_value", &[b, Dim::Fixed(1)]);
    let a = conv(&mut g, "input1", &net.stem3, None, "l1_1_1");
    let c = conv(&mut g, "input1", &net.stem1, None, "l1_1_2");
    let d = conv(&mut g, "input2", &net.stem2, None, "l1_2");
    let s = g.node("Add", &[&a, &c], &[], None);
    let s = g.node("Add", &[&s, &d], &[], None);
    let bn = &net.stem_bn;
    let (dd, gamma) = host(bn.gamma.val());
    let names: Vec<String> = [
        ("norm1.weight", gamma),
        ("norm1.bias", host(bn.beta.val()).1),
        ("norm1.running_mean", host(bn.running_mean.value()).1),
        ("norm1.running_var", host(bn.running_var.value()).1),
    ]
    .into_iter()
    .map(|(n, v)| g.float_init(n, &dd, &v))
    .collect();
    let s = g.node(
        "BatchNormalization",
        &[&s, &names[0], &names[1], &names[2], &names[3]],
        &[("epsilon", Attr::Float(bn.epsilon as f32))],
        None,
    );
    let mut x = g.node("Relu", &[&s], &[], None);
    let shape4 = g.int_init("se_shape", &[-1, 16, 1, 1]);
    for (i, blk) in net.blocks.iter().enumerate() {
        let h = conv(&mut g, &x, &blk.conv1, Some(&blk.bn1), &format!("b{i}.c1"));
        let h = g.node("Relu", &[&h], &[], None);
        let mut h = conv(&mut g, &h, &blk.conv2, Some(&blk.bn2), &format!("b{i}.c2"));
        if let Some(se) = &blk.se {
            let m = g.node(
                "ReduceMean",
                &[&h],
                &[("axes", Attr::Ints(vec![2, 3])), ("keepdims", Attr::Int(0))],
                None,
            );
            let m = gemm(&mut g, &m, &se.fc1, &format!("b{i}.se1"));
            let m = g.node("Relu", &[&m], &[], None);
            let m = gemm(&mut g, &m, &se.fc2, &format!("b{i}.se2"));
            let m = g.node("Sigmoid", &[&m], &[], None);
            let m = g.node("Reshape", &[&m, &shape4], &[], None);
            h = g.node("Mul", &[&h, &m], &[], None);
        }
        let r = g.node("Add", &[&h, &x], &[], None);
        x = g.node("Relu", &[&r], &[], None);
    }
    let flat = g.int_init("flat", &[-1, 2187]);
    let p = conv(&mut g, &x, &net.policy_conv, None, "l22");
    let p = g.node("Reshape", &[&p, &flat], &[], None);
    let (bd, bv) = host(net.policy_bias.val());
    let pb = g.float_init("l22_2.bias", &bd, &bv);
    g.node("Add", &[&p, &pb], &[], Some("output_policy"));
    let v = conv(&mut g, &x, &net.value_conv, Some(&net.value_bn), "l22_v");
    let v = g.node("Relu", &[&v], &[], None);
    let v = g.node("Reshape", &[&v, &flat], &[], None);
    let v = gemm(&mut g, &v, &net.value_fc1, "l23_v");
    let v = g.node("Relu", &[&v], &[], None);
    let v = gemm(&mut g, &v, &net.value_fc2, "l24_v");
    g.node("Sigmoid", &[&v], &[], Some("output_value"));
    g.finish("torch-jit-export", "")
}

#[test]
fn imports_pytorch_style_folded_export() {
    let device = Device::flex();
    for name in ["resnet2x16_relu", "senet2x16_relu_reduction4"] {
        let net = trained(name);
        let bytes = pytorch_style(&net);
        let (back, cfg) = hayate_train::onnx::import_dlshogi(&bytes, &device).unwrap();
        assert_eq!(cfg, DlshogiNetConfig::from_name(name).unwrap());
        // The imported network computes what the original does (folded BN = identity BN).
        let data = hayate_train::synthetic::random_games(4, 21);
        let batch = fill_batch(&data.samples, &BatchConfig::default());
        let a = net.valid().forward_batch(&data.samples, &batch, &device);
        let b = back.valid().forward_batch(&data.samples, &batch, &device);
        let pa = a.policy.to_data().try_to_vec::<f32>().unwrap();
        let pb = b.policy.to_data().try_to_vec::<f32>().unwrap();
        let max = pa
            .iter()
            .zip(&pb)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f32::max);
        let va = a.value.to_data().try_to_vec::<f32>().unwrap();
        let vb = b.value.to_data().try_to_vec::<f32>().unwrap();
        let maxv = va
            .iter()
            .zip(&vb)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f32::max);
        eprintln!("{name}: folded import max diff policy {max:e}, value {maxv:e}");
        assert!(max < 1e-4 && maxv < 1e-4, "{name}: {max} {maxv}");
    }
}
