#!/usr/bin/python3
"""Trains Nishaan's logo embedder: a compact ResNet-style CNN, contrastive (NT-Xent) over pairs of
augmented views of the same simple-icons logo. No pretrained weights; nothing is downloaded.

Input: the files models/train/prepare.ts writes (icons as alpha masks, text lines in the training
fonts, the split by identity). Views are composed and degraded here, in batches, then normalised the
way the ML sidecar normalises an image (workers/sidecar/normalise.ts): flattened, trimmed to what
differs from the top-left pixel, padded square with that colour, resized to SIZE px, grey.

Only train icons are learnt from; validation icons choose the checkpoint; test icons are never read
(bench/logos.ts reports on them). Deterministic for a given seed and thread count.

--device cuda runs the network on a GPU; --views-on device composes the views there too (torch >= 2; the GPU's
random stream, so such a run is the CPU's only in distribution). --steps N fixes the run's length (the learning
rate follows the steps) where --minutes follows the clock. --size and --canvas set the input (v4: 128 on 192).

Usage: nice -n 10 /usr/bin/python3 models/train/train.py --data var/logo-train --minutes 35 --out models
"""
import argparse
import inspect
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import wild

SIZE = 64       # the model's input size (the sidecar normalises to this; models/manifest.json input.size)
CANVAS = 96     # where views are composed before normalising
TRIM = 24 / 255  # the sidecar's trim threshold
# Harder views for v3 (issue 22's uploads), set by --cut, --cut-max and --beside; 0 draws v1's views exactly:
# CUT of the query views cut hard on one side (up to CUT_MAX of the icon), BESIDE with a line of words beside
# the icon at its height.
CUT = 0.0
CUT_MAX = 0.4
BESIDE = 0.0
# Uploads as they really are (issue 44, models/train/wild.py), set by --wild: the share of query views degraded the ways
# scans, phones and web pages degrade logos; 0 draws exactly the views of earlier runs.
WILD = 0.0
# Where views are composed (--views-on): the CPU, or the network's GPU, where torch >= 2 makes every new tensor
# there and the generators are the GPU's (a different random stream: such a run is not the CPU's to the bit).
VDEV = torch.device('cpu')


def generator(seed):
    return torch.Generator(device=VDEV).manual_seed(seed)


# ---- model -------------------------------------------------------------------------------------

class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.skip = None
        if stride != 1 or cin != cout:
            self.skip = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = F.relu(self.b1(self.c1(x)))
        y = self.b2(self.c2(y))
        return F.relu(y + (x if self.skip is None else self.skip(x)))


class LogoNet(nn.Module):
    def __init__(self, width=(32, 64, 128, 256), dims=128):
        super().__init__()
        # Stride 2 then a max pool: the blocks start at 24 px, a quarter of the work of starting at 48.
        self.stem = nn.Sequential(nn.Conv2d(1, width[0], 3, 2, 1, bias=False), nn.BatchNorm2d(width[0]), nn.ReLU(),
                                  nn.MaxPool2d(2))
        layers, cin = [], width[0]
        for k, w in enumerate(width):
            layers.append(Block(cin, w, 1 if k == 0 else 2))
            cin = w
        self.layers = nn.Sequential(*layers)
        self.head = nn.Linear(cin, dims)

    def forward(self, x):
        # x: (N, 1, SIZE, SIZE) grey in [0, 1]; centred here so the exported graph takes plain pixels.
        y = self.layers(self.stem((x - 0.5) / 0.25))
        y = self.head(y.mean(dim=(2, 3)))
        return F.normalize(y, dim=1)


# ---- views -------------------------------------------------------------------------------------

def uniform(g, n, lo, hi):
    return lo + (hi - lo) * torch.rand(n, generator=g)


def place(src, n, g, scale, dx, dy, rot, flip, persp, aspect=1.0):
    """Samples `src` (N, 1, h, w) onto the canvas through a per-view homography."""
    ca, sa = torch.cos(rot), torch.sin(rot)
    fwd = torch.zeros(n, 3, 3)
    sx = scale * flip
    sy = scale * aspect
    fwd[:, 0, 0], fwd[:, 0, 1], fwd[:, 0, 2] = ca * sx, -sa * sy, dx
    fwd[:, 1, 0], fwd[:, 1, 1], fwd[:, 1, 2] = sa * sx, ca * sy, dy
    fwd[:, 2, 0], fwd[:, 2, 1], fwd[:, 2, 2] = persp[:, 0], persp[:, 1], 1
    inv = torch.linalg.inv(fwd)
    lin = torch.linspace(-1 + 1 / CANVAS, 1 - 1 / CANVAS, CANVAS)
    yy, xx = torch.meshgrid(lin, lin, indexing='ij')
    pts = torch.stack([xx, yy, torch.ones_like(xx)], -1).reshape(1, -1, 3)
    m = pts @ inv.transpose(1, 2)
    grid = (m[..., :2] / m[..., 2:3]).reshape(n, CANVAS, CANVAS, 2)
    return F.grid_sample(src, grid, mode='bilinear', padding_mode='zeros', align_corners=False)


def colours(g, n):
    fg, bg = torch.rand(n, 3, generator=g), torch.rand(n, 3, generator=g)
    white = torch.rand(n, generator=g) < 0.45
    bg[white] = 1.0
    lum = lambda c: c @ torch.tensor([0.299, 0.587, 0.114])
    close = (lum(fg) - lum(bg)).abs() < 0.3
    fg[close] = torch.where(lum(bg[close])[:, None] > 0.5, fg[close] * 0.3, 0.7 + fg[close] * 0.3)
    return fg, bg


def backgrounds(g, n, bg):
    img = bg[:, :, None, None].expand(n, 3, CANVAS, CANVAS).clone()
    kind = torch.rand(n, generator=g)
    grad = kind < 0.12
    if grad.any():
        k = int(grad.sum())
        other = torch.rand(k, 3, generator=g)
        t = torch.linspace(0, 1, CANVAS)
        ramp = t[None, None, :, None] if torch.rand(1, generator=g) < 0.5 else t[None, None, None, :]
        img[grad] = img[grad] * (1 - ramp * 0.6) + other[:, :, None, None] * ramp * 0.6
    tex = (kind >= 0.12) & (kind < 0.2)
    if tex.any():
        k = int(tex.sum())
        noise = torch.rand(k, 1, 16, 16, generator=g)
        noise = F.interpolate(noise, size=(CANVAS, CANVAS), mode='bilinear', align_corners=False)
        img[tex] = (img[tex] * (0.8 + 0.2 * noise)).clamp(0, 1)
    return img


def normalise(rgb):
    """What the sidecar does to an image: grey, trim to what differs from the top-left pixel, square, 96 px."""
    grey = (rgb * torch.tensor([0.299, 0.587, 0.114])[None, :, None, None]).sum(1, keepdim=True)
    n = grey.shape[0]
    corner = grey[:, :, :1, :1]
    on = (grey - corner).abs() > TRIM
    rows, cols = on.any(3)[:, 0], on.any(2)[:, 0]
    idx = torch.arange(CANVAS)
    big = CANVAS + 1
    top = torch.where(rows, idx, big).min(1).values
    bottom = torch.where(rows, idx, -1).max(1).values
    left = torch.where(cols, idx, big).min(1).values
    right = torch.where(cols, idx, -1).max(1).values
    empty = bottom < top
    top[empty], left[empty], bottom[empty], right[empty] = 0, 0, CANVAS - 1, CANVAS - 1
    cy, cx = (top + bottom + 1).float() / 2, (left + right + 1).float() / 2
    side = torch.maximum(bottom - top + 1, right - left + 1).float()
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = side / CANVAS
    theta[:, 1, 1] = side / CANVAS
    theta[:, 0, 2] = cx / CANVAS * 2 - 1
    theta[:, 1, 2] = cy / CANVAS * 2 - 1
    grid = F.affine_grid(theta, (n, 1, SIZE, SIZE), align_corners=False)
    return F.grid_sample(grey - corner, grid, mode='bilinear', padding_mode='zeros', align_corners=False) + corner


def pose(g, n):
    """Where a query-like view puts its icon: scale, shift, crop off one side, turn, mirror, warp, and
    whether a caption goes below (the icon then smaller and higher)."""
    scale = uniform(g, n, 0.35, 0.95)
    dx, dy = uniform(g, n, -0.4, 0.4) * (1 - scale), uniform(g, n, -0.4, 0.4) * (1 - scale)
    crop = torch.rand(n, generator=g) < 0.2
    dx[crop] += torch.sign(uniform(g, int(crop.sum()), -1, 1)) * uniform(g, int(crop.sum()), 0.05, 0.3) * scale[crop]
    rot = torch.where(torch.rand(n, generator=g) < 0.6, uniform(g, n, -0.26, 0.26), torch.zeros(n))
    flip = torch.where(torch.rand(n, generator=g) < 0.3, -torch.ones(n), torch.ones(n))
    persp = torch.where((torch.rand(n, generator=g) < 0.3)[:, None], (torch.rand(n, 2, generator=g) - 0.5) * 0.5,
                        torch.zeros(n, 2))
    captioned = torch.rand(n, generator=g) < 0.35
    scale[captioned] *= 0.75
    dy[captioned] -= 0.18
    beside = torch.zeros(n, dtype=torch.bool)
    # Drawn only when asked for, so that v1's and v2's runs draw exactly what they drew.
    if BESIDE > 0:
        beside = (torch.rand(n, generator=g) < BESIDE) & ~captioned
        k = int(beside.sum())
        scale[beside] = uniform(g, k, 0.18, 0.4)
        # Mostly on the left, as on a letterhead; the words go on the other side (caption).
        side = torch.where(torch.rand(k, generator=g) < 0.8, -1.0, 1.0)
        dx[beside] = side * (1 - scale[beside]) * uniform(g, k, 0.85, 1.0)
        dy[beside] = uniform(g, k, -0.1, 0.1)
    if CUT > 0:
        cut = (torch.rand(n, generator=g) < CUT) & ~captioned & ~beside
        k = int(cut.sum())
        # The icon's edge goes past the canvas's by `share` of its extent: edge = offset + scale = 1 + 2 scale share.
        share = uniform(g, k, 0.1, CUT_MAX)
        off = (1 - scale[cut] + 2 * scale[cut] * share) * torch.where(torch.rand(k, generator=g) < 0.5, -1.0, 1.0)
        vertical = torch.rand(k, generator=g) < 0.5
        dx[cut] = torch.where(vertical, dx[cut], off)
        dy[cut] = torch.where(vertical, off, dy[cut])
    return scale, dx, dy, rot, flip, persp, captioned, beside


def caption(img, captioned, fg, texts, g, beside=None, scale=None, dx=None, dy=None):
    """Writes a line of text (one of `texts`) on the views `captioned`, mostly below the icon, and on the
    views `beside` at the icon's height in the room on its other side (in place)."""
    if beside is not None and beside.any():
        k = int(beside.sum())
        s, x = scale[beside], dx[beside]
        gap = uniform(g, k, 0.04, 0.15)
        # Half the room between the icon's inner edge (x + s on the left, x - s on the right) and the far edge.
        tw = (1 + x.abs() - s - gap) / 2 * uniform(g, k, 0.75, 1.0)
        tx = x - torch.sign(x) * (s + gap + tw)
        t = place(texts[torch.randint(0, texts.shape[0], (k,), generator=g)], k, g, tw, tx,
                  dy[beside] + uniform(g, k, -0.05, 0.05), torch.zeros(k), torch.ones(k), torch.zeros(k, 2),
                  aspect=texts.shape[2] / texts.shape[3])
        tc = torch.where(torch.rand(k, 1, generator=g) < 0.4, fg[beside], torch.rand(k, 3, generator=g) * 0.3)
        img[beside] = img[beside] * (1 - t) + tc[:, :, None, None] * t
    if captioned.any():
        k = int(captioned.sum())
        tidx = torch.randint(0, texts.shape[0], (k,), generator=g)
        tw = uniform(g, k, 0.5, 0.95)
        below = torch.rand(k, generator=g) < 0.75
        ty = torch.where(below, uniform(g, k, 0.55, 0.8), uniform(g, k, -0.8, -0.55))
        t = place(texts[tidx], k, g, tw, uniform(g, k, -0.08, 0.08), ty, uniform(g, k, -0.05, 0.05),
                  torch.ones(k), torch.zeros(k, 2), aspect=texts.shape[2] / texts.shape[3])
        tc = torch.where(torch.rand(k, 1, generator=g) < 0.6, fg[captioned], torch.rand(k, 3, generator=g))
        img[captioned] = img[captioned] * (1 - t) + tc[:, :, None, None] * t


def across(img, sel, texts, g, scale, dx, dy):
    """A line of words written across the icon of the views `sel`, in any colour (in place)."""
    if not sel.any():
        return
    k = int(sel.sum())
    tw = scale[sel] * uniform(g, k, 0.8, 1.4)
    ty = dy[sel] + scale[sel] * uniform(g, k, -0.5, 0.5)
    t = place(texts[torch.randint(0, texts.shape[0], (k,), generator=g)], k, g, tw, dx[sel], ty, uniform(g, k, -0.3, 0.3),
              torch.ones(k), torch.zeros(k, 2), aspect=texts.shape[2] / texts.shape[3])
    img[sel] = img[sel] * (1 - t) + torch.rand(k, 3, generator=g)[:, :, None, None] * t


def degrade(img, g, n):
    """A batch of composed views blurred, made blocky (as by JPEG) or noisy, each at random (in place)."""
    blur = torch.rand(n, generator=g) < 0.3
    if blur.any():
        # Sizes drawn for the 96-px canvas, scaled with a larger one (--canvas): the same blur relative to the view.
        s = int(torch.randint(28, 72, (1,), generator=g)) * CANVAS // 96
        low = F.interpolate(img[blur], size=(s, s), mode='area')
        img[blur] = F.interpolate(low, size=(CANVAS, CANVAS), mode='bilinear', align_corners=False)
    blocky = torch.rand(n, generator=g) < 0.15
    if blocky.any():
        sub = img[blocky]
        img[blocky] = 0.75 * sub + 0.25 * F.interpolate(F.avg_pool2d(sub, 8), scale_factor=8, mode='nearest')
    noisy = torch.rand(n, generator=g) < 0.25
    if noisy.any():
        img[noisy] = (img[noisy] + torch.randn(img[noisy].shape, generator=g) * 0.03).clamp(0, 1)
    return img


class Views:
    def __init__(self, icons, texts):
        self.icons = torch.from_numpy(icons).to(VDEV).float().div_(255).unsqueeze(1)
        self.texts = torch.from_numpy(texts).to(VDEV).float().div_(255).unsqueeze(1)

    def clean(self, idx, g):
        """Gallery-like: the icon in some colour on a plain background, nearly as drawn."""
        n = len(idx)
        src = self.icons[idx]
        zero = torch.zeros(n)
        a = place(src, n, g, uniform(g, n, 0.7, 0.9), uniform(g, n, -0.05, 0.05), uniform(g, n, -0.05, 0.05),
                  zero, torch.ones(n), torch.zeros(n, 2))
        fg, bg = colours(g, n)
        plain = torch.rand(n, generator=g) < 0.7
        bg[plain] = 1.0
        img = bg[:, :, None, None] * (1 - a) + fg[:, :, None, None] * a
        return normalise(img)

    def perturbed(self, idx, g):
        """A query-like view: moved, turned, warped, mirrored, cropped, captioned, recoloured, degraded; with --wild,
        a share of them also small on a busy page, crossed by words, and degraded as uploads are (wild.py)."""
        n = len(idx)
        src = self.icons[idx]
        scale, dx, dy, rot, flip, persp, captioned, beside = pose(g, n)
        sel = busy = None
        if WILD > 0:
            sel = torch.rand(n, generator=g) < WILD
            busy = sel & (torch.rand(n, generator=g) < 0.3) & ~captioned & ~beside
            k = int(busy.sum())
            if k:
                scale[busy] = uniform(g, k, 0.18, 0.4)
                dx[busy] = uniform(g, k, -0.85, 0.85) * (1 - scale[busy])
                dy[busy] = uniform(g, k, -0.85, 0.85) * (1 - scale[busy])
        a = place(src, n, g, scale, dx, dy, rot, flip, persp)
        fg, bg = colours(g, n)
        img = backgrounds(g, n, bg)
        if busy is not None and busy.any():
            img[busy] = wild.clutter(img[busy], g, CANVAS)
        img = img * (1 - a) + fg[:, :, None, None] * a
        caption(img, captioned, fg, self.texts, g, beside, scale, dx, dy)
        if sel is not None:
            across(img, sel & (torch.rand(n, generator=g) < 0.2), self.texts, g, scale, dx, dy)
            img = wild.degrade_wild(img, sel, g, CANVAS)
        return normalise(degrade(img, g, n))


# ---- training ----------------------------------------------------------------------------------

class Symmetric(nn.Module):
    """The embedding of an image and of its mirror image, added: a mirrored logo embeds exactly as the
    logo does. Exported as a candidate beside the plain model; validation decides."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return F.normalize(self.net(x) + self.net(torch.flip(x, dims=[3])), dim=1)


class Proxies(nn.Module):
    """One learnt unit vector per training identity: a normalised softmax over all of them sees every
    identity as a negative at every step, which converges far faster on two cores than the batch's
    negatives alone. Used in training only; the exported model ends at the embedding."""

    def __init__(self, n, dims=128, scale=16.0):
        super().__init__()
        self.w = nn.Parameter(torch.randn(n, dims) * 0.1)
        self.scale = scale

    def forward(self, z, labels):
        return F.cross_entropy(self.scale * z @ F.normalize(self.w, dim=1).t(), labels)


def nt_xent(a, b, tau):
    z = torch.cat([a, b])
    sim = z @ z.t() / tau
    n = a.shape[0]
    sim.fill_diagonal_(-1e9)
    target = torch.cat([torch.arange(n, 2 * n, device=a.device), torch.arange(0, n, device=a.device)])
    return F.cross_entropy(sim, target)


@torch.no_grad()
def embed(model, x, batch=256):
    model.eval()
    dev = next(model.parameters()).device
    out = torch.cat([model(x[i:i + batch].to(dev)).to(x.device) for i in range(0, len(x), batch)])
    model.train()
    return out


@torch.no_grad()
def evaluate(model, views, gallery_x, gallery_group, val_idx, val_group, seed):
    """Recall@1/@10 of perturbed validation icons against every icon's clean view."""
    g = generator(seed)
    q = torch.cat([views.perturbed(val_idx[i:i + 256], g) for i in range(0, len(val_idx), 256)])
    ge = embed(model, gallery_x)
    qe = embed(model, q)
    top = (qe @ ge.t()).topk(10, dim=1).indices
    hit = gallery_group[top] == val_group[:, None]
    return hit[:, 0].float().mean().item(), hit.any(1).float().mean().item()


@torch.no_grad()
def start_proxies(model, proxies, views, train_idx, labels_all):
    """Each proxy at its identity's clean view, where the model already puts it, so that the first steps refine
    the model instead of pulling it towards random points."""
    first = {int(labels_all[k]): k for k in train_idx.tolist()}
    keys = sorted(first)
    z = embed(model, views.clean(torch.tensor([first[c] for c in keys]), generator(9)))
    proxies.w[torch.tensor(keys, device=proxies.w.device)] = z.to(proxies.w.device)


def export(model, path):
    """ONNX as v1 and v2 were written (opset 13, batch axis free), also from a newer torch, whose default
    exporter is another one."""
    model = model.cpu().eval()
    newer = 'dynamo' in inspect.signature(torch.onnx.export).parameters
    try:
        torch.onnx.export(model, torch.rand(1, 1, SIZE, SIZE), path, opset_version=13,
                          input_names=['image'], output_names=['embedding'],
                          dynamic_axes={'image': {0: 'batch'}, 'embedding': {0: 'batch'}},
                          **({'dynamo': False} if newer else {}))
    except Exception as e:  # a torch without the older exporter: its own, still with the batch axis free
        if not newer:
            raise
        print(f'older ONNX exporter failed ({e}); using the newer one', flush=True)
        torch.onnx.export(model, (torch.rand(1, 1, SIZE, SIZE),), path, input_names=['image'],
                          output_names=['embedding'], dynamic_axes={'image': {0: 'batch'}, 'embedding': {0: 'batch'}},
                          dynamo=True)


def save(path, model, proxies, steps):
    cpu = lambda sd: {k: v.detach().cpu() for k, v in sd.items()}
    torch.save({'model': cpu(model.state_dict()), 'proxies': cpu(proxies.state_dict()), 'steps': steps}, path)
    # The weights alone in a format any torch reads (a GPU machine's newer torch saves .pt an older one may not).
    np.savez(path[:-3] + '.npz', **{k: v.numpy() for k, v in cpu(model.state_dict()).items()})


def main():
    global CUT, CUT_MAX, BESIDE, WILD, SIZE, CANVAS, VDEV
    p = argparse.ArgumentParser()
    p.add_argument('--data', default='var/logo-train')
    p.add_argument('--out', default='models')
    p.add_argument('--minutes', type=float, default=35, help='the learning rate follows the clock over these minutes, '
                   'unless --steps is given (then they only stop a run that is too slow, and its report says so)')
    p.add_argument('--steps', type=int, default=0, help='train this many steps, the learning rate following them')
    p.add_argument('--size', type=int, default=SIZE, help="the model's input, px a side (models/manifest.json input.size)")
    p.add_argument('--canvas', type=int, default=CANVAS, help='where views are composed, px (a multiple of 8)')
    p.add_argument('--device', default='cpu', help='where the network runs: cpu or cuda')
    p.add_argument('--views-on', default='cpu', choices=['cpu', 'device'], help='where views are composed')
    p.add_argument('--batch', type=int, default=64)
    p.add_argument('--width', default='24,48,96,192', help='channels of the four stages')
    p.add_argument('--lr', type=float, default=3e-3)
    p.add_argument('--tau', type=float, default=0.1)
    p.add_argument('--proxy-weight', type=float, default=1.0)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--name', default='nishaan-logo-cnn-v1')
    p.add_argument('--init', default='', help='a checkpoint (.pt) of an earlier run to continue from')
    p.add_argument('--eval-every', type=float, default=300, help='seconds between validations (and checkpoints)')
    p.add_argument('--init-onnx', default='', help='start from a committed model (ONNX) instead, as v3 starts from v1')
    p.add_argument('--cut', type=float, default=0.0, help='share of query views cut hard on one side (CUT)')
    p.add_argument('--cut-max', type=float, default=0.4, help='the most of the icon such a cut removes')
    p.add_argument('--beside', type=float, default=0.0, help='share of query views with words beside the icon')
    p.add_argument('--wild', type=float, default=0.0, help='share of query views degraded as uploads are (wild.py)')
    p.add_argument('--export-only', action='store_true', help='export --init to ONNX without training')
    p.add_argument('--symmetric', action='store_true', help='export the mirror-symmetric candidate (Symmetric) instead')
    args = p.parse_args()
    CUT, CUT_MAX, BESIDE, WILD = args.cut, args.cut_max, args.beside, args.wild
    SIZE, CANVAS = args.size, args.canvas
    dev = torch.device(args.device)
    if args.views_on == 'device' and dev.type != 'cpu':
        VDEV = dev
        torch.set_default_device(dev)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)

    meta = json.load(open(os.path.join(args.data, 'meta.json')))
    n_icons, th, tw = len(meta['icons']), meta['text'][0], meta['text'][1]
    icons = np.fromfile(os.path.join(args.data, 'icons.u8'), np.uint8).reshape(n_icons, meta['icon'], meta['icon'])
    texts = np.fromfile(os.path.join(args.data, 'texts.u8'), np.uint8).reshape(meta['texts'], th, tw)
    views = Views(icons, texts)
    split = [i['split'] for i in meta['icons']]
    groups = {gname: k for k, gname in enumerate(sorted({i['group'] for i in meta['icons']}))}
    group = torch.tensor([groups[i['group']] for i in meta['icons']])
    train_idx = torch.tensor([k for k, s in enumerate(split) if s == 'train'])
    val_idx = torch.tensor([k for k, s in enumerate(split) if s == 'val'])
    # The validation gallery holds train and validation icons (test icons are never read here).
    gal_idx = torch.tensor([k for k, s in enumerate(split) if s != 'test'])
    g0 = generator(99)
    gallery_x = torch.cat([views.clean(gal_idx[i:i + 256], g0) for i in range(0, len(gal_idx), 256)])

    model = LogoNet(width=tuple(int(w) for w in args.width.split(','))).to(dev)
    params = sum(p.numel() for p in model.parameters())
    # Training identities are numbered 0..n-1 for the proxies.
    train_groups = sorted({int(group[k]) for k in train_idx})
    label_of = {gid: k for k, gid in enumerate(train_groups)}
    labels_all = torch.tensor([label_of.get(int(gid), -1) for gid in group])
    proxies = Proxies(len(train_groups)).to(dev)
    print(f'{params:,} parameters; train {len(train_idx)}, val {len(val_idx)} icons; {args.minutes} min', flush=True)
    if args.init.endswith('.npz'):
        model.load_state_dict({k: torch.from_numpy(x).to(dev) for k, x in np.load(args.init).items()})
        start_proxies(model, proxies, views, train_idx, labels_all)
        print(f'weights from {args.init}, proxies at the clean views', flush=True)
    elif args.init:
        ck = torch.load(args.init, map_location=dev)
        model.load_state_dict(ck['model'])
        proxies.load_state_dict(ck['proxies'])
        print(f'continuing from {args.init} ({ck["steps"]} steps before)', flush=True)
        if not all(torch.isfinite(q).all() for q in proxies.parameters()):
            # v3's first run saved its best model beside the proxies of its last (NaN) state.
            start_proxies(model, proxies, views, train_idx, labels_all)
            print('  its proxies were not finite: started again at the clean views', flush=True)
    elif args.init_onnx:
        from v1weights import load_v1
        calib = torch.cat([views.clean(train_idx[:64], generator(7)),
                           views.perturbed(train_idx[64:128], generator(8))]).to(dev)
        load_v1(model, args.init_onnx, calib)
        start_proxies(model, proxies, views, train_idx, labels_all)
        print(f'starting from {args.init_onnx}', flush=True)
    opt = torch.optim.AdamW(list(model.parameters()) + list(proxies.parameters()), lr=args.lr, weight_decay=1e-4)
    os.makedirs(args.out, exist_ok=True)
    ckpt = os.path.join(args.out, f'{args.name}.pt')
    prior = torch.load(args.init, map_location='cpu')['steps'] if args.init.endswith('.pt') else 0
    g = generator(args.seed)
    budget = args.minutes * 60
    t0 = time.time()
    step, best, history, stopped = 0, (-1.0, -1.0), [], False
    best_state = None
    next_eval = args.eval_every
    while not args.export_only:
        elapsed = time.time() - t0
        if elapsed > budget or (args.steps and step >= args.steps):
            stopped = bool(args.steps) and step < args.steps
            break
        frac = step / args.steps if args.steps else elapsed / budget
        lr = args.lr * min(1.0, (step + 1) / 100) * (0.5 * (1 + math.cos(math.pi * frac)))
        for pg in opt.param_groups:
            pg['lr'] = lr
        idx = train_idx[torch.randperm(len(train_idx), generator=g)[:args.batch]]
        a = views.clean(idx, g) if step % 2 == 0 else views.perturbed(idx, g)
        b = views.perturbed(idx, g)
        if not (torch.isfinite(a).all() and torch.isfinite(b).all()):
            # A view that is not finite (a degenerate warp) would poison the batch norms' running statistics in
            # the forward pass itself, before any loss could be checked: v3's runs met one at step 5,246.
            print(f'step {step}: a view is not finite, batch skipped', flush=True)
            step += 1
            continue
        za, zb = model(a.to(dev)), model(b.to(dev))
        y = labels_all[idx].to(dev)
        loss = nt_xent(za, zb, args.tau) + args.proxy_weight * (proxies(za, y) + proxies(zb, y)) / 2
        opt.zero_grad()
        loss.backward()
        # A batch whose loss or gradients are not finite is skipped too, which changes nothing for a run that never
        # meets one.
        grads = [q.grad for q in opt.param_groups[0]['params'] if q.grad is not None]
        if not torch.isfinite(loss) or not all(torch.isfinite(q).all() for q in grads):
            print(f'step {step}: loss or gradients not finite, batch skipped', flush=True)
            step += 1
            continue
        opt.step()
        step += 1
        if step % 50 == 0 or step == 5:
            print(f'step {step} {elapsed / 60:.1f} min loss {loss.item():.3f} lr {lr:.5f}', flush=True)
        if elapsed > next_eval or time.time() - t0 > budget:
            next_eval += args.eval_every
            r1, r10 = evaluate(model, views, gallery_x, group[gal_idx], val_idx, group[val_idx], 1234)
            history.append({'minutes': round(elapsed / 60, 1), 'step': step, 'val_recall_at_1': r1, 'val_recall_at_10': r10})
            print(f'  val recall@1 {r1:.3f} @10 {r10:.3f}', flush=True)
            if (r1, r10) >= best:
                best = (r1, r10)
                best_state = {k: v.clone() for k, v in model.state_dict().items()}
                best_proxies = {k: v.clone() for k, v in proxies.state_dict().items()}
            save(ckpt, model, proxies, prior + step)
    r1, r10 = evaluate(model, views, gallery_x, group[gal_idx], val_idx, group[val_idx], 1234)
    if args.export_only:
        args.name += '-export'
    history.append({'minutes': round((time.time() - t0) / 60, 1), 'step': step, 'val_recall_at_1': r1, 'val_recall_at_10': r10})
    print(f'final val recall@1 {r1:.3f} @10 {r10:.3f}', flush=True)
    if best_state is not None and best > (r1, r10):
        save(ckpt[:-3] + '-last.pt', model, proxies, prior + step)
        model.load_state_dict(best_state)
        proxies.load_state_dict(best_proxies)
        print(f'kept the best checkpoint on validation: {best}', flush=True)

    if not args.export_only:
        save(ckpt, model, proxies, prior + step)
    model.eval().cpu()
    if args.symmetric:
        args.name += '-sym'
        model = Symmetric(model).eval()
    onnx_path = os.path.join(args.out, f'{args.name}.onnx')
    if VDEV.type != 'cpu':
        torch.set_default_device('cpu')
    export(model, onnx_path)
    report = {
        'name': args.name, 'parameters': params, 'steps': prior + step, 'continued_from': args.init or None, 'minutes': round((time.time() - t0) / 60, 1),
        'batch': args.batch, 'width': args.width, 'lr': args.lr, 'tau': args.tau, 'proxy_weight': args.proxy_weight, 'input_size': SIZE, 'seed': args.seed, 'threads': args.threads,
        'init_onnx': args.init_onnx or None, 'steps_asked': args.steps or None, 'stopped_by_minutes': stopped,
        'canvas': CANVAS, 'device': args.device, 'views_on': args.views_on, 'cut': args.cut, 'cut_max': args.cut_max, 'beside': args.beside, 'wild': args.wild,
        'torch': torch.__version__, 'validation': history,
    }
    json.dump(report, open(os.path.join(args.out, f'{args.name}.train.json'), 'w'), indent=2)
    print(f'wrote {onnx_path}', flush=True)


if __name__ == '__main__':
    main()
