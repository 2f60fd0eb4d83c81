#!/usr/bin/env python3
"""Runs tiny_resnet.onnx in onnxruntime on the first positions of the shared dlshogi feature dump
(features as cshogi made them) and writes the outputs the Rust tests compare tract against:

    python3 make_expected.py /work/shared/data/dl/dlshogi-features.jsonl > tiny_resnet_expected.tsv

Columns: sfen, value, then `label:logit` for a fixed set of policy labels and the argmax label.
"""
import json
import sys

import numpy as np
import onnxruntime as ort

LABELS = [0, 13, 59, 500, 1000, 1500, 1685, 2000, 2186]


def main():
    sess = ort.InferenceSession(__file__.replace("make_expected.py", "tiny_resnet.onnx"))
    print("# sfen\tvalue\tlabel:logit ...\targmax")
    with open(sys.argv[1]) as f:
        for i, line in enumerate(f):
            if i == 8:
                break
            d = json.loads(line)
            x1 = np.zeros(62 * 81, np.float32)
            x1[d["f1"]] = 1.0
            x2 = np.zeros((57, 81), np.float32)
            x2[d["f2"], :] = 1.0
            pol, val = sess.run(
                ["output_policy", "output_value"],
                {"input1": x1.reshape(1, 62, 9, 9), "input2": x2.reshape(1, 57, 9, 9)},
            )
            cells = " ".join(f"{k}:{pol[0, k]:.6f}" for k in LABELS)
            print(f"{d['sfen']}\t{val[0, 0]:.6f}\t{cells}\t{int(np.argmax(pol[0]))}")


if __name__ == "__main__":
    main()
