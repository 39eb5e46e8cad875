import zlib from 'node:zlib';
import { expect } from 'chai';
import sharp from 'sharp';
import { expectBadParam } from '../helpers/http.ts';
import { createLogoApp, drawLogo, type LogoTestApp } from '../helpers/logos.ts';

// Every unusable upload is a 4xx with a code that says what is wrong, never a 500.

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A PNG whose header says width×height with almost no pixel data: a decompression bomb's shape. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('logo search: bad input', function () {
  this.timeout(60_000);
  let t: LogoTestApp;
  let png: Buffer;

  before(async () => {
    t = await createLogoApp();
    png = await drawLogo({ slug: 'github' });
  });
  after(() => t.close());

  const upload = (file: Buffer, name: string, type?: string) =>
    t.app.post('/v1/logo-search/image/').attach('uploaded_file', file, type ? { filename: name, contentType: type } : name);

  const expectCode = (res: { status: number; body: { code: string } }, status: number, code: string) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body.code).to.equal(code);
  };

  it('refuses what is not an image, and images that are not JPEG, PNG, WebP, GIF or SVG (formats.test.ts has those)', async () => {
    expectCode(await upload(Buffer.from('hello, this is a text file, not a logo'), 'logo.png'), 400, 'not_an_image');
    expectCode(await upload(Buffer.from('<!doctype html><html></html>'), 'page.html', 'text/html'), 400, 'not_an_image');
    const tiff = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#f00' } })
      .tiff()
      .toBuffer();
    expectCode(await upload(tiff, 'logo.tif'), 400, 'unsupported_image_type');
    const heif = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#f00' } })
      .heif({ compression: 'av1' })
      .toBuffer();
    expectCode(await upload(heif, 'logo.avif'), 400, 'unsupported_image_type');
  });

  it('refuses a PNG named .jpg (or sent as image/jpeg) and a JPEG named .png', async () => {
    const res = await upload(png, 'logo.jpg');
    expectCode(res, 400, 'image_type_mismatch');
    expect(res.body.error).to.contain('PNG');
    expectCode(await upload(png, 'logo', 'image/jpeg'), 400, 'image_type_mismatch');
    const jpeg = await drawLogo({ slug: 'github', format: 'jpeg' });
    expectCode(await upload(jpeg, 'logo.png'), 400, 'image_type_mismatch');
  });

  it('refuses corrupt and truncated files', async () => {
    expectCode(await upload(png.subarray(0, Math.floor(png.length * 0.6)), 'cut.png'), 400, 'image_corrupt');
    const garbled = Buffer.concat([png.subarray(0, 8), Buffer.alloc(400, 0xab)]);
    expectCode(await upload(garbled, 'garbled.png'), 400, 'image_corrupt');
    const jpeg = await drawLogo({ slug: 'github', format: 'jpeg' });
    expectCode(await upload(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'cut.jpg'), 400, 'image_corrupt');
  });

  it('refuses images of 1×1 and of 20,000×20,000 pixels without decoding the latter', async () => {
    const tiny = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const small = await upload(tiny, 'dot.png');
    expectCode(small, 400, 'image_dimensions');
    expect(small.body.error).to.contain('1×1');
    const huge = await upload(pngHeaderOnly(20_000, 20_000), 'bomb.png');
    expectCode(huge, 400, 'image_dimensions');
    expect(huge.body.error).to.contain('20000×20000');
  });

  it('names uploaded_file when it is missing, sent twice or under another name', async () => {
    expectBadParam(await t.app.post('/v1/logo-search/image/').field('img_cnt', '5'), 'uploaded_file');
    expectBadParam(
      await t.app.post('/v1/logo-search/image/').attach('uploaded_file', png, 'a.png').attach('uploaded_file', png, 'b.png'),
      'uploaded_file',
    );
    expectBadParam(await t.app.post('/v1/logo-search/image/').attach('file', png, 'a.png'), 'file');
    expectBadParam(await t.app.post('/v1/logo-search/image/').attach('uploaded_file', png, 'a.png').field('img_cnt', '101'), 'img_cnt');
    expectBadParam(await t.app.post('/v1/logo-search/image/').attach('uploaded_file', png, 'a.png').field('img_cnt', '0x10'), 'img_cnt');
    expectBadParam(
      await t.app.post('/v1/logo-search/image/').attach('uploaded_file', png, 'a.png').field('similarity_level', 'very'),
      'similarity_level',
    );
    const json = await t.app.post('/v1/logo-search/image/').send({ uploaded_file: 'x' });
    expectBadParam(json, 'uploaded_file');
  });

  it('answers 413 for 5 MB and one byte, and leaves no upload behind', async () => {
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)]);
    const res = await upload(big, 'big.png');
    expectCode(res, 413, 'payload_too_large');
    const exact = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 - png.length)]);
    expect((await upload(exact, 'exact.png')).status).to.equal(200);
    const fs = await import('node:fs');
    // The files go as their responses close, just after the answers: wait for that, not for a while.
    const end = Date.now() + 10_000;
    while (fs.readdirSync(t.uploadDir).length && Date.now() < end) await new Promise((r) => setImmediate(r));
    expect(fs.readdirSync(t.uploadDir)).to.deep.equal([]);
  });

  it('refuses 101 files in a bulk upload with 400, before any search', async () => {
    const c = await t.app.client({ bulk_logo_limit: 100 });
    let req = c.post('/v1/logo-search/bulk-image/');
    for (let i = 0; i < 101; i++) req = req.attach('uploaded_files', png, `l${i}.png`);
    const res = await req;
    expectBadParam(res, 'uploaded_files');
    expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(0);
    expectBadParam(await c.post('/v1/logo-search/bulk-image/').field('img_cnt', '3'), 'uploaded_files');
  });

  it('costs nothing when refused', async () => {
    const c = await t.app.client({ quotas: { logo_searches: 5 } });
    await c.post('/v1/logo-search/image/').attach('uploaded_file', Buffer.from('nope'), 'x.png');
    await c.post('/v1/logo-search/text/').send({ query_text: '' });
    expect(await t.app.used(c.account.accountId, 'logo_searches')).to.equal(0);
  });
});
