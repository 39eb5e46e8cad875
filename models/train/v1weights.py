"""Reads nishaan-logo-cnn-v1's weights back from its committed ONNX file into train.py's LogoNet, so v2
starts from v1 without a checkpoint that was never committed.

The export folded each BatchNorm into the convolution before it (weight and bias), so the norms are
rebuilt: calibration images give each convolution's per-channel mean m and deviation s, and the norm
after it becomes gamma = s, beta = bias + m, running mean m, running variance s^2 - eps. In eval mode that
is exactly the folded layer (v1 to the last bit of rounding); in training mode, where the batch's own
statistics are used, it starts out close to it instead of rescaling every channel at the first step.
"""
import onnx
import torch
from onnx import numpy_helper

from train import LogoNet


def _norm_after(conv_name):
    # stem.0 -> stem.1; layers.k.c1 -> layers.k.b1; layers.k.c2 -> .b2; layers.k.skip.0 -> layers.k.skip.1
    if conv_name.endswith('.c1'):
        return conv_name[:-3] + '.b1'
    if conv_name.endswith('.c2'):
        return conv_name[:-3] + '.b2'
    head, k = conv_name.rsplit('.', 1)
    return f'{head}.{int(k) + 1}'


@torch.no_grad()
def load_v1(model: LogoNet, path: str, calibration=None):
    graph = onnx.load(path).graph
    dev = next(model.parameters()).device
    init = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()).to(dev) for i in graph.initializer}
    modules = dict(model.named_modules())
    folded = {}
    for node in graph.node:
        if node.op_type != 'Conv':
            continue
        # Output names carry the module path: /layers/layers.1/skip/skip.0/Conv_output_0 -> layers.1.skip.0
        # (a Sequential's child is scoped as parent.index, anything else by its attribute name).
        path = []
        for c in node.output[0].split('/')[1:-1]:
            path.append(c[len(path[-1]) + 1:] if path and c.startswith(path[-1].split('.')[-1] + '.') else c)
        name = '.'.join(path)
        conv = modules[name]
        w, b = init[node.input[1]], init[node.input[2]]
        assert conv.weight.shape == w.shape, (name, conv.weight.shape, w.shape)
        conv.weight.copy_(w)
        folded[name] = b
    model.head.weight.copy_(init['head.weight'])
    model.head.bias.copy_(init['head.bias'])
    assert len(folded) == sum(1 for m in modules.values() if isinstance(m, torch.nn.Conv2d)), 'a convolution was not read'
    # First the folded layer exactly (identity norm plus the bias), to measure what each convolution gives.
    stats = {}
    for name, b in folded.items():
        bn = modules[_norm_after(name)]
        bn.weight.fill_(1.0)
        bn.bias.copy_(b)
        bn.running_mean.zero_()
        bn.running_var.fill_(1.0 - bn.eps)
        modules[name].register_forward_hook(
            lambda _m, _i, out, n=name: stats.__setitem__(n, (out.mean((0, 2, 3)), out.std((0, 2, 3)) + 1e-3)))
    model.eval()
    x = calibration if calibration is not None else torch.rand(64, 1, 64, 64)
    before = model(x)
    for name, (m, s) in stats.items():
        bn = modules[_norm_after(name)]
        bn.weight.copy_(s)
        bn.bias.copy_(folded[name] + m)
        bn.running_mean.copy_(m)
        bn.running_var.copy_(s * s - bn.eps)
    for mod in modules.values():
        mod._forward_hooks.clear()
    after = model(x)
    model.train()
    drift = (before - after).abs().max().item()
    assert drift < 1e-3, f'v1 not reproduced after rebuilding the norms ({drift})'
    return drift
