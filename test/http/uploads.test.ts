import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { cloneTestDatabase } from '../helpers/db.ts';
import { type ServerProcess, startServerProcess } from '../helpers/serverProcess.ts';

// A multipart body cut off inside a file (a client that went away, a proxy that gave up) is a 400
// for that request alone: the API process goes on serving, and neither the file begun on disk nor
// the account's concurrency slot outlives the request.

function send(url: string, key: string, body: Buffer, boundary: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'X-API-Key': key, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': body.length },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a truncated multipart upload', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-uploads-'));
  const prefix = `test:${randomBytes(5).toString('hex')}`;
  let server: ServerProcess;
  let account: TestAccount;
  let png: Buffer;
  const redis = new Redis('redis://127.0.0.1:6379/0');

  before(async () => {
    const { url, db } = await cloneTestDatabase();
    // Two slots: two requests whose slots were never given back would lock the account out.
    account = await createAccount(db, { concurrency: 2 });
    await db.destroy();
    server = await startServerProcess({
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      UPLOAD_DIR: dir,
      RATE_LIMIT_PREFIX: prefix,
      RATE_IP_PER_MINUTE: '100000',
      RATE_KEY_PER_SECOND: '100000',
      ML_URL: 'http://127.0.0.1:9',
    });
    png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .png()
      .toBuffer();
  });
  after(async () => {
    await server?.stop();
    redis.disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is a 400, and the process keeps serving with no file left and no slot held', async () => {
    expect(png.length).to.be.greaterThan(1000);
    for (const [route, field] of [
      ['image', 'uploaded_file'],
      ['bulk-image', 'uploaded_files'],
    ]) {
      for (let i = 0; i < 3; i++) {
        const boundary = `B${randomBytes(6).toString('hex')}`;
        const body = Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          png.subarray(0, 1000),
        ]);
        const res = await send(`${server.url}/v1/logo-search/${route}/`, account.key, body, boundary);
        expect(res.status, res.body).to.equal(400);
        expect(JSON.parse(res.body).code).to.equal('bad_request');
      }
    }
    const res = await new Promise<number>((resolve, reject) =>
      http
        .get(`${server.url}/healthz`, { agent: false }, (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        })
        .on('error', reject),
    );
    expect(res).to.equal(200);
    expect(server.exited(), server.output()).to.equal(null);
    expect(server.output()).to.not.contain('ERR_INVALID_ARG_TYPE');
    // Removal follows the response: wait for it (bounded), then nothing may be left.
    let left = fs.readdirSync(dir);
    for (let i = 0; i < 50 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 50));
      left = fs.readdirSync(dir);
    }
    expect(left).to.deep.equal([]);
    let held = await redis.zcard(`${prefix}:inflight:${account.accountId}`);
    for (let i = 0; i < 50 && held; i++) {
      await new Promise((r) => setTimeout(r, 50));
      held = await redis.zcard(`${prefix}:inflight:${account.accountId}`);
    }
    expect(held).to.equal(0);
  });
});
