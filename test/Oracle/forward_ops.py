"""Forward nn ops against PyTorch: `python3 forward_ops.py ... FAMILY`.

Prints one line per case and a closing "N passed, N failed" line; exits
non-zero on any mismatch.
"""

import argparse
import os
import re
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

import oracle
import philox

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "..", "..", "python"))
import tf_semantics as T  # noqa: E402

rng = np.random.default_rng(1234)

# The directory of nnc and nnc-opt (--tools).
TOOLS = [None]


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


ty = oracle.tensor_type


def arr(values):
    return "array<i64: %s>" % ", ".join(str(v) for v in values)


# --- cases -------------------------------------------------------------------

def conv_case(name, n, h, w, c, kh, kw, f, strides, dilations, padding):
    x, wt = rand(n, h, w, c), rand(kh, kw, c, f) * 0.3
    want = T.conv(t(x), t(wt), stride=strides, dilation=dilations,
                  padding=padding).numpy()
    if isinstance(padding, list):
        attrs = "pad = %s, padding = #nn.padding<EXPLICIT>" % arr(padding)
    else:
        attrs = "padding = #nn.padding<%s>" % padding
    func = """func.func @f(%%x: %s, %%w: %s) -> %s {
  %%0 = nn.conv2d %%x, %%w {dilations = %s, %s, strides = %s} : (%s, %s) -> %s
  return %%0 : %s
}""" % (ty(x.shape), ty(wt.shape), ty(want.shape), arr(dilations), attrs,
        arr(strides), ty(x.shape), ty(wt.shape), ty(want.shape), ty(want.shape))
    return name, func, [x, wt], [want]


def pool_case(name, kind, shape, window, strides, padding):
    x = rand(*shape)
    pool = T.max_pool if kind == "max" else T.avg_pool
    want = pool(t(x), window, strides, padding).numpy()
    func = """func.func @f(%%x: %s) -> %s {
  %%0 = nn.%s_pool2d %%x {padding = #nn.padding<%s>, strides = %s, window = %s} : (%s) -> %s
  return %%0 : %s
}""" % (ty(shape), ty(want.shape), kind, padding, arr(strides), arr(window),
        ty(shape), ty(want.shape), ty(want.shape))
    return name, func, [x], [want]


def lrn_case(name, shape, radius, bias, alpha, beta):
    x = rand(*shape) * 3
    want = T.lrn(t(x), radius, bias, alpha, beta).numpy()
    func = """func.func @f(%%x: %s) -> %s {
  %%0 = nn.lrn %%x {alpha = %r : f64, beta = %r : f64, bias = %r : f64, depth_radius = %d : i64} : (%s) -> %s
  return %%0 : %s
}""" % (ty(shape), ty(shape), alpha, beta, bias, radius, ty(shape), ty(shape),
        ty(shape))
    return name, func, [x], [want]


def unary_case(op, ref):
    x = rand(3, 5) * 3
    func = """func.func @f(%%x: %s) -> %s {
  %%0 = nn.%s %%x : (%s) -> %s
  return %%0 : %s
}""" % (ty(x.shape), ty(x.shape), op, ty(x.shape), ty(x.shape), ty(x.shape))
    return op, func, [x], [ref(t(x)).numpy()]


def dense_case():
    x, w, b = rand(4, 6), rand(6, 3), rand(3)
    want = (t(x) @ t(w) + t(b)).numpy()
    func = """func.func @f(%%x: %s, %%w: %s, %%b: %s) -> %s {
  %%0 = nn.matmul %%x, %%w : (%s, %s) -> %s
  %%1 = nn.bias_add %%0, %%b : (%s, %s) -> %s
  return %%1 : %s
}""" % (ty(x.shape), ty(w.shape), ty(b.shape), ty(want.shape),
        ty(x.shape), ty(w.shape), ty(want.shape), ty(want.shape), ty(b.shape),
        ty(want.shape), ty(want.shape))
    return "matmul+bias_add", func, [x, w, b], [want]


def matmul_transposed_case():
    a, b = rand(6, 4), rand(3, 6)
    want = (t(a).T @ t(b).T).numpy()
    func = """func.func @f(%%a: %s, %%b: %s) -> %s {
  %%0 = nn.matmul %%a, %%b {transpose_lhs, transpose_rhs} : (%s, %s) -> %s
  return %%0 : %s
}""" % (ty(a.shape), ty(b.shape), ty(want.shape), ty(a.shape), ty(b.shape),
        ty(want.shape), ty(want.shape))
    return "matmul transposed", func, [a, b], [want]


def shapes_case():
    x, y = rand(2, 3, 2, 2), rand(2, 3)
    flat = x.reshape(2, 12)
    want = [flat.reshape(4, 6), np.concatenate([y, y * 2], axis=1), x + x]
    func = """func.func @f(%%x: %s, %%y: %s) -> (%s, %s, %s) {
  %%0 = nn.flatten %%x : (%s) -> %s
  %%1 = nn.reshape %%0 {shape = array<i64: 4, 6>} : (%s) -> %s
  %%y2 = nn.add %%y, %%y : (%s, %s) -> %s
  %%2 = nn.concat %%y, %%y2 {axis = 1 : i64} : (%s, %s) -> %s
  %%3 = nn.add %%x, %%x : (%s, %s) -> %s
  return %%1, %%2, %%3 : %s, %s, %s
}""" % (ty(x.shape), ty(y.shape), ty((4, 6)), ty((2, 6)), ty(x.shape),
        ty(x.shape), ty((2, 12)), ty((2, 12)), ty((4, 6)),
        ty(y.shape), ty(y.shape), ty(y.shape),
        ty(y.shape), ty(y.shape), ty((2, 6)),
        ty(x.shape), ty(x.shape), ty(x.shape),
        ty((4, 6)), ty((2, 6)), ty(x.shape))
    return "flatten+reshape+concat+add", func, [x, y], want


def softmax_case(axis):
    x = rand(3, 5) * 4
    want = F.softmax(t(x), dim=axis).numpy()
    func = """func.func @f(%%x: %s) -> %s {
  %%0 = nn.softmax %%x {axis = %d : i64} : (%s) -> %s
  return %%0 : %s
}""" % (ty(x.shape), ty(x.shape), axis, ty(x.shape), ty(x.shape), ty(x.shape))
    return "softmax axis %d" % axis, func, [x], [want]


def batch_norm_case():
    x = rand(2, 3, 3, 4)
    scale, offset, mean = rand(4), rand(4), rand(4)
    var = (rng.random(4) + 0.5).astype(np.float32)
    want = F.batch_norm(t(x).reshape(-1, 4), t(mean), t(var), t(scale),
                        t(offset), training=False, eps=1e-3).reshape(x.shape)
    v = ty((4,))
    func = """func.func @f(%%x: %s, %%s: %s, %%o: %s, %%m: %s, %%v: %s) -> %s {
  %%0 = nn.batch_norm %%x, %%s, %%o, %%m, %%v {epsilon = 1.0e-3 : f64} : (%s, %s, %s, %s, %s) -> %s
  return %%0 : %s
}""" % (ty(x.shape), v, v, v, v, ty(x.shape), ty(x.shape), v, v, v, v,
        ty(x.shape), ty(x.shape))
    return "batch_norm", func, [x, scale, offset, mean, var], [want.numpy()]


def losses_case():
    logits = rand(4, 5) * 2
    probs = (rng.random((4, 5)) + 0.05).astype(np.float32)
    probs[0, 0] = 0.0  # clipped to epsilon before the log
    labels = np.array([0, 3, 4, 1], dtype=np.int32)
    l2 = T.l2_loss(t(logits))
    ce = T.sparse_softmax_cross_entropy(t(logits), t(labels))
    cce = T.categorical_cross_entropy(t(probs), t(labels))
    wd = T.weight_decay(0.004, [t(logits)])
    s, y = ty(logits.shape), ty(labels.shape, "i32")
    func = """func.func @f(%%x: %s, %%p: %s, %%y: %s) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %%0 = nn.l2_loss %%x : (%s) -> tensor<f32>
  %%1 = nn.sparse_softmax_cross_entropy %%x, %%y : (%s, %s) -> tensor<f32>
  %%2 = nn.categorical_cross_entropy %%p, %%y : (%s, %s) -> tensor<f32>
  %%3 = nn.weight_decay %%x {scale = 0.004 : f64} : (%s) -> tensor<f32>
  return %%0, %%1, %%2, %%3 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}""" % (s, s, y, s, s, y, s, y, s)
    return ("l2_loss, sparse_softmax_cross_entropy, categorical_cross_entropy, "
            "weight_decay", func, [logits, probs, labels],
            [l2.numpy(), ce.numpy(), cce.numpy(), wd.numpy()])


# --- training-mode forms -----------------------------------------------------

def generic_func(inputs, results, body):
    """@f over `inputs` (arrays) returning `results` (shapes): `body` is
    the ops, on %a0, %a1, ..., ending in values %r0, %r1, ..."""
    args = ", ".join("%%a%d: %s" % (i, oracle.type_of(a))
                     for i, a in enumerate(inputs))
    types = ", ".join(ty(s) for s in results)
    outs = ", ".join("%%r%d" % i for i in range(len(results)))
    return "func.func @f(%s) -> (%s) {\n%s\n  return %s : %s\n}" % (
        args, types, body, outs, types)


def f64(value):
    """An f64 attribute in MLIR's syntax (which wants a decimal point)."""
    return "%.17e : f64" % value


def dropout_case(shape, step, rate, seed):
    """Every element at least 1, so a single wrong mask bit is a mismatch
    far above the tolerance."""
    x = (np.abs(rand(*shape)) + 1).astype(np.float32)
    keep = philox.dropout_keep(shape, step, rate, seed)
    want = np.where(keep, x.astype(np.float64) / (1 - rate), 0.0)
    s = np.array(step, dtype=np.int64)
    body = ("  %%r0 = nn.dropout_train %%a0, %%a1 {rate = %s, seed = %d : i64}"
            " : (%s, tensor<i64>) -> %s" % (f64(rate), seed, ty(shape),
                                                ty(shape)))
    name = "dropout_train %s step %d rate %g seed %#x (%d of %d kept)" % (
        "x".join(map(str, shape)), step, rate, seed, keep.sum(), keep.size)
    return name, generic_func([x, s], [shape], body), [x, s], [want]


def batch_norm_train_case(shape, epsilon):
    x = rand(*shape) * 2 + 0.5
    c = shape[-1]
    scale, offset = rand(c), rand(c)
    flat = t(x).double().reshape(-1, c)
    want = F.batch_norm(flat, None, None, t(scale).double(),
                        t(offset).double(), training=True, eps=epsilon)
    mean = flat.mean(dim=0)
    var = ((flat - mean) ** 2).mean(dim=0)  # biased
    v = ty((c,))
    body = ("  %%r0, %%r1, %%r2 = nn.batch_norm_train %%a0, %%a1, %%a2 "
            "{epsilon = %s} : (%s, %s, %s) -> (%s, %s, %s)" %
            (f64(epsilon), ty(shape), v, v, ty(shape), v, v))
    return ("batch_norm_train %s eps %g (output, mean, biased variance)" %
            ("x".join(map(str, shape)), epsilon),
            generic_func([x, scale, offset], [shape, (c,), (c,)], body),
            [x, scale, offset],
            [want.reshape(shape).numpy(), mean.numpy(), var.numpy()])


def moving_average_case(decay, n):
    average, value = rand(6), (rng.random(6) + 0.1).astype(np.float32)
    correction = n / (n - 1)
    want = decay * average + (1 - decay) * correction * value.astype(
        np.float64)
    body = ("  %%r0 = nn.moving_average %%a0, %%a1 {correction = %s, "
            "decay = %s} : (%s, %s) -> %s" %
            (f64(correction), f64(decay), ty((6,)), ty((6,)), ty((6,))))
    return ("moving_average decay %g, Bessel's correction for n = %d" %
            (decay, n), generic_func([average, value], [(6,)], body),
            [average, value], [want])


def mean_case(shape, axes):
    x = rand(*shape)
    want = x.astype(np.float64).mean(axis=tuple(axes))
    body = "  %%r0 = nn.mean %%a0 {axes = %s} : (%s) -> %s" % (
        arr(axes), ty(shape), ty(want.shape))
    return ("mean %s over %s" % ("x".join(map(str, shape)), list(axes)),
            generic_func([x], [want.shape], body), [x], [want])


def concat_case(a_shape, b_shape, axis):
    a, b = rand(*a_shape), rand(*b_shape)
    want = torch.cat([t(a), t(b)], dim=axis).numpy()
    body = ("  %%r0 = nn.concat %%a0, %%a1 {axis = %d : i64} : (%s, %s) -> %s"
            % (axis, ty(a_shape), ty(b_shape), ty(want.shape)))
    return ("concat axis %d of %s and %s" % (axis, a_shape, b_shape),
            generic_func([a, b], [want.shape], body), [a, b], [want])


def resnet_pads(kernel):
    """tf_cnn_benchmarks' SAME_RESNET above stride 1: k - 1 padding in
    all, half before (rounded down), then VALID."""
    (kh, kw) = kernel
    return [(kh - 1) // 2, kh - 1 - (kh - 1) // 2,
            (kw - 1) // 2, kw - 1 - (kw - 1) // 2]


def parsed_conv_attrs(shape, kernel, filters, stride, padding):
    """The attributes nnc's parser gives the conv2d layer of a .nn model
    with this `padding` (its --emit=nn output)."""
    model = """model m
batch %d
input x: f32[batch, %d, %d, %d] NHWC
c = conv2d(x, filters=%d, kernel=[%d, %d], stride=%d, padding=%s, bias=none)
""" % (shape[0], shape[1], shape[2], shape[3], filters, kernel[0], kernel[1],
       stride, padding)
    out = subprocess.run([os.path.join(TOOLS[0], "nnc"), "-", "--emit=nn"],
                         input=model, check=True, capture_output=True,
                         text=True).stdout
    return re.search(r"nn\.conv2d [^{]*\{([^}]*)\}", out).group(1)


def conv_resnet_case(name, shape, kernel, filters, stride):
    """A conv2d layer with padding=SAME_RESNET, as nnc parses it, against
    the padding tf_cnn_benchmarks gives it."""
    x, wt = rand(*shape), rand(kernel[0], kernel[1], shape[3], filters) * 0.3
    want = T.conv(t(x), t(wt), stride=stride,
                  padding=resnet_pads(kernel)).numpy()
    attrs = parsed_conv_attrs(shape, kernel, filters, stride, "SAME_RESNET")
    body = "  %%r0 = nn.conv2d %%a0, %%a1 {%s} : (%s, %s) -> %s" % (
        attrs, ty(x.shape), ty(wt.shape), ty(want.shape))
    return name, generic_func([x, wt], [want.shape], body), [x, wt], [want]


def training_cases():
    seed = philox.seed_of("drop")
    return [
        dropout_case((2, 3, 5, 4), 0, 0.3, seed),
        dropout_case((2, 3, 5, 4), 5, 0.3, seed),
        dropout_case((7, 11), 2 ** 33 + 2 ** 31, 0.75, 12345),
        dropout_case((5, 9), 3, 0.0, 1),
        dropout_case((64, 64), 1, 0.5, philox.seed_of("dropout_2")),
        batch_norm_train_case((2, 3, 3, 4), 1e-3),
        batch_norm_train_case((6, 5), 1e-5),
        moving_average_case(0.9, 18),
        mean_case((2, 3, 5, 4), (1, 2)),
        concat_case((2, 3, 3, 2), (2, 3, 3, 5), 3),
        concat_case((1, 4, 2), (3, 4, 2), 0),
        conv_case("conv 1x7 SAME", 2, 5, 9, 3, 1, 7, 4, (1, 1), (1, 1),
                  "SAME"),
        conv_case("conv 7x1 SAME", 1, 9, 4, 2, 7, 1, 3, (1, 1), (1, 1),
                  "SAME"),
        conv_resnet_case("conv SAME_RESNET 7x7 stride 2 on 11x11",
                         (1, 11, 11, 3), (7, 7), 4, 2),
        conv_resnet_case("conv SAME_RESNET 3x3 stride 2 on 8x8",
                         (2, 8, 8, 2), (3, 3), 3, 2),
        conv_resnet_case("conv SAME_RESNET 1x7 stride 2 on 6x10",
                         (1, 6, 10, 2), (1, 7), 2, 2),
        conv_resnet_case("conv SAME_RESNET 4x2 stride 2 on 9x6",
                         (1, 9, 6, 2), (4, 2), 3, 2),
    ]


FAMILIES = {
    "conv": lambda: [
        conv_case("conv SAME asymmetric (12, k3, s2)", 2, 12, 12, 3, 3, 3, 4,
                  (2, 2), (1, 1), "SAME"),
        conv_case("conv SAME k11 s4 (AlexNet conv1 shape rule)", 1, 31, 31, 3,
                  11, 11, 2, (4, 4), (1, 1), "SAME"),
        conv_case("conv VALID dilated", 1, 9, 8, 2, 3, 3, 3, (1, 1), (2, 2),
                  "VALID"),
        conv_case("conv explicit padding, strides 2x3", 1, 8, 8, 2, 3, 3, 2,
                  (2, 3), (1, 1), [1, 2, 0, 1]),
        conv_case("conv VALID stride not dividing", 1, 10, 10, 2, 3, 3, 2,
                  (4, 4), (1, 1), "VALID"),
    ],
    "pool": lambda: [
        pool_case("max_pool SAME 3/2 on 5x5", "max", (2, 5, 5, 3), (3, 3),
                  (2, 2), "SAME"),
        pool_case("max_pool VALID 3/2 on 7x6", "max", (1, 7, 6, 2), (3, 3),
                  (2, 2), "VALID"),
        pool_case("avg_pool SAME 3/2 on 5x5", "avg", (2, 5, 5, 3), (3, 3),
                  (2, 2), "SAME"),
        pool_case("avg_pool SAME 2/3 on 7x7", "avg", (1, 7, 7, 2), (2, 2),
                  (3, 3), "SAME"),
        pool_case("avg_pool VALID 2/2", "avg", (1, 6, 4, 2), (2, 2), (2, 2),
                  "VALID"),
    ],
    "lrn": lambda: [
        lrn_case("lrn AlexNet (r2, bias 2, alpha 1e-4, beta .75)",
                 (2, 3, 3, 8), 2, 2.0, 1e-4, 0.75),
        lrn_case("lrn cifar10 (r4, bias 1, alpha .001/9, beta .75)",
                 (1, 2, 2, 6), 4, 1.0, 0.001 / 9.0, 0.75),
        lrn_case("lrn large alpha", (1, 2, 3, 5), 1, 1.5, 0.5, 0.5),
    ],
    "elementwise": lambda: [
        unary_case("relu", F.relu), unary_case("sigmoid", torch.sigmoid),
        unary_case("tanh", torch.tanh), dense_case(), matmul_transposed_case(),
        shapes_case(),
    ],
    "norm": lambda: [softmax_case(-1), softmax_case(0), batch_norm_case()],
    "loss": lambda: [losses_case()],
    "training": training_cases,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", required=True)
    parser.add_argument("--llvm", required=True)
    parser.add_argument("family", choices=sorted(FAMILIES))
    args = parser.parse_args()
    TOOLS[0] = args.tools
    passed = failed = 0
    for name, func, inputs, wants in FAMILIES[args.family]():
        shapes = [np.shape(w) for w in wants]
        gots = oracle.run(args, func, inputs, shapes)
        errs = [oracle.close(g, w) for g, w in zip(gots, wants)]
        ok = all(e[0] for e in errs)
        worst = max(e[1] for e in errs)
        print("%s: %s (max relative error %.2e)" %
              ("match" if ok else "MISMATCH", name, worst))
        passed += ok
        failed += not ok
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
