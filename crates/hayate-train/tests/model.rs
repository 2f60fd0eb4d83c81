//! dlshogi network: names, parameter counts, forward pass on random weights.

use burn::module::Module;
use burn::tensor::Device;
use hayate_nn::dataset::{BatchConfig, fill_batch};
use hayate_train::network::Network;
use hayate_train::{Activation, DlshogiNet, DlshogiNetConfig};

#[test]
fn names_parse_and_print() {
    let c = DlshogiNetConfig::from_name("resnet10_swish").unwrap();
    assert_eq!((c.blocks, c.channels), (10, 192));
    assert_eq!(c.activation, Activation::Swish);
    assert_eq!(c.se_reduction, None);
    assert_eq!(c.name(), "resnet10x192_swish");
    let s = DlshogiNetConfig::from_name("senet15x224").unwrap();
    assert_eq!((s.blocks, s.channels, s.se_reduction), (15, 224, Some(8)));
    assert_eq!(s.name(), "senet15x224_relu_reduction8");
    let n = DlshogiNetConfig::from_name("resnet20_relu_nyugyoku").unwrap();
    assert_eq!((n.channels, n.input2), (256, 119));
    assert_eq!(DlshogiNetConfig::from_name(&n.name()).unwrap(), n);
    for bad in [
        "",
        "resnet",
        "resnet11",
        "vgg10",
        "resnet10_tanh",
        "resnet10_reduction8",
    ] {
        assert!(DlshogiNetConfig::from_name(bad).is_err(), "{bad}");
    }
}

#[test]
fn parameter_counts() {
    let device = Device::flex();
    // The reference's estimate for resnet10x192 is ≈7.34 M.
    let c = DlshogiNetConfig::from_name("resnet10x192").unwrap();
    assert_eq!(c.param_count(), 7_346_562);
    // burn's count includes the batch norms' running mean and variance: 2 per feature of the
    // stem, of the 2 per block, and of the value head's 27.
    assert_eq!(
        c.init(&device).num_params(),
        7_346_562 + 2 * (21 * 192 + 27)
    );
    let c = DlshogiNetConfig::from_name("resnet10x128").unwrap();
    assert_eq!(c.param_count(), 3_610_690);
    let s = DlshogiNetConfig::from_name("senet2x32_swish").unwrap();
    assert_eq!(
        s.init(&device).num_params(),
        s.param_count() + 2 * (5 * 32 + 27)
    );
}

#[test]
fn forward_on_random_weights() {
    let device = Device::flex();
    let data = hayate_train::synthetic::random_games(3, 7);
    for name in ["resnet2x16_relu", "senet2x16_swish"] {
        let cfg = DlshogiNetConfig::from_name(name).unwrap();
        let net = cfg.init(&device);
        let bc = BatchConfig {
            batch_size: 3,
            ..BatchConfig::default()
        };
        let batch = fill_batch(&data.samples, &bc);
        let out = net.forward_batch(&data.samples, &batch, &device);
        assert_eq!(out.policy.dims(), [3, 2187]);
        assert_eq!(out.value.dims(), [3, 1]);
        let p = out.policy.to_data().try_to_vec::<f32>().unwrap();
        assert!(p.iter().all(|x| x.is_finite()));
        // Different positions give different outputs.
        assert_ne!(p[..2187], p[2187..4374]);
    }
    let _ = DlshogiNet::FAMILY;
}

#[test]
fn gmlp_counts_and_forward() {
    use hayate_train::{Gmlp, GmlpConfig};
    let device = Device::flex();
    let big = GmlpConfig::default();
    assert_eq!(big.param_count(), 2_587_548);
    assert_eq!(big.init(&device).num_params(), 2_587_548);
    let cfg = GmlpConfig {
        blocks: 2,
        d_model: 16,
        d_ffn: 32,
    };
    let net: Gmlp = cfg.init(&device);
    let data = hayate_train::synthetic::random_games(3, 8);
    let batch = fill_batch(&data.samples, &BatchConfig::default());
    let out = net.forward_batch(&data.samples, &batch, &device);
    assert_eq!(out.policy.dims(), [3, 1496]);
    assert_eq!(out.value.dims(), [3, 1]);
    assert!(
        out.policy
            .to_data()
            .try_to_vec::<f32>()
            .unwrap()
            .iter()
            .all(|x| x.is_finite())
    );
}

#[test]
fn novice_counts_and_forward() {
    use hayate_nn::dataset::InputKind;
    use hayate_train::{NoviceConfig, NoviceNet};
    let device = Device::flex();
    let big = NoviceConfig::default();
    assert_eq!(big.param_count(), 15_139_273);
    assert_eq!(
        big.init(&device).num_params(),
        15_139_273 + 2 * (25 * 256 + 27)
    );
    let cfg = NoviceConfig {
        blocks: 1,
        channels: 16,
        se_reduction: 4,
        activation: Activation::Relu,
    };
    let net: NoviceNet = cfg.init(&device);
    assert_eq!(net.num_params(), cfg.param_count() + 2 * (3 * 16 + 27));
    let data = hayate_train::synthetic::random_games(2, 9);
    let bc = BatchConfig {
        input: InputKind::Novice(Default::default()),
        novice_targets: true,
        ..BatchConfig::default()
    };
    let batch = fill_batch(&data.samples, &bc);
    let x = hayate_train::network::planes_tensor(&batch.input1, 2, &device);
    let out = net.forward(x);
    assert_eq!(out.policy.dims(), [2, 2187]);
    assert_eq!(out.wdl.dims(), [2, 3]);
    assert_eq!(out.declaration.dims(), [2, 3]);
    assert_eq!(out.effects.dims(), [2, 162]);
}

#[test]
fn ryfc_counts_and_forward() {
    use hayate_train::{RyfcConfig, RyfcNet};
    let device = Device::flex();
    let cfg = RyfcConfig {
        blocks: 2,
        channels: 8,
        recipe: "SCSF".into(),
        activation: Activation::Swish,
        input2: 57,
    };
    let net: RyfcNet = cfg.init(&device).unwrap();
    assert_eq!(net.num_params(), cfg.param_count() + 2 * (9 * 8 + 27));
    let data = hayate_train::synthetic::random_games(3, 10);
    let batch = fill_batch(&data.samples, &BatchConfig::default());
    let out = net.forward_batch(&data.samples, &batch, &device);
    assert_eq!(out.policy.dims(), [3, 2187]);
    assert_eq!(out.value.dims(), [3, 1]);
    assert!(
        out.policy
            .to_data()
            .try_to_vec::<f32>()
            .unwrap()
            .iter()
            .all(|x| x.is_finite())
    );
    let bad = RyfcConfig {
        recipe: "SXF".into(),
        ..cfg
    };
    assert!(bad.init(&device).is_err());
}

#[test]
fn model_spec_names() {
    use hayate_train::ModelSpec;
    assert!(matches!(
        ModelSpec::from_name("resnet10x128").unwrap(),
        ModelSpec::Dlshogi(_)
    ));
    let ModelSpec::Gmlp(g) = ModelSpec::from_name("gmlp").unwrap() else {
        panic!()
    };
    assert_eq!((g.blocks, g.d_model, g.d_ffn), (12, 256, 512));
    let ModelSpec::Novice(n) = ModelSpec::from_name("novice6x64_relu").unwrap() else {
        panic!()
    };
    assert_eq!(
        (n.blocks, n.channels, n.activation),
        (6, 64, Activation::Relu)
    );
    let ModelSpec::Ryfc(r) = ModelSpec::from_name("ryfc4x32_sfcs").unwrap() else {
        panic!()
    };
    assert_eq!((r.blocks, r.channels, r.recipe.as_str()), (4, 32, "SFCS"));
    for bad in ["gmlp12", "ryfc2x8_SQ", "novice_tanh", "mlp"] {
        assert!(ModelSpec::from_name(bad).is_err(), "{bad}");
    }
}
