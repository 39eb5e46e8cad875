#!/usr/bin/python3
"""Trains the concept-aware logo embedder (nishaan-logo-cnn-v2, issue 22 item 2): the v1 network, started
from v1's committed weights, taught copies and concepts at once.

Positives are (a) two augmented views of one logo, as v1 learnt (simple-icons train icons and a quarter of
the npm sets' icons of no concept, each its own identity), and (b) an icon and another icon of the same
concept, from another set where there is one (the concept catalogue, data/icons/catalogue.json: icons
grouped by the concept their name names, synonyms included). Held-out sets, concepts and distractors are
not in the files prepare.ts writes (models/train/conceptSet.ts), so they cannot be read here.

Losses: supervised contrastive (SupCon, tau) over both views of the batch, a view's positives being every
view with its label (its identity, or its concept); a normalised softmax over per-identity proxies for copy
items and over per-concept proxies for concept items. Half of each batch is copy items, half concept items.

Reproducible: a fixed number of steps (--steps; the cosine schedule runs on steps), one seed, and the
thread count given (--threads; results depend on it). --minutes is only a safety stop, reported when hit.

--device cuda runs the network on a GPU; the views are still composed on the CPU from the same seeded
generator (--threads of them), so a GPU run sees the very images the CPU run of the same command sees and
differs from it only by the GPU's rounding. --until schedules on the clock instead of --steps (for a lent
GPU of unknown speed; not reproducible). --concept-share, --concept-proxy, --partner, --size and --canvas
(the model's input and the composing canvas; the ONNX input and models/manifest.json input.size follow
--size) are the knobs the second round of issue 22 item 2 tried (bench/RESULTS.md); their defaults are v2's.

Usage: nice -n 19 /usr/bin/python3 models/train/train_concepts.py --data var/logo-train --steps 600 --threads 2
       /usr/bin/python3 models/train/train_concepts.py --export <name>.pt|.npz --name <name> [--size 96]
         (the ONNX of a run's weights, written with this torch's exporter; a GPU run leaves both files)
"""
import argparse
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import train
from train import LogoNet, Proxies, backgrounds, caption, colours, degrade, normalise, pose, place, uniform
from v1weights import load_v1


class InkViews:
    """Views as train.py's Views composes them, for icons that may carry their own grey (emoji): a
    monochrome icon is drawn in a random ink, a colour icon in its own grey, sometimes tinted."""

    def __init__(self, alpha, ink, colour, texts):
        self.alpha = torch.from_numpy(alpha)      # uint8 (N, s, s): converted per batch, not held as float
        self.ink = torch.from_numpy(ink)
        self.colour = torch.from_numpy(colour)
        self.texts = torch.from_numpy(texts).float().div_(255).unsqueeze(1)

    def layers(self, idx, g, n, fg):
        a = self.alpha[idx].float().div_(255).unsqueeze(1)
        ink = self.ink[idx].float().div_(255).unsqueeze(1)
        col = self.colour[idx]
        tint = 0.6 + 0.4 * torch.rand(n, 3, generator=g)
        paint = torch.where(col[:, None, None, None], ink.expand(n, 3, *ink.shape[2:]) * tint[:, :, None, None],
                            fg[:, :, None, None].expand(n, 3, *ink.shape[2:]))
        return torch.cat([a, paint], 1)   # (N, 4, s, s): alpha, then the paint, placed together

    def clean(self, idx, g):
        n = len(idx)
        fg, bg = colours(g, n)
        plain = torch.rand(n, generator=g) < 0.7
        bg[plain] = 1.0
        black = torch.rand(n, generator=g) < 0.5
        fg[black] = 0.0
        src = self.layers(idx, g, n, fg)
        zero = torch.zeros(n)
        p = place(src, n, g, uniform(g, n, 0.7, 0.9), uniform(g, n, -0.05, 0.05), uniform(g, n, -0.05, 0.05),
                  zero, torch.ones(n), torch.zeros(n, 2))
        a, paint = p[:, :1], p[:, 1:]
        img = bg[:, :, None, None] * (1 - a) + paint * a
        return normalise(img)

    def perturbed(self, idx, g):
        n = len(idx)
        scale, dx, dy, rot, flip, persp, captioned, _ = pose(g, n)
        fg, bg = colours(g, n)
        p = place(self.layers(idx, g, n, fg), n, g, scale, dx, dy, rot, flip, persp)
        a, paint = p[:, :1], p[:, 1:]
        img = backgrounds(g, n, bg)
        img = img * (1 - a) + paint * a
        caption(img, captioned, fg, self.texts, g)
        return normalise(degrade(img, g, n))


def freeze_norms(model):
    """Batch norms keep v1's statistics (eval mode) while their scale and shift still learn: v2 starts as
    exactly v1, and batches of 64 mixing emoji and line drawings do not re-estimate them."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def supcon(z, labels, tau):
    """Supervised contrastive loss: each view's positives are all other views with its label."""
    sim = z @ z.t() / tau
    eye = torch.eye(len(z), dtype=torch.bool, device=z.device)
    sim = sim.masked_fill(eye, -1e9)
    pos = (labels[:, None] == labels[None, :]) & ~eye
    logp = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    return -((logp * pos).sum(1) / pos.sum(1).clamp(min=1)).mean()


@torch.no_grad()
def embed(model, views, idx, seed, clean=True):
    g = torch.Generator().manual_seed(seed)
    model.eval()
    dev = next(model.parameters()).device
    out = []
    for i in range(0, len(idx), 256):
        x = views.clean(idx[i:i + 256], g) if clean else views.perturbed(idx[i:i + 256], g)
        out.append(model(x.to(dev)).cpu())
    model.train()
    freeze_norms(model)
    return torch.cat(out)


@torch.no_grad()
def validate(model, views, v):
    """Copy: perturbed simple-icons validation icons against every readable icon's clean view (as train.py).
    Concept: each validation-concept icon against the gallery, its positives the concept's icons of other sets."""
    gal = embed(model, views, v['gallery'], 99)
    q = embed(model, views, v['copy_q'], 1234, clean=False)
    top = (q @ gal.t()).topk(10, dim=1).indices
    copy_r10 = (v['gal_identity'][top] == v['copy_identity'][:, None]).any(1).float().mean().item()
    hits, aps = [], []
    cq = embed(model, views, v['concept_q'], 4321)
    sims = cq @ gal.t()
    for k in range(len(v['concept_q'])):
        s = sims[k].clone()
        same = v['gal_concept'] == v['concept_label'][k]
        s[same & (v['gal_set'] == v['concept_set'][k])] = -2  # its own set's drawings do not count either way
        rel = same & (v['gal_set'] != v['concept_set'][k])
        if not rel.any():
            continue
        order = s.argsort(descending=True)
        r = rel[order][: int((s > -2).sum())]
        ranks = torch.nonzero(r).flatten().float() + 1
        hits.append(float(ranks[0] <= 10))
        aps.append((torch.arange(1, len(ranks) + 1) / ranks).mean().item())
    return copy_r10, sum(hits) / max(1, len(hits)), sum(aps) / max(1, len(aps))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--data', default='var/logo-train')
    p.add_argument('--out', default='models')
    p.add_argument('--steps', type=int, default=600)
    p.add_argument('--minutes', type=float, default=60, help='safety stop only; a run it stops is not reproducible')
    p.add_argument('--batch', type=int, default=64)
    p.add_argument('--lr', type=float, default=5e-4)
    p.add_argument('--tau', type=float, default=0.1)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--init', default='models/nishaan-logo-cnn-v1.onnx', help='v1 ONNX weights to start from ("" for none)')
    p.add_argument('--name', default='nishaan-logo-cnn-v2')
    p.add_argument('--eval-every', type=int, default=300, help='steps between validations')
    p.add_argument('--device', default='cpu', help='where the network runs: cpu, or cuda (views stay on the CPU)')
    p.add_argument('--concept-share', type=float, default=0.5, help='share of each batch that is concept items')
    p.add_argument('--partner', type=float, default=0.75,
                   help='chance that a concept item is paired with another icon of its concept, not with itself')
    p.add_argument('--concept-proxy', type=float, default=1.0,
                   help='weight of the per-concept proxies (0: concepts taught by the contrastive loss alone)')
    p.add_argument('--size', type=int, default=train.SIZE, help='the model\'s input, px a side')
    p.add_argument('--canvas', type=int, default=train.CANVAS, help='where views are composed, px (a multiple of 8)')
    p.add_argument('--until', type=float, default=0,
                   help='minutes: the learning rate follows the clock, not --steps, and training stops then (not '
                        'reproducible; for a lent GPU, where the speed is not known ahead; the report gives the steps)')
    p.add_argument('--export', default='', help='write the ONNX of these weights (.pt or .npz) and stop')
    args = p.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    # train.py's view and normalising functions read these at call time.
    train.SIZE, train.CANVAS = args.size, args.canvas
    if args.export:
        model = LogoNet(width=(24, 48, 96, 192))
        if args.export.endswith('.npz'):
            model.load_state_dict({k: torch.from_numpy(x) for k, x in np.load(args.export).items()})
        else:
            model.load_state_dict(torch.load(args.export, map_location='cpu')['model'])
        train.export(model, os.path.join(args.out, f'{args.name}.onnx'))
        print(f'wrote {os.path.join(args.out, args.name + ".onnx")}', flush=True)
        return
    dev = torch.device(args.device)

    meta = json.load(open(os.path.join(args.data, 'meta.json')))
    s = meta['icon']
    n_si, n_set = len(meta['icons']), len(meta['sets'])
    si = np.fromfile(os.path.join(args.data, 'icons.u8'), np.uint8).reshape(n_si, s, s)
    sa = np.fromfile(os.path.join(args.data, 'sets.u8'), np.uint8).reshape(n_set, s, s)
    sk = np.fromfile(os.path.join(args.data, 'sets-ink.u8'), np.uint8).reshape(n_set, s, s)
    texts = np.fromfile(os.path.join(args.data, 'texts.u8'), np.uint8).reshape(meta['texts'], *meta['text'])
    alpha = np.concatenate([si, sa])
    ink = np.concatenate([np.zeros_like(si), sk])
    colour = np.array([False] * n_si + [bool(x['colour']) for x in meta['sets']])
    views = InkViews(alpha, ink, colour, texts)

    # Identities (copies) and concepts over the combined index: simple-icons first, then set icons.
    identity, concept, setname, role = [], [], [], []
    for x in meta['icons']:
        identity.append('si:' + x['group']); concept.append(None); setname.append('simple-icons'); role.append(x['split'])
    for x in meta['sets']:
        identity.append(x['key']); concept.append(x['concept']); setname.append(x['set']); role.append(x['role'])
    ids = {k: i for i, k in enumerate(sorted(set(identity)))}
    cons = {k: i for i, k in enumerate(sorted({c for c in concept if c}))}
    sets = {k: i for i, k in enumerate(sorted(set(setname)))}
    identity_t = torch.tensor([ids[k] for k in identity])
    concept_t = torch.tensor([cons[c] if c else -1 for c in concept])
    set_t = torch.tensor([sets[k] for k in setname])

    copy_idx = torch.tensor([k for k in range(len(role)) if role[k] == 'train' and concept[k] is None])
    concept_idx = torch.tensor([k for k in range(len(role)) if role[k] == 'train' and concept[k] is not None])
    # Partners: for each training concept icon, the other training icons of its concept, other sets first.
    partners = {}
    for k in concept_idx.tolist():
        same = [j for j in concept_idx.tolist() if concept_t[j] == concept_t[k] and j != k]
        other = [j for j in same if set_t[j] != set_t[k]]
        partners[k] = other or same or [k]
    copy_labels = sorted({int(identity_t[k]) for k in copy_idx})
    copy_label = {c: i for i, c in enumerate(copy_labels)}
    train_concepts = sorted({int(concept_t[k]) for k in concept_idx})
    concept_label = {c: i for i, c in enumerate(train_concepts)}

    readable = torch.tensor([k for k in range(len(role)) if role[k] != 'test'])
    v = {
        'gallery': readable,
        'gal_identity': identity_t[readable], 'gal_concept': concept_t[readable], 'gal_set': set_t[readable],
        'copy_q': torch.tensor([k for k in range(n_si) if role[k] == 'val']),
        'concept_q': torch.tensor([k for k in range(len(role)) if role[k] == 'val' and concept[k] is not None]),
    }
    v['copy_identity'] = identity_t[v['copy_q']]
    v['concept_label'] = concept_t[v['concept_q']]
    v['concept_set'] = set_t[v['concept_q']]

    model = LogoNet(width=(24, 48, 96, 192))
    if args.init:
        # The norms are calibrated on views like those trained on (v1weights.py).
        calib = torch.cat([views.clean(copy_idx[:64], torch.Generator().manual_seed(7)),
                           views.perturbed(concept_idx[:64], torch.Generator().manual_seed(8))])
        load_v1(model, args.init, calib)
    params = sum(x.numel() for x in model.parameters())
    id_proxies = Proxies(len(copy_labels))
    con_proxies = Proxies(len(train_concepts))
    if args.init:
        # Proxies start where the model already puts their icons (clean views), so their first gradients
        # refine v1 instead of pulling it towards random points: an identity's at its icon, a concept's at
        # the mean of its icons.
        with torch.no_grad():
            first = {}
            for k in copy_idx.tolist():
                first.setdefault(copy_label[int(identity_t[k])], k)
            z = embed(model, views, torch.tensor([first[i] for i in range(len(copy_labels))]), 5)
            id_proxies.w.copy_(z)
            zc = embed(model, views, concept_idx, 6)
            for c, i in concept_label.items():
                con_proxies.w[i] = zc[concept_t[concept_idx] == c].mean(0)
    model.to(dev)
    id_proxies.to(dev)
    con_proxies.to(dev)
    freeze_norms(model)
    print(f'{params:,} parameters; copies {len(copy_idx)} ({len(copy_labels)} identities), concept icons '
          f'{len(concept_idx)} ({len(train_concepts)} concepts); validation {len(v["copy_q"])} copy, '
          f'{len(v["concept_q"])} concept queries; {args.steps} steps on {dev}', flush=True)
    opt = torch.optim.AdamW(list(model.parameters()) + list(id_proxies.parameters()) + list(con_proxies.parameters()),
                            lr=args.lr, weight_decay=1e-4)
    g = torch.Generator().manual_seed(args.seed)
    t0 = time.time()
    history = []
    r = validate(model, views, v)
    history.append({'step': 0, 'minutes': 0, 'val_copy_recall_at_10': r[0], 'val_concept_recall_at_10': r[1], 'val_concept_map': r[2]})
    print(f'  step 0 val copy r@10 {r[0]:.3f} concept r@10 {r[1]:.3f} mAP {r[2]:.3f}', flush=True)
    best, best_state, stopped = -1.0, None, False
    n_concept = round(args.batch * args.concept_share)
    half = args.batch - n_concept  # copy items first, then concept items (v2: half and half)
    done = 0
    for step in range(args.steps):
        if time.time() - t0 > args.minutes * 60:
            stopped = True
            break
        if args.until:
            # Schedule on the clock: the cosine ends when the time does, however fast this machine is.
            frac = (time.time() - t0) / (args.until * 60)
            if frac >= 1:
                break
            angle = math.pi * frac
        else:
            angle = math.pi * step / args.steps
        lr = args.lr * min(1.0, (step + 1) / 50) * 0.5 * (1 + math.cos(angle))
        for pg in opt.param_groups:
            pg['lr'] = lr
        ci = copy_idx[torch.randperm(len(copy_idx), generator=g)[:half]]
        ki = concept_idx[torch.randperm(len(concept_idx), generator=g)[:n_concept]]
        pick = torch.rand(n_concept, generator=g)
        # Mostly (--partner: three times in four) another icon of the concept, else the same icon (a copy of a
        # concept icon).
        pp = args.partner
        kp = torch.tensor([partners[int(k)][int(u / pp * len(partners[int(k)]))] if u < pp else int(k)
                           for k, u in zip(ki, pick)])
        a_idx = torch.cat([ci, ki])
        b_idx = torch.cat([ci, kp])
        a = views.clean(a_idx, g) if step % 2 == 0 else views.perturbed(a_idx, g)
        b = views.perturbed(b_idx, g)
        za, zb = model(a.to(dev)), model(b.to(dev))
        # SupCon labels: copies by identity, concept items by concept (offset past every identity).
        lab = torch.cat([identity_t[ci], concept_t[ki] + len(ids)])
        loss = supcon(torch.cat([za, zb]), torch.cat([lab, lab]).to(dev), args.tau)
        yc = torch.tensor([copy_label[int(x)] for x in identity_t[ci]]).to(dev)
        yk = torch.tensor([concept_label[int(x)] for x in concept_t[ki]]).to(dev)
        loss = loss + (id_proxies(za[:half], yc) + id_proxies(zb[:half], yc)) / 2 \
            + args.concept_proxy * (con_proxies(za[half:], yk) + con_proxies(zb[half:], yk)) / 2
        opt.zero_grad()
        loss.backward()
        opt.step()
        done = step + 1
        if done % 25 == 0 or done == 5:
            print(f'step {done} {(time.time() - t0) / 60:.1f} min loss {loss.item():.3f} lr {lr:.5f}', flush=True)
        if done % args.eval_every == 0 or done == args.steps:
            r = validate(model, views, v)
            history.append({'step': done, 'minutes': round((time.time() - t0) / 60, 1), 'val_copy_recall_at_10': r[0],
                            'val_concept_recall_at_10': r[1], 'val_concept_map': r[2]})
            print(f'  step {done} val copy r@10 {r[0]:.3f} concept r@10 {r[1]:.3f} mAP {r[2]:.3f}', flush=True)
            # Checkpoint choice: concept mAP and copy recall weighed alike (both are what v2 is for).
            score = r[0] + r[2]
            if score > best:
                best, best_state = score, {k: x.clone() for k, x in model.state_dict().items()}
            torch.save({'model': model.state_dict(), 'steps': done}, os.path.join(args.out, f'{args.name}.pt'))
    if history[-1]['step'] != done:
        # Stopped by the clock between validations: the last steps are validated too.
        r = validate(model, views, v)
        history.append({'step': done, 'minutes': round((time.time() - t0) / 60, 1), 'val_copy_recall_at_10': r[0],
                        'val_concept_recall_at_10': r[1], 'val_concept_map': r[2]})
        print(f'  step {done} val copy r@10 {r[0]:.3f} concept r@10 {r[1]:.3f} mAP {r[2]:.3f}', flush=True)
        if r[0] + r[2] > best:
            best, best_state = r[0] + r[2], {k: x.clone() for k, x in model.state_dict().items()}
    chosen = history[-1]['step']
    if best_state is not None:
        model.load_state_dict(best_state)
        chosen = max(history[1:], key=lambda h: h['val_copy_recall_at_10'] + h['val_concept_map'])['step']
        # The checkpoint kept (the best on validation), so --export can rewrite its ONNX with another torch.
        torch.save({'model': model.state_dict(), 'steps': chosen}, os.path.join(args.out, f'{args.name}.pt'))
    if dev.type != 'cpu':
        # Also as plain arrays: a checkpoint from a newer torch may not load into the one that exports here.
        np.savez(os.path.join(args.out, f'{args.name}.npz'), **{k: x.cpu().numpy() for k, x in model.state_dict().items()})
    report = {
        'name': args.name, 'parameters': params, 'steps': len(history) and history[-1]['step'], 'planned_steps': args.steps,
        'stopped_by_minutes': stopped, 'minutes': round((time.time() - t0) / 60, 1), 'batch': args.batch, 'lr': args.lr,
        'tau': args.tau, 'seed': args.seed, 'threads': args.threads, 'init': args.init or None, 'torch': torch.__version__,
        'device': str(dev) if dev.type == 'cpu' else f'{dev} ({torch.cuda.get_device_name(dev)})',
        'concept_share': args.concept_share, 'concept_proxy': args.concept_proxy, 'partner': args.partner,
        'input_size': args.size, 'canvas': args.canvas,
        'kept_step': chosen, 'until_minutes': args.until or None,
        'copy_icons': len(copy_idx), 'concept_icons': len(concept_idx), 'concepts': len(train_concepts),
        'validation': history,
    }
    json.dump(report, open(os.path.join(args.out, f'{args.name}.train.json'), 'w'), indent=2)
    onnx_path = os.path.join(args.out, f'{args.name}.onnx')
    train.export(model, onnx_path)
    print(f'wrote {onnx_path}', flush=True)


if __name__ == '__main__':
    main()
