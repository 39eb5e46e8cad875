import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { TokenService } from '../../src/accounts/tokens.ts';
import { loadConfig } from '../../src/config.ts';
import { importSet } from '../../src/ingest/importer/index.ts';
import { LOGO_SEARCH_QUEUE } from '../../src/logos/fanout.ts';
import { LOGO_INDEX_QUEUE } from '../../src/logos/indexer.ts';
import { createRoot, type Root } from '../../src/root.ts';
import { DELIVERY_QUEUE } from '../../src/webhooks/outboxRelay.ts';
import { RENEWALS_QUEUE } from '../../src/webhooks/renewals.ts';
import { messageId } from '../../src/webhooks/signing.ts';
import { createAccount } from '../helpers/accounts.ts';
import { cloneTestDatabase } from '../helpers/db.ts';
import { Receiver, testCertificate } from '../helpers/receiver.ts';
import { children, freePort, type Stack, startStack } from '../helpers/stack.ts';

// The whole service (`npm start`) under traffic loses an API process and the workers process to
// SIGKILL, then is stopped with requests in flight. Afterwards: no account is left short of its
// concurrency slots, no upload file is left on disk, every webhook attempt the endpoint saw is logged
// (one cut short by the kill is made again: at least once), every event is delivered, and the
// requests in flight at the stop are answered.

const FIXTURES = new URL('../fixtures/ingest/', import.meta.url).pathname;
const APPS = ['4100001', '4100002', '4100003', '4100004'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  ms: number,
  state?: () => Promise<string> | string,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${state ? `: ${await state()}` : ''}`);
    await sleep(50);
  }
}

/** Which of `pids` has each file of `dir` open (Linux /proc): the API process writing an upload. */
function writers(pids: number[], dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of pids) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        try {
          const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
          if (path.dirname(target) === dir) out.set(path.basename(target), pid);
        } catch {
          // Closed meanwhile.
        }
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

interface Slow {
  /** Sends the rest of the body. */
  finish(): void;
  abort(): void;
  response: Promise<{ status: number; body: string }>;
}

/** A multipart image upload of which only the first half of the file is sent until finish(). */
function slowUpload(url: string, key: string, field: string, png: Buffer): Slow {
  const boundary = `B${randomBytes(6).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const half = Math.floor(png.length / 2);
  const req = http.request(url, {
    method: 'POST',
    agent: false,
    headers: {
      'X-API-Key': key,
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      'Content-Length': head.length + png.length + tail.length,
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  response.catch(() => undefined);
  req.write(Buffer.concat([head, png.subarray(0, half)]));
  return { finish: () => req.end(Buffer.concat([png.subarray(half), tail])), abort: () => req.destroy(), response };
}

describe('faults: an API process and the workers process killed mid-traffic, then a stop with requests in flight', function () {
  this.timeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-fault-'));
  const uploads = path.join(dir, 'uploads');
  const queuePrefix = `test-fault-${randomBytes(4).toString('hex')}`;
  const ratePrefix = `test:${randomBytes(5).toString('hex')}`;
  const redis = new Redis('redis://127.0.0.1:6379/0');
  const receiver = new Receiver();
  let env: Record<string, string>;
  let stack: Stack | undefined;
  let opened: Root | undefined;
  let traffic = true;

  after(async () => {
    traffic = false;
    if (stack) await stack.stop();
    if (opened) await opened.close();
    await receiver.close().catch(() => undefined);
    for (const q of [DELIVERY_QUEUE, RENEWALS_QUEUE, LOGO_INDEX_QUEUE, LOGO_SEARCH_QUEUE]) {
      const queue = new Queue(q, { connection: redis, prefix: queuePrefix });
      await queue.obliterate({ force: true });
      await queue.close();
    }
    redis.disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    "frees the dead API process's slots and files, " + 'delivers every webhook event with every attempt logged, and drains on stop',
    async () => {
      const clone = await cloneTestDatabase();
      await clone.db.destroy();
      await receiver.start();
      const port = await freePort();
      env = {
        PORT: String(port),
        HOST: '127.0.0.1',
        ML_URL: `http://127.0.0.1:${await freePort()}`,
        DATABASE_URL: clone.url,
        DEMO_RECORDS: '0',
        DEMO_LOGOS: '0',
        LOG_LEVEL: 'silent',
        NODE_ENV: 'development',
        QUEUE_PREFIX: queuePrefix,
        RATE_LIMIT_PREFIX: ratePrefix,
        UPLOAD_DIR: uploads,
        OBJECT_STORE_DIR: path.join(dir, 'objects'),
        DEMO_DIR: path.join(dir, 'demo'),
        SEARCH_SNAPSHOT: '',
        RATE_IP_PER_MINUTE: '1000000',
        RATE_KEY_PER_SECOND: '1000000',
        WEBHOOK_ALLOW_ADDRESSES: '127.0.0.1',
        WEBHOOK_CA_FILE: testCertificate().caFile,
        WEBHOOK_RETRY_DELAY_MS: '300',
        WEBHOOK_REQUEUE_AFTER_MS: '1500',
        WEBHOOK_TIMEOUT_MS: '2000',
        WEBHOOK_DISABLE_AFTER: '1000',
        WEBHOOK_CONCURRENCY: '8',
      };
      const deps = createRoot(loadConfig({ ...env, PORT: '0' }));
      opened = deps;
      await importSet({ db: deps.db, store: deps.store, dir: `${FIXTURES}baseline` });
      // `locked`: two slots only, so two requests whose slots outlive them lock it out. `busy`: the traffic.
      const locked = await createAccount(deps.db, { concurrency: 2 });
      const busy = await createAccount(deps.db, { concurrency: 10 });
      const hooker = await createAccount(deps.db);
      const png = await sharp({
        create: { width: 96, height: 96, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
      })
        .png()
        .toBuffer();

      const T0 = Date.now();
      const mark = (what: string) => process.env.FAULT_TRACE && console.log(`      ${((Date.now() - T0) / 1000).toFixed(1)} s ${what}`);
      stack = await startStack(env);
      mark('started');
      const base = `http://127.0.0.1:${port}`;
      const apiPids = () => children(stack!.child.pid!).filter((c) => c.cmd.includes('scripts/start.ts'));
      const workersPid = () => children(stack!.child.pid!).find((c) => c.cmd.includes('workers/main.ts'))!.pid;

      // Three webhooks on the same marks: h0's endpoint answers 200, h1's fails each delivery's first
      // attempt with 500, h2's leaves each first attempt hanging (so attempts are in flight when the
      // workers process dies) and times out.
      const auth = `Bearer ${new TokenService(loadConfig(env).JWT_SECRET, 3600).issue(hooker.accountId).token}`;
      const hooks: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${base}/user/v1/webhooks/`, {
          method: 'POST',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ url: `${receiver.url}/h${i}`, monitored_applications: APPS, events: ['*'] }),
        });
        const body = await res.json();
        expect(res.status, JSON.stringify(body)).to.equal(201);
        hooks.push(body.id);
      }
      const seen = new Map<string, number>();
      const answers: { id: string; status: number | 'hang' }[] = [];
      receiver.answer = (r) => {
        const id = r.headers['webhook-id'];
        const n = (seen.get(id) ?? 0) + 1;
        seen.set(id, n);
        const status = n > 1 || r.path === '/h0' ? 200 : r.path === '/h1' ? 500 : 'hang';
        answers.push({ id, status });
        return status === 'hang' ? 'hang' : { status };
      };

      // Traffic from `busy` all along: reads, searches and uploads, three at a time.
      const tally = { sent: 0, ok: 0, statuses: {} as Record<string, number>, cut: 0, okSinceKill: 0 };
      let killed = false;
      const ops = [
        () => fetch(`${base}/v1/trademarks/${APPS[tally.sent % 4]}/`, { headers: { 'X-API-Key': busy.key } }),
        () => fetch(`${base}/v1/trademarks/?word_mark=A&match_type=SMART`, { headers: { 'X-API-Key': busy.key } }),
        () => {
          const form = new FormData();
          form.append('uploaded_file', new Blob([png], { type: 'image/png' }), 'logo.png');
          return fetch(`${base}/v1/logo-search/image/`, { method: 'POST', headers: { 'X-API-Key': busy.key }, body: form });
        },
      ];
      const loops = Array.from({ length: 3 }, async (_, k) => {
        for (let i = k; traffic; i++) {
          tally.sent++;
          try {
            const res = await ops[i % ops.length]();
            await res.arrayBuffer();
            tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1;
            if (res.status === 200) tally.ok++;
            if (res.status === 200 && killed) tally.okSinceKill++;
          } catch {
            // A request on the process that was killed.
            tally.cut++;
          }
          // Steady, not flat out: the processes being tested need the two cores too.
          await sleep(20);
        }
      });

      // 1. The workers process dies with deliveries in flight (h2's first attempts hang).
      const delta = await importSet({ db: deps.db, store: deps.store, dir: `${FIXTURES}delta` });
      expect(delta.events).to.be.greaterThan(0);
      await until('deliveries in flight', () => answers.filter((a) => a.status === 'hang').length >= 3, 60_000);
      const workers = workersPid();
      process.kill(workers, 'SIGKILL');
      mark('workers killed');
      await stack.waitFor(/workers process exited/, 30_000);

      // 2. An API process dies holding `locked`'s slots and upload files: two uploads stopped half-way.
      const before = new Set(fs.readdirSync(uploads));
      const held = [
        slowUpload(`${base}/v1/logo-search/image/`, locked.key, 'uploaded_file', png),
        slowUpload(`${base}/v1/logo-search/image/`, locked.key, 'uploaded_file', png),
      ];
      let mine: string[] = [];
      let writer = new Map<string, number>();
      const sizes = () =>
        new Map(
          fs
            .readdirSync(uploads)
            .filter((f) => !before.has(f))
            .map((f) => {
              try {
                return [f, fs.statSync(path.join(uploads, f)).size] as const;
              } catch {
                return [f, -1] as const;
              }
            }),
        );
      await until(
        'both held uploads on disk',
        async () => {
          // The traffic's files come, fill and go; the held ones stay half-written, open in the process writing them.
          const first = sizes();
          await sleep(300);
          const second = sizes();
          mine = [...second].filter(([f, n]) => n >= 0 && n < png.length && first.get(f) === n).map(([f]) => f);
          writer = writers(
            apiPids().map((c) => c.pid),
            uploads,
          );
          return (
            mine.length === 2 && mine.every((f) => writer.has(f)) && (await redis.zcard(`${ratePrefix}:inflight:${locked.accountId}`)) === 2
          );
        },
        30_000,
      );
      const victim = writer.get(mine[0])!;
      const victimFiles = mine.filter((f) => writer.get(f) === victim);
      // Uploads held by the other process: it goes on serving them.
      const elsewhere = mine.length - victimFiles.length;
      process.kill(victim, 'SIGKILL');
      killed = true;
      mark('api killed');
      await stack.waitFor(new RegExp(`api process ${victim} exited \\(signal SIGKILL\\)[^\\n]*starting another`), 30_000);
      // Once the supervisor has seen it die, what it held is free: its slots are out of the account's set, its files gone.
      const inflight = await redis.zrange(`${ratePrefix}:inflight:${locked.accountId}`, '0', '-1');
      expect(inflight.length, 'slots of the account still held').to.equal(elsewhere);
      expect(victimFiles.filter((f) => fs.existsSync(path.join(uploads, f)))).to.deep.equal([]);
      // So the account is not locked out: a request of its own is admitted.
      const after = await fetch(`${base}/v1/trademarks/${APPS[0]}/`, { headers: { 'X-API-Key': locked.key } });
      expect(after.status, await after.text()).to.equal(200);
      const freed = 'freed its [1-9]\\d* concurrency slots? and [1-9]\\d* upload files?';
      expect(stack.log()).to.match(new RegExp(`api process ${victim} exited \\(signal SIGKILL\\) after [\\d.]+ s; ${freed}`));
      for (const h of held) h.abort();

      // 3. Every event is delivered to every webhook, once the jobs the dead workers process held are handed out again.
      const events = (await deps.db('outbox').select('id')).map((e: { id: string }) => e.id);
      const expected = new Set(events.flatMap((e) => hooks.map((h) => messageId(e, h))));
      const status = async () =>
        JSON.stringify(await deps.db('webhook_deliveries').select('status', 'attempts').count('* as n').groupBy('status', 'attempts'));
      await until(
        'every delivery made',
        async () =>
          Number((await deps.db('webhook_deliveries').where({ status: 'delivered' }).count('* as n').first())!.n) === expected.size,
        60_000,
        status,
      );
      mark('delivered');
      traffic = false;
      await Promise.all(loops);
      // The traffic was answered throughout, by the other process while the dead one was replaced: every
      // answer a 200; the only failures, requests cut by the kill.
      expect(Object.keys(tally.statuses)).to.deep.equal(['200']);
      expect(tally.okSinceKill).to.be.greaterThan(0);

      expect(Number((await deps.db('outbox').whereNull('fanned_out_at').count('* as n').first())!.n)).to.equal(0);
      // Every attempt logged was seen by the endpoint, with the answer logged; the endpoint saw at most the
      // attempts in flight at the kill more than were logged (those are made again: at least once).
      const logged = await deps
        .db('webhook_attempts as a')
        .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .select('d.outbox_id', 'd.webhook_id', 'a.status_code', 'a.error');
      const loggedBy = new Map<string, { ok: number; failed: number }>();
      for (const a of logged) {
        const id = messageId(a.outbox_id, a.webhook_id);
        const l = loggedBy.get(id) ?? { ok: 0, failed: 0 };
        if (a.status_code === 200) l.ok++;
        else l.failed++;
        loggedBy.set(id, l);
      }
      for (const id of expected) {
        const sent = answers.filter((a) => a.id === id);
        const l = loggedBy.get(id) ?? { ok: 0, failed: 0 };
        expect(l.ok, id).to.equal(1);
        expect(sent.filter((a) => a.status === 200).length, id).to.be.at.least(1);
        expect(l.failed, id).to.be.at.most(sent.filter((a) => a.status !== 200).length);
      }
      const failedLost = answers.filter((a) => a.status !== 200).length - logged.filter((a) => a.status_code !== 200).length;
      const okLost = answers.filter((a) => a.status === 200).length - logged.filter((a) => a.status_code === 200).length;
      const lost = answers.length - logged.length;
      expect(answers.every((a) => expected.has(a.id))).to.equal(true);
      expect(failedLost).to.be.at.least(0);
      expect(okLost).to.be.at.least(0);
      // At least the hanging attempts were cut; at most what one workers process had in flight.
      expect(lost).to.be.within(1, Number(env.WEBHOOK_CONCURRENCY));
      const counts = await deps.db('webhook_deliveries').select('attempts', 'id');
      const rows = await deps.db('webhook_attempts').select('delivery_id').count('* as n').groupBy('delivery_id');
      const perDelivery = new Map(rows.map((r) => [String(r.delivery_id), Number(r.n)]));
      for (const d of counts) expect(d.attempts).to.equal(perDelivery.get(String(d.id)));

      // 4. Nothing is left held: no slot of either account, no upload file.
      const slotsLeft = async () =>
        (await redis.zcard(`${ratePrefix}:inflight:${locked.accountId}`)) + (await redis.zcard(`${ratePrefix}:inflight:${busy.accountId}`));
      await until(
        'every slot given back',
        async () => (await slotsLeft()) === 0,
        10_000,
        async () => String(await slotsLeft()),
      );
      await until(
        'every upload removed',
        () => fs.readdirSync(uploads).length === 0,
        10_000,
        () => fs.readdirSync(uploads).join(', '),
      );

      // 5. A stop with requests in flight: they are answered (their searches still reach the sidecar and the
      // workers, stopped only after the API processes), then everything exits.
      await stack.waitFor(/listening, in place of one that exited/, 60_000);
      const single = slowUpload(`${base}/v1/logo-search/image/`, busy.key, 'uploaded_file', png);
      const bulk = slowUpload(`${base}/v1/logo-search/bulk-image/`, busy.key, 'uploaded_files', png);
      await until('both in flight', async () => (await redis.zcard(`${ratePrefix}:inflight:${busy.accountId}`)) === 2, 10_000);
      mark('stopping');
      const apis = apiPids().length;
      const stopping = stack.stop();
      // Both API processes have stopped taking requests (a new connection waits until they have exited).
      await until(
        'the API processes draining',
        () => (stack!.log().match(/api process \d+ stopping: no new requests/g) ?? []).length === apis,
        10_000,
      );
      single.finish();
      bulk.finish();
      const [a, b] = await Promise.all([single.response, bulk.response]).catch((err: Error) => {
        throw new Error(`${err.message}; npm start said:\n${stack!.log().slice(-5000)}`);
      });
      expect(a.status, a.body).to.equal(200);
      expect(b.status, b.body).to.equal(200);
      expect(JSON.parse(b.body).results[0].error, b.body).to.equal(null);
      expect(await stopping, stack.log()).to.equal(0);
      stack = undefined;
      mark('stopped');

      console.log(
        `      faults: ${tally.sent} requests sent during the faults (${tally.ok} answered 200, ${tally.cut} cut by the kill; ` +
          `statuses ${JSON.stringify(tally.statuses)}); 2 processes killed (1 API, workers); ` +
          `${answers.length} webhook attempts seen by the endpoint, ` +
          `${logged.length} logged, ${lost} cut by the kill and made again; ${expected.size} deliveries, all delivered`,
      );
    },
  );
});
