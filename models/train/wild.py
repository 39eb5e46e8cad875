"""Uploads as they really are, for training (issue 44): what a scan, a phone, a web page or a careless export does to a
logo, applied to composed views (N, 3, C, C) in [0, 1] before the sidecar's normalisation. Every parameter is drawn
per view from a wide range, never one setting: blur of many radii, JPEG's block quantisation at low quality, shrinking
to a thumbnail, borders of any colour and width, clutter on a busy page, rules and words across the logo, uneven light
and colour casts, inverted and faded ink, noise. Written apart from bench/logos/wild.ts (the benchmark's kinds, drawn
with sharp in TypeScript); the benchmark's product shots and logos inside other logos have no counterpart here.

Every function takes a torch.Generator and draws from it only when it is called: a run with --wild 0 draws nothing
here and is the run it always was."""
import math

import torch
import torch.nn.functional as F


def uniform(g, n, lo, hi):
    return lo + (hi - lo) * torch.rand(n, generator=g)


def grid(c):
    lin = torch.linspace(0, 1, c)
    yy, xx = torch.meshgrid(lin, lin, indexing='ij')
    return xx, yy


def gaussian_blur(img, g, canvas):
    """Each view softened by a Gaussian of its own radius, 0.6 to 5 px at a 96-px canvas (scaled with it)."""
    n = img.shape[0]
    sigma = uniform(g, n, 0.6, 5.0) * canvas / 96
    out = img.clone()
    # Views grouped by radius (a kernel per group): five groups cover the range finely enough.
    edges = torch.tensor([0, 1.2, 2.0, 3.0, 4.2, 100.0]) * canvas / 96
    for k in range(5):
        sel = (sigma >= edges[k]) & (sigma < edges[k + 1])
        if not sel.any():
            continue
        s = float(sigma[sel].mean())
        r = max(1, int(math.ceil(3 * s)))
        x = torch.arange(-r, r + 1, dtype=torch.float32)
        w = torch.exp(-(x ** 2) / (2 * s * s))
        w = (w / w.sum()).to(img.device)
        v = img[sel]
        c = v.shape[1]
        v = F.pad(v, (r, r, r, r), mode='replicate')
        v = F.conv2d(v, w.view(1, 1, 1, -1).expand(c, 1, 1, -1), groups=c)
        v = F.conv2d(v, w.view(1, 1, -1, 1).expand(c, 1, -1, 1), groups=c)
        out[sel] = v
    return out


def thumbnail(img, g, canvas):
    """Shrunk to a thumbnail (the whole view 18-40 % of its side, so a logo of 35-75 px at a 192-px canvas) and
    brought back up, as the sidecar enlarges a small upload."""
    n = img.shape[0]
    s = int(uniform(g, 1, 0.18, 0.4).item() * canvas)
    mode = 'nearest' if torch.rand(1, generator=g).item() < 0.3 else 'bilinear'
    small = F.interpolate(img, size=(s, s), mode='area')
    kw = {} if mode == 'nearest' else {'align_corners': False}
    return F.interpolate(small, size=(canvas, canvas), mode=mode, **kw)


def _dct_matrix(k=8):
    m = torch.zeros(k, k)
    for u in range(k):
        for x in range(k):
            a = math.sqrt(1 / k) if u == 0 else math.sqrt(2 / k)
            m[u, x] = a * math.cos((2 * x + 1) * u * math.pi / (2 * k))
    return m


_DCT = _dct_matrix()
# JPEG's luminance quantisation table (Annex K), scaled by quality as libjpeg scales it.
_Q = torch.tensor([
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99], dtype=torch.float32).view(8, 8)


def jpeg(img, g, canvas):
    """JPEG's loss at quality 4-35: 8 × 8 blocks transformed, their coefficients quantised by the scaled table."""
    n, c, h, w = img.shape
    q = uniform(g, n, 4, 35)
    scale = torch.where(q < 50, 5000 / q, 200 - 2 * q) / 100
    table = (_Q.to(img.device)[None] * scale.to(img.device)[:, None, None]).clamp(min=1)  # (n, 8, 8)
    d = _DCT.to(img.device)
    x = img * 255 - 128
    blocks = x.view(n, c, h // 8, 8, w // 8, 8).permute(0, 1, 2, 4, 3, 5)  # (n, c, bh, bw, 8, 8)
    coef = d @ blocks @ d.t()
    t = table[:, None, None, None]
    coef = torch.round(coef / t) * t
    back = (d.t() @ coef @ d).permute(0, 1, 2, 4, 3, 5).reshape(n, c, h, w)
    return ((back + 128) / 255).clamp(0, 1)


def border(img, g, canvas):
    """A frame at the view's edge, 3-30 % of its side, in any colour; half the time a second one inside it."""
    n = img.shape[0]
    xx, yy = grid(canvas)
    edge = torch.minimum(torch.minimum(xx, 1 - xx), torch.minimum(yy, 1 - yy)).to(img.device)[None, None]
    out = img.clone()
    width = uniform(g, n, 0.03, 0.3)[:, None, None, None].to(img.device)
    colour = torch.rand(n, 3, generator=g)[:, :, None, None].to(img.device)
    outer = (edge < width / 2).float()
    out = out * (1 - outer) + colour * outer
    two = (torch.rand(n, generator=g) < 0.5)[:, None, None, None].to(img.device)
    inner_w = width / 2 + uniform(g, n, 0.01, 0.08)[:, None, None, None].to(img.device)
    colour2 = torch.rand(n, 3, generator=g)[:, :, None, None].to(img.device)
    inner = ((edge >= width / 2) & (edge < inner_w) & two).float()
    return out * (1 - inner) + colour2 * inner


def clutter(img, g, canvas):
    """Shapes of a busy page in the view's background (rectangles, discs, bars), 3-9 of them, any colour (in place,
    drawn before the logo is laid on)."""
    n = img.shape[0]
    xx, yy = (t.to(img.device)[None] for t in grid(canvas))
    for _ in range(int(torch.randint(3, 10, (1,), generator=g))):
        cx, cy = uniform(g, n, 0, 1)[:, None, None].to(img.device), uniform(g, n, 0, 1)[:, None, None].to(img.device)
        rx, ry = uniform(g, n, 0.03, 0.2)[:, None, None].to(img.device), uniform(g, n, 0.02, 0.15)[:, None, None].to(img.device)
        kind = torch.rand(n, generator=g)[:, None, None].to(img.device)
        rect = ((xx - cx).abs() < rx) & ((yy - cy).abs() < ry)
        disc = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2 < 1
        mask = torch.where(kind < 0.5, rect, disc).float()[:, None]
        alpha = uniform(g, n, 0.3, 1.0)[:, None, None, None].to(img.device)
        colour = torch.rand(n, 3, generator=g)[:, :, None, None].to(img.device)
        img.mul_(1 - mask * alpha).add_(colour * mask * alpha)
    return img


def rule(img, g, canvas):
    """A rule across the view: a line at any angle, 1-5 px wide at a 96-px canvas, any colour."""
    n = img.shape[0]
    xx, yy = (t.to(img.device)[None] for t in grid(canvas))
    angle = uniform(g, n, -0.6, 0.6)[:, None, None].to(img.device)
    at = uniform(g, n, 0.2, 0.8)[:, None, None].to(img.device)
    # Distance of each pixel from the line through (0.5, at) at `angle`, in view widths.
    dist = ((yy - at) * torch.cos(angle) - (xx - 0.5) * torch.sin(angle)).abs()
    width = uniform(g, n, 1, 5)[:, None, None].to(img.device) / 96
    mask = (dist < width / 2).float()[:, None]
    colour = torch.rand(n, 3, generator=g)[:, :, None, None].to(img.device)
    return img * (1 - mask) + colour * mask


def light(img, g, canvas):
    """Light falling unevenly (a gradient at any angle, or a vignette) down to 30-80 %, and a colour cast."""
    n = img.shape[0]
    xx, yy = (t.to(img.device)[None] for t in grid(canvas))
    low = uniform(g, n, 0.3, 0.8)[:, None, None].to(img.device)
    angle = uniform(g, n, 0, 2 * math.pi)[:, None, None].to(img.device)
    lin = (0.5 + (xx - 0.5) * torch.cos(angle) + (yy - 0.5) * torch.sin(angle)).clamp(0, 1)
    cx, cy = uniform(g, n, 0, 1)[:, None, None].to(img.device), uniform(g, n, 0, 1)[:, None, None].to(img.device)
    rad = (torch.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / 0.9).clamp(max=1)
    t = torch.where((torch.rand(n, generator=g) < 0.4)[:, None, None].to(img.device), rad, lin)
    field = (1 - (1 - low) * t)[:, None]
    cast = uniform(g, n * 3, 0.88, 1.08).view(n, 3, 1, 1).to(img.device)
    return (img * field * cast).clamp(0, 1)


def ink(img, g, canvas):
    """Inverted (light on dark), or faded: ink and paper brought within 10-40 % of each other and made grey."""
    n = img.shape[0]
    invert = (torch.rand(n, generator=g) < 0.5)[:, None, None, None].to(img.device)
    grey = (img * torch.tensor([0.299, 0.587, 0.114], device=img.device)[None, :, None, None]).sum(1, keepdim=True)
    paper = uniform(g, n, 0.55, 0.95)[:, None, None, None].to(img.device)
    contrast = uniform(g, n, 0.1, 0.4)[:, None, None, None].to(img.device)
    faded = (paper - (1 - grey) * contrast).expand_as(img)
    return torch.where(invert, 1 - img, faded)


def noise(img, g, canvas):
    n = img.shape[0]
    amount = uniform(g, n, 0.01, 0.06)[:, None, None, None].to(img.device)
    return (img + torch.randn(img.shape, generator=g).to(img.device) * amount).clamp(0, 1)


# What a wild view may get, each with its chance; they combine (a phone photo is light, blur, JPEG and noise).
AFTER = [(light, 0.3), (ink, 0.12), (border, 0.2), (rule, 0.2), (gaussian_blur, 0.35), (thumbnail, 0.15), (jpeg, 0.25),
         (noise, 0.2)]


def degrade_wild(img, sel, g, canvas):
    """The wild degradations for the views `sel` (bool, N), each view drawing which it gets."""
    idx = sel.nonzero().flatten()
    if not len(idx):
        return img
    for fn, p in AFTER:
        pick = idx[torch.rand(len(idx), generator=g) < p]
        if len(pick):
            img[pick] = fn(img[pick], g, img.shape[-1])
    return img
