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

/**
 * An API process of its own on a cloned database, uploads in a folder of their own, an account with two slots
 * (two requests whose slots were never given back would lock it out) and a noisy PNG (noise does not compress:
 * a few kilobytes). Made in the describe's before(), gone in its after().
 */
function uploadServer(env: Record<string, string> = {}) {
  const s = {
    dir: fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-uploads-')),
    prefix: `test:${randomBytes(5).toString('hex')}`,
    redis: new Redis('redis://127.0.0.1:6379/0'),
    server: undefined as unknown as ServerProcess,
    account: undefined as unknown as TestAccount,
    png: Buffer.alloc(0),
  };
  before(async () => {
    const { url, db } = await cloneTestDatabase();
    s.account = await createAccount(db, { concurrency: 2 });
    await db.destroy();
    s.server = await startServerProcess({
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      UPLOAD_DIR: s.dir,
      RATE_LIMIT_PREFIX: s.prefix,
      RATE_IP_PER_MINUTE: '100000',
      RATE_KEY_PER_SECOND: '100000',
      ML_URL: 'http://127.0.0.1:9',
      ...env,
    });
    s.png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .png()
      .toBuffer();
  });
  after(async () => {
    await s.server?.stop();
    s.redis.disconnect();
    fs.rmSync(s.dir, { recursive: true, force: true });
  });
  return s;
}

describe('a truncated multipart upload', function () {
  this.timeout(60_000);
  const s = uploadServer();

  it('is a 400, and the process keeps serving with no file left and no slot held', async () => {
    expect(s.png.length).to.be.greaterThan(1000);
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
          s.png.subarray(0, 1000),
        ]);
        const res = await send(`${s.server.url}/v1/logo-search/${route}/`, s.account.key, body, boundary);
        expect(res.status, res.body).to.equal(400);
        expect(JSON.parse(res.body).code).to.equal('bad_request');
      }
    }
    const res = await new Promise<number>((resolve, reject) =>
      http
        .get(`${s.server.url}/healthz`, { agent: false }, (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        })
        .on('error', reject),
    );
    expect(res).to.equal(200);
    expect(s.server.exited(), s.server.output()).to.equal(null);
    expect(s.server.output()).to.not.contain('ERR_INVALID_ARG_TYPE');
    // Removal follows the response: wait for it (bounded), then nothing may be left.
    let left = fs.readdirSync(s.dir);
    for (let i = 0; i < 50 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 50));
      left = fs.readdirSync(s.dir);
    }
    expect(left).to.deep.equal([]);
    let held = await s.redis.zcard(`${s.prefix}:inflight:${s.account.accountId}`);
    for (let i = 0; i < 50 && held; i++) {
      await new Promise((r) => setTimeout(r, 50));
      held = await s.redis.zcard(`${s.prefix}:inflight:${s.account.accountId}`);
    }
    expect(held).to.equal(0);
  });
});

/** A multipart upload of `png` whose bytes are sent as `drip` says; resolves to the answer, and whether the connection then closed. */
function dripped(
  url: string,
  key: string,
  png: Buffer,
  drip: (write: (b: Buffer) => void, body: Buffer) => void,
): Promise<{ status: number; body: string; closed: boolean }> {
  const boundary = `B${randomBytes(6).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="uploaded_file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: { 'X-API-Key': key, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': body.length },
    });
    req.on('error', () => undefined); // writes after the server closed the connection
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        const closed = new Promise<boolean>((r) => (req.socket?.destroyed ? r(true) : req.socket?.once('close', () => r(true))));
        void closed.then((c) => resolve({ status: res.statusCode ?? 0, body: text, closed: c }));
      });
      res.on('error', reject);
    });
    drip((b) => req.socket?.destroyed || req.write(b), body);
  });
}

// An upload is read after its request is admitted, so while it arrives it holds a concurrency slot: one that
// stops sending, or trickles for ever, must not hold it as long as the client likes (issue 39, item 7).
describe('a slow multipart upload', function () {
  this.timeout(60_000);
  const s = uploadServer({ UPLOAD_IDLE_TIMEOUT_MS: '500', UPLOAD_TIMEOUT_MS: '2000' });
  const timers: NodeJS.Timeout[] = [];
  after(() => {
    for (const t of timers) clearInterval(t);
  });

  const nothingLeft = async () => {
    let held = -1;
    let files: string[] = [];
    for (let i = 0; i < 50 && (held !== 0 || files.length); i++) {
      if (i) await new Promise((r) => setTimeout(r, 50));
      held = await s.redis.zcard(`${s.prefix}:inflight:${s.account.accountId}`);
      files = fs.readdirSync(s.dir);
    }
    expect(held, 'slots held').to.equal(0);
    expect(files).to.deep.equal([]);
  };

  it('that stops sending is answered 408 request_timeout, its connection closed, its slot and file gone', async () => {
    const res = await dripped(`${s.server.url}/v1/logo-search/image/`, s.account.key, s.png, (write, body) => write(body.subarray(0, 300)));
    expect(res.status, res.body).to.equal(408);
    expect(JSON.parse(res.body)).to.include({ code: 'request_timeout' });
    expect(JSON.parse(res.body).error).to.contain('sent nothing');
    expect(res.closed).to.equal(true);
    await nothingLeft();
  });

  it('that trickles, never silent for long, is cut at the total bound all the same', async () => {
    const res = await dripped(`${s.server.url}/v1/logo-search/image/`, s.account.key, s.png, (write, body) => {
      let at = 0;
      // 20 bytes every 100 ms: never silent for the idle bound, far from done at the total one.
      const t = setInterval(() => {
        if (at < body.length) write(body.subarray(at, (at += 20)));
      }, 100);
      timers.push(t);
    });
    expect(res.status, res.body).to.equal(408);
    expect(JSON.parse(res.body).error).to.contain('took longer than 2 s');
    await nothingLeft();
    // The account has its slots: a request of its own is admitted.
    const ok = await fetch(`${s.server.url}/v1/journals/?limit=1`, { headers: { 'X-API-Key': s.account.key } });
    expect(ok.status).to.equal(200);
  });
});
