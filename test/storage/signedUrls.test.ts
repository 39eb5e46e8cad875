import { expect } from 'chai';
import request from 'supertest';
import { UrlSigner } from '../../src/storage/urlSigner.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

describe('local object store behind signed URLs', () => {
  let t: TestApp;
  let acct: string;
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(5000, 65)]);
  const pathOf = (url: string) => {
    const u = new URL(url);
    return u.pathname + u.search;
  };

  before(async () => {
    t = await createTestApp();
    await t.deps.store.put('blobs/abc.pdf', pdf);
    acct = t.account.accountId;
  });
  after(async () => t.close());

  it('serves a signed file with type, length, disposition and byte ranges', async () => {
    const { url, expiresAt } = t.deps.store.signedUrl('blobs/abc.pdf', { accountId: acct });
    expect(expiresAt.getTime() - Date.now()).to.be.within(29 * 60_000, 30 * 60_000);
    const full = await request(t.app).get(pathOf(url)).buffer(true);
    expect(full.status).to.equal(200);
    expect(full.headers['content-type']).to.equal('application/pdf');
    expect(full.headers['content-length']).to.equal(String(pdf.length));
    expect(full.headers['content-disposition']).to.equal('inline; filename="abc.pdf"');
    const part = await request(t.app).get(pathOf(url)).set('Range', 'bytes=0-7').buffer(true);
    expect(part.status).to.equal(206);
    expect(part.headers['content-range']).to.equal(`bytes 0-7/${pdf.length}`);
  });

  it('refuses an unsigned URL with 403 JSON', async () => {
    const res = await request(t.app).get('/files/blobs/abc.pdf');
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal('signature_invalid');
  });

  it('refuses a tampered path, expiry, account or signature with 403', async () => {
    const p = pathOf(t.deps.store.signedUrl('blobs/abc.pdf', { accountId: acct }).url);
    const u = new URL(p, 'http://x');
    const variants = [
      p.replace('abc.pdf', 'abd.pdf'),
      p.replace(/exp=(\d+)/, (_m, e) => `exp=${Number(e) + 60}`),
      p.replace(`acct=${acct}`, `acct=${acct.slice(0, -1)}${acct.endsWith('0') ? '1' : '0'}`),
      p.replace(/sig=([^&]+)/, `sig=${'A'.repeat(u.searchParams.get('sig')!.length)}`),
    ];
    for (const v of variants) {
      const res = await request(t.app).get(v);
      expect(res.status, v).to.equal(403);
      expect(res.body.code, v).to.equal('signature_invalid');
    }
  });

  it('accepts only the canonical signature: padding, junk or a flipped spare bit is refused', async () => {
    const p = pathOf(t.deps.store.signedUrl('blobs/abc.pdf', { accountId: acct }).url);
    const sig = new URL(p, 'http://x').searchParams.get('sig')!;
    // 32 bytes are 43 base64url characters: the last one carries 4 bits and 2 spare ones a lenient decoder ignores.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(sig.at(-1)!);
    const flipped = sig.slice(0, -1) + alphabet[last ^ 1];
    for (const forged of [`${sig}==`, `${sig}%21%21%21`, `${sig}.`, flipped, sig.replace(/-/g, '+').replace(/_/g, '/')]) {
      if (forged === sig) continue;
      const res = await request(t.app).get(p.replace(`sig=${sig}`, `sig=${encodeURIComponent(decodeURIComponent(forged))}`));
      expect(res.status, forged).to.equal(403);
      expect(res.body.code, forged).to.equal('signature_invalid');
    }
    expect((await request(t.app).get(p)).status).to.equal(200);
  });

  it('refuses an expired URL with 403 url_expired', async () => {
    // Same secret, a clock 31 minutes in the past: the link it signs has already expired.
    const past = new UrlSigner('test-signing-secret-0123456789', () => Date.now() - 31 * 60_000);
    const { query } = past.sign('/files/blobs/abc.pdf', acct);
    const res = await request(t.app).get(`/files/blobs/abc.pdf?${query}`);
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal('url_expired');
  });

  it('answers 404 for a validly signed key that does not exist', async () => {
    const { url } = t.deps.store.signedUrl('blobs/missing.pdf', { accountId: acct });
    const res = await request(t.app).get(pathOf(url));
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('not_found');
  });

  it('answers an unsatisfiable range with 416 and the file length, not 400', async () => {
    const { url } = t.deps.store.signedUrl('blobs/abc.pdf', { accountId: acct });
    const res = await request(t.app).get(pathOf(url)).set('Range', 'bytes=9999-');
    expect(res.status).to.equal(416);
    expect(res.body.code).to.equal('range_not_satisfiable');
    expect(res.headers['content-range']).to.equal(`bytes */${pdf.length}`);
  });

  it('answers a failed If-Match with 412 precondition_failed', async () => {
    const { url } = t.deps.store.signedUrl('blobs/abc.pdf', { accountId: acct });
    const res = await request(t.app).get(pathOf(url)).set('If-Match', '"not-this-one"');
    expect(res.status).to.equal(412);
    expect(res.body.code).to.equal('precondition_failed');
  });

  it('answers 404, not 500, for a signed key naming a directory or a path through a file', async () => {
    for (const key of ['blobs', 'blobs/abc.pdf/inner.pdf']) {
      const { url } = t.deps.store.signedUrl(key, { accountId: acct });
      const res = await request(t.app).get(pathOf(url));
      expect(res.status, key).to.equal(404);
      expect(res.body.code, key).to.equal('not_found');
    }
  });
});
