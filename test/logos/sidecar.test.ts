import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import sharp from 'sharp';
import { AppError } from '../../src/errors.ts';
import { decodeLogo, normaliseLogo, trimBox } from '../../src/logos/pixels/image.ts';
import { SidecarClient } from '../../src/logos/sidecarClient.ts';
import { blob, drawLogo, sharedSidecar } from '../helpers/logos.ts';

// The ML sidecar's HTTP surface and its image normalisation.

describe('ML sidecar', function () {
  this.timeout(60_000);

  it('answers health with its model, thresholds, pool and OCR languages', async () => {
    const s = await sharedSidecar();
    const h = await (await fetch(`${s.url}/health`)).json();
    expect(h.ok).to.equal(true);
    expect(h.model).to.include({ model: s.model.model, dimensions: s.model.dimensions });
    expect(h.model.thresholds.high).to.be.greaterThan(h.model.thresholds.low);
    expect(h.pool.workers).to.equal(1);
    expect(h.ocr.languages).to.deep.equal(['eng', 'hin']);
  });

  it('embeds an image as a unit vector of the model, with the HOG vector on request', async () => {
    const s = await sharedSidecar();
    const r = await (await fetch(`${s.url}/embed?hog=1`, { method: 'POST', body: blob(await drawLogo({ slug: 'github' })) })).json();
    expect(r.model).to.equal(s.model.model);
    expect(r.vector.length).to.equal(s.model.dimensions);
    expect(Math.hypot(...r.vector)).to.be.closeTo(1, 1e-4);
    expect(r.image).to.deep.equal({ width: 96, height: 96, format: 'png' });
    if (s.model.model !== 'nishaan-hog-v1') expect(r.fallback_vector.length).to.equal(900);
  });

  it('reads words (OCR) and analyses both at once', async () => {
    const s = await sharedSidecar();
    const png = await drawLogo({ slug: 'apple', text: 'HORIZON' });
    const o = await (await fetch(`${s.url}/ocr`, { method: 'POST', body: blob(png) })).json();
    expect(o.text).to.equal('HORIZON');
    expect(o.confidence).to.be.greaterThan(55);
    const a = await (await fetch(`${s.url}/analyse`, { method: 'POST', body: blob(png) })).json();
    expect(a.ocr.text).to.equal('HORIZON');
    expect(a.vector.length).to.equal(s.model.dimensions);
  });

  it('answers clear errors: 400 with a code for an unusable image, 413 over 5 MB, 404 elsewhere', async () => {
    const s = await sharedSidecar();
    const post = (body: Buffer) => fetch(`${s.url}/embed`, { method: 'POST', body: blob(body) });
    const text = await post(Buffer.from('plain words'));
    expect(text.status).to.equal(400);
    expect((await text.json()).code).to.equal('not_an_image');
    expect((await (await post(Buffer.alloc(0))).json()).code).to.equal('not_an_image');
    const big = await post(Buffer.alloc(5 * 1024 * 1024 + 1, 1));
    expect(big.status).to.equal(413);
    expect((await big.json()).code).to.equal('payload_too_large');
    expect((await fetch(`${s.url}/nope`)).status).to.equal(404);
  });

  it('normalises a logo the same wherever it sits on its canvas: trimmed, squared, resized', async () => {
    const icon = await drawLogo({ slug: 'docker', size: 80 });
    const place = async (w: number, h: number, left: number, top: number, bg = '#ffffff') =>
      decodeLogo(
        await sharp({ create: { width: w, height: h, channels: 3, background: bg } })
          .composite([{ input: icon, left, top }])
          .png()
          .toBuffer(),
      );
    const a = await place(200, 120, 10, 30);
    const b = await place(120, 300, 35, 200);
    expect(trimBox(a)).to.include({ width: trimBox(b).width, height: trimBox(b).height });
    const [na, nb] = [normaliseLogo(a, 64), normaliseLogo(b, 64)];
    let diff = 0;
    for (let i = 0; i < na.length; i++) diff = Math.max(diff, Math.abs(na[i] - nb[i]));
    expect(diff).to.be.lessThan(0.02);
    // Transparent pixels are flattened onto white.
    const transparent = await sharp({ create: { width: 40, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    expect((await decodeLogo(transparent)).grey[0]).to.equal(255);
  });

  it("gives a streamed answer's image to the caller and fails its regions clearly when they fail or the answer is cut short", async () => {
    // A server answering as the sidecar does when its regions fail after the image was sent, or when it goes away.
    const image = { model: 'm', dimensions: 2, vector: [0.6, 0.8], image: { width: 9, height: 9, format: 'png' } };
    let asked = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      const first = ++asked === 1;
      res.write(`${JSON.stringify({ image })}\n`, () => {
        if (first) res.end(`${JSON.stringify({ code: 'internal', error: 'regions failed' })}\n`);
        else res.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new SidecarClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      for (const end of ['an error line', 'cut short']) {
        const parts = client.embedInParts(Buffer.from('img'), true);
        expect(await parts.image, end).to.deep.equal(image);
        const err = await parts.regions.then(
          () => null,
          (e: unknown) => e,
        );
        expect(err, end).to.be.instanceOf(AppError);
        expect((err as AppError).code, end).to.equal('service_unavailable');
      }
      // Refused before anything was streamed: the image's own error, for both parts.
      const refused = new SidecarClient(`${(await sharedSidecar()).url}`).embedInParts(Buffer.from('plain words'));
      for (const p of [refused.image, refused.regions]) {
        const err = await p.then(
          () => null,
          (e: unknown) => e,
        );
        expect((err as AppError).code).to.equal('not_an_image');
      }
    } finally {
      server.close();
    }
  });
});
