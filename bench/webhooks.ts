// Webhook delivery: deliveries per second from the workers process to a local HTTPS receiver, and the
// time from an import's commit to each delivery's arrival, beside a baseline in the same run: a bare
// loop of signed HTTPS POSTs to the same receiver with the same concurrency (what the transport alone
// allows on this machine). Everything runs on a database and queue prefix of its own, dropped after.
//
//   nice -n 10 npx tsx bench/webhooks.ts [--marks 2000] [--webhooks 5] [--events 1000] [--rounds 20] [--per-round 10]
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { prepareDatabase } from '../scripts/migrate.ts';
import { loadConfig } from '../src/config.ts';
import { createDb, splitDbUrl } from '../src/db/knex.ts';
import { importSet } from '../src/ingest/importer/index.ts';
import { LocalObjectStore } from '../src/storage/localStore.ts';
import { UrlSigner } from '../src/storage/urlSigner.ts';
import { DELIVERY_QUEUE } from '../src/webhooks/outboxRelay.ts';
import { RENEWALS_QUEUE } from '../src/webhooks/renewals.ts';
import { WebhookRepository } from '../src/webhooks/repository.ts';
import { generateSecret, SecretBox } from '../src/webhooks/secrets.ts';
import { signatureHeaders } from '../src/webhooks/signing.ts';
import { createAccount } from '../test/helpers/accounts.ts';
import { writeLoopbackCertificate } from '../test/helpers/tls.ts';
import { args } from './lib.ts';

const a = args();
const MARKS = Number(a.get('marks') ?? 2000);
const WEBHOOKS = Number(a.get('webhooks') ?? 5);
const EVENTS = Number(a.get('events') ?? 1000);
const ROUNDS = Number(a.get('rounds') ?? 20);
const PER_ROUND = Number(a.get('per-round') ?? 10);
const CONCURRENCY = Number(a.get('concurrency') ?? 64);

const name = `nishaan_bench_webhooks_${randomBytes(4).toString('hex')}`;
const url = `postgres://postgres@127.0.0.1:5432/${name}`;
const prefix = `bench-${name}`;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-bench-wh-'));
const children: ChildProcess[] = [];

function child(script: string, env: Record<string, string>, extra: string[] = []): Promise<{ p: ChildProcess; msg: any }> {
  const p = fork(new URL(script, import.meta.url).pathname, [], {
    env: { ...process.env, ...env },
    execArgv: ['--import', 'tsx', ...extra],
  });
  children.push(p);
  return new Promise((resolve, reject) => {
    p.once('message', (msg) => resolve({ p, msg }));
    p.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

const ask = (p: ChildProcess): Promise<{ count: number; arrivals: [string, number][] }> =>
  new Promise((resolve) => {
    p.once('message', (m) => resolve(m as { count: number; arrivals: [string, number][] }));
    p.send('stats');
  });

const pct = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

let nextEntry = 50_000_000;
/** A delta file set of `n` new status history entries for marks chosen in turn: `n` status_changed events. */
function statusDelta(n: number, from: number): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'delta-'));
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const app = String(7_000_000 + ((from + i) % MARKS));
    lines.push(
      JSON.stringify({
        id: nextEntry++,
        application_number: app,
        old_status: 'Objected',
        new_status: `Registered ${nextEntry}`,
        changed_at: new Date().toISOString(),
      }),
    );
  }
  fs.writeFileSync(path.join(dir, 'status_history.jsonl'), `${lines.join('\n')}\n`);
  return dir;
}

async function main(): Promise<void> {
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0].model}, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const { key, cert } = writeLoopbackCertificate(tmp);

  await prepareDatabase(url, () => undefined);
  const db = createDb(url, 4);
  await db.raw(
    `insert into trademarks (application_number, word_mark, class_number, status, application_date, tm_type, slug, proprietor_name, state)
     select (7000000 + g)::text, 'MARK ' || g, 1 + g % 45, 'Objected', date '2020-01-01', 'WORD', 'mark-' || g, 'OWNER ' || g, 'DELHI'
     from generate_series(0, ? - 1) g`,
    [MARKS],
  );
  const apps = Array.from({ length: MARKS }, (_, i) => String(7_000_000 + i));
  const { msg } = await child('./servers/receiver.ts', { TLS_KEY: key, TLS_CERT: cert });
  const receiver = children[0];
  const hookUrl = `https://127.0.0.1:${msg.port}/hook`;
  const repo = new WebhookRepository(db);
  const box = new SecretBox(loadConfig({}).WEBHOOK_SECRET_KEY);
  for (let i = 0; i < WEBHOOKS; i++) {
    const acct = await createAccount(db, { monitored_marks_limit: null });
    // Stored as the API stores them (a sealed secret), through the repository.
    const id = randomUUID();
    await repo.transaction((trx) =>
      repo.insert(trx, { id, accountId: acct.accountId, url: hookUrl, events: ['*'], secret: box.seal(generateSecret(), id), apps }),
    );
  }
  const store = new LocalObjectStore(
    path.join(tmp, 'objects'),
    new UrlSigner('bench-signing-secret-0123456789'),
    () => 'http://127.0.0.1:1',
  );
  console.log(`registry: ${MARKS} marks; ${WEBHOOKS} webhooks, each monitoring all of them; concurrency ${CONCURRENCY}`);

  // Baseline: signed POSTs of a comparable body straight to the receiver, CONCURRENCY at a time.
  const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: fs.readFileSync(cert) });
  const body = JSON.stringify({
    event: 'trademark.status_changed',
    trademark: { application_number: '7000001', word_mark: 'MARK 1', class_number: 2 },
    change: { old_value: { status: 'Objected' }, new_value: { status: 'Registered' }, changed_at: new Date().toISOString() },
    full_record: { filler: 'x'.repeat(1200) },
  });
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = https.request(
        `${hookUrl}`,
        {
          method: 'POST',
          agent,
          headers: { 'Content-Type': 'application/json', ...signatureHeaders('whsec_abc', `msg_${Math.random()}`, body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const total = EVENTS * WEBHOOKS;
  // Run before and after the pipeline: on a shared machine the load moves, and the ratio is to their mean.
  const bareLoop = async () => {
    let sent = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < total) {
          sent++;
          await post();
        }
      }),
    );
    await ask(receiver);
    return total / ((performance.now() - t0) / 1000);
  };
  const baseBefore = await bareLoop();
  console.log(`baseline before: ${total} signed HTTPS POSTs in a bare loop: ${baseBefore.toFixed(0)}/s`);

  const workers = await child(
    '../workers/main.ts',
    {
      DATABASE_URL: url,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'error',
      WEBHOOK_ALLOW_ADDRESSES: '127.0.0.1',
      WEBHOOK_CA_FILE: cert,
      WEBHOOK_CONCURRENCY: String(CONCURRENCY),
      OBJECT_STORE_DIR: path.join(tmp, 'objects'),
    },
    a.has('profile') ? ['--cpu-prof', `--cpu-prof-dir=${a.get('profile')}`] : [],
  );
  void workers;

  // Throughput: one import of EVENTS changes to monitored marks, delivered to every webhook.
  const c0 = Date.now();
  const imported = await importSet({ db, store, dir: statusDelta(EVENTS, 0) });
  const committed = Date.now();
  let got = 0;
  let last = 0;
  while (got < total) {
    await new Promise((r) => setTimeout(r, 200));
    const s = await ask(receiver);
    got += s.arrivals.length;
    if (s.arrivals.length) last = Math.max(...s.arrivals.map((x) => x[1]));
  }
  const rate = total / ((last - committed) / 1000);
  console.log(
    `throughput: import of ${imported.events} events (${committed - c0} ms), ${total} deliveries, ` +
      `last ${last - committed} ms after commit: ${rate.toFixed(0)} deliveries/s`,
  );
  const baseAfter = await bareLoop();
  agent.destroy();
  const baseRate = (baseBefore + baseAfter) / 2;
  console.log(`baseline after: ${baseAfter.toFixed(0)}/s; ratio of the pipeline to their mean: ${(rate / baseRate).toFixed(2)}`);

  // Latency: small imports, one a second (a registry day arrives in batches), each delivery timed from its import's commit.
  const lat: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    await importSet({ db, store, dir: statusDelta(PER_ROUND, r * PER_ROUND) });
    const at = Date.now();
    let n = 0;
    while (n < PER_ROUND * WEBHOOKS) {
      await new Promise((res) => setTimeout(res, 20));
      const s = await ask(receiver);
      n += s.arrivals.length;
      for (const [, t] of s.arrivals) lat.push(t - at);
    }
    await new Promise((res) => setTimeout(res, Math.max(0, 1000 - (Date.now() - at))));
  }
  console.log(
    `latency, commit to arrival, ${lat.length} deliveries in ${ROUNDS} imports of ${PER_ROUND} events: ` +
      `p50 ${pct(lat, 0.5)} ms, p95 ${pct(lat, 0.95)} ms, max ${Math.max(...lat)} ms`,
  );
  const failed = await db('webhook_deliveries').whereNot({ status: 'delivered' }).count('* as n').first();
  console.log(
    `deliveries not delivered: ${failed!.n}; load average now ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  await db.destroy();
}

async function cleanup(): Promise<void> {
  for (const p of children) p.kill('SIGTERM');
  // (A profiled workers process writes its profile when it exits on SIGTERM.)
  await new Promise((r) => setTimeout(r, 1500));
  const redis = new Redis('redis://127.0.0.1:6379/0', { maxRetriesPerRequest: null });
  for (const q of [DELIVERY_QUEUE, RENEWALS_QUEUE]) {
    const queue = new Queue(q, { connection: redis, prefix });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
  redis.disconnect();
  const admin = createDb(splitDbUrl(url).adminUrl, 1);
  await admin.raw(`drop database if exists "${name}" with (force)`);
  await admin.destroy();
  fs.rmSync(tmp, { recursive: true, force: true });
}

try {
  await main();
} finally {
  await cleanup();
}
process.exit(0);
