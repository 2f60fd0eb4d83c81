#!/usr/bin/env python3
"""Writes a dlshogi-shaped ResNet with random weights as ONNX, built by hand with `onnx.helper`
(no torch needed): the same inputs, outputs and layer pattern as dlshogi's exported models.

    python3 make_resnet.py OUT.onnx --blocks 1 --channels 16 --fcl 16 --seed 1

Interface (dlshogi `convert_model_to_onnx.py`): input1 [b,62,9,9], input2 [b,57,9,9] ->
output_policy [b,2187] (logits), output_value [b,1] (sigmoid win probability). The batch axis is
dynamic ("batch_size"). Batch norms are folded into the convolution biases, as constant folding
at export would leave them after fusion. The committed tiny_resnet.onnx was made with the
defaults (1 block, 16 channels, fcl 16, seed 1); the 5x64 and 10x128 nets of the speed notes with
`--blocks 5 --channels 64 --fcl 256` and `--blocks 10 --channels 128 --fcl 256`.
"""
import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--blocks", type=int, default=1)
    ap.add_argument("--channels", type=int, default=16)
    ap.add_argument("--fcl", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    c = a.channels
    inits, nodes = [], []

    def tensor(name, shape, fan_in, scale=1.0):
        w = rng.standard_normal(shape).astype(np.float32) * np.float32(scale * np.sqrt(2.0 / fan_in))
        inits.append(numpy_helper.from_array(w, name))
        return name

    def bias(name, n, scale=0.05):
        inits.append(numpy_helper.from_array((rng.standard_normal(n) * scale).astype(np.float32), name))
        return name

    def conv(x, out, cin, cout, k, with_bias, name):
        ins = [x, tensor(name + ".w", (cout, cin, k, k), cin * k * k)]
        if with_bias:
            ins.append(bias(name + ".b", cout))
        nodes.append(helper.make_node("Conv", ins, [out], kernel_shape=[k, k], pads=[k // 2] * 4, name=name))
        return out

    def relu(x, out):
        nodes.append(helper.make_node("Relu", [x], [out]))
        return out

    # Stem: three convolutions summed, then (folded) BN and the activation.
    s1 = conv("input1", "s1", 62, c, 3, True, "l1_1_1")
    s2 = conv("input1", "s2", 62, c, 1, False, "l1_1_2")
    s3 = conv("input2", "s3", 57, c, 1, False, "l1_2")
    nodes.append(helper.make_node("Add", [s1, s2], ["s12"]))
    nodes.append(helper.make_node("Add", ["s12", s3], ["s123"]))
    x = relu("s123", "h0")
    for i in range(a.blocks):
        y = relu(conv(x, f"b{i}c1", c, c, 3, True, f"block{i}.conv1"), f"b{i}r1")
        y = conv(y, f"b{i}c2", c, c, 3, True, f"block{i}.conv2")
        nodes.append(helper.make_node("Add", [x, y], [f"b{i}sum"]))
        x = relu(f"b{i}sum", f"h{i + 1}")
    # Policy head: 1x1 conv to 27 planes, flatten, learned bias.
    p = conv(x, "p27", c, 27, 1, False, "policy.conv")
    nodes.append(helper.make_node("Flatten", [p], ["pflat"], axis=1))
    nodes.append(helper.make_node("Add", ["pflat", bias("policy.bias", 2187)], ["output_policy"]))
    # Value head: 1x1 conv, BN (folded), act, Linear(2187->fcl), act, Linear(fcl->1), sigmoid.
    v = relu(conv(x, "v27", c, 27, 1, True, "value.conv"), "v27r")
    nodes.append(helper.make_node("Flatten", [v], ["vflat"], axis=1))
    nodes.append(helper.make_node("Gemm", ["vflat", tensor("value.fc1.w", (a.fcl, 2187), 2187), bias("value.fc1.b", a.fcl)], ["vfc1"], transB=1))
    relu("vfc1", "vfc1r")
    nodes.append(helper.make_node("Gemm", ["vfc1r", tensor("value.fc2.w", (1, a.fcl), a.fcl, 0.3), bias("value.fc2.b", 1)], ["vlogit"], transB=1))
    nodes.append(helper.make_node("Sigmoid", ["vlogit"], ["output_value"]))

    graph = helper.make_graph(
        nodes,
        f"resnet{a.blocks}x{c}",
        [
            helper.make_tensor_value_info("input1", TensorProto.FLOAT, ["batch_size", 62, 9, 9]),
            helper.make_tensor_value_info("input2", TensorProto.FLOAT, ["batch_size", 57, 9, 9]),
        ],
        [
            helper.make_tensor_value_info("output_policy", TensorProto.FLOAT, ["batch_size", 2187]),
            helper.make_tensor_value_info("output_value", TensorProto.FLOAT, ["batch_size", 1]),
        ],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, a.out)


if __name__ == "__main__":
    main()
