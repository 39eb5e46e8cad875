// Batch clearance as it runs in production (issue 21): a job of --batch register names x 3 classes (its own and
// two drawn at random) written as POST /v1/clearance/batch/ writes it, its chunks put on a BullMQ queue of its
// own, and P batch clearance processes (workers/clearance.ts, the consumer npm start runs CLEARANCE_WORKERS of)
// taking them; timed from the enqueue to the job's end, each process having loaded its index before. The
// --processes list runs in the order given, so that 1,2,2,1 alternates the one-process baseline with two.
// Writes a throwaway account, its plan and its jobs (answers, credits, the clearance.completed event) into the
// database, and removes them at the end; the register itself is only read.
//   DATABASE_URL=... SEARCH_SNAPSHOT=FILE OBJECT_STORE_DIR=... npx tsx bench/clearance/batchQueue.ts \
//     [--batch 1000] [--processes 1,2,2,1] [--seed 21]
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { Queue } from 'bullmq';
import { CLEARANCE_BATCH_QUEUE, enqueueBatch } from '../../src/clearance/batchService.ts';
import { loadConfig } from '../../src/config.ts';
import { createRoot } from '../../src/root.ts';
import { createAccount } from '../../test/helpers/accounts.ts';
import { args, DEFAULT_URL } from '../lib.ts';
import { Rng } from '../rng.ts';
import { liveNames, threeClasses } from './names.ts';

const a = args();
const batch = Number(a.get('batch') ?? 1000);
const runs = (a.get('processes') ?? '1,2,2,1').split(',').map(Number);
const seed = Number(a.get('seed') ?? 21);
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const prefix = `bench-clr-${randomBytes(4).toString('hex')}`;
// No search cache: a later run would otherwise be answered from the first one's searches.
const env = { ...process.env, DATABASE_URL: url, SEARCH_CACHE_TTL_SECONDS: '0', LOG_LEVEL: 'warn', QUEUE_PREFIX: prefix };
const config = loadConfig(env);
const deps = createRoot(config);
const size = Number((await deps.db.raw(`select reltuples::bigint as n from pg_class where relname = 'trademarks'`)).rows[0].n);
const r = new Rng(seed + 2);
const proposals = (await liveNames(url, batch, seed + 2, size)).map((m) => {
  const classes = threeClasses(m.class_number, r);
  return { word_mark: m.word_mark, classes, status: ['live', 'pending'], limit: 50, offset: 0 };
});
const account = await createAccount(deps.db, { quotas: { api_calls: 1_000_000_000 } });
const queue = new Queue(CLEARANCE_BATCH_QUEUE, { connection: deps.connections.queues, prefix });
const WORKER = new URL('../../workers/clearance.ts', import.meta.url).pathname;
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const kib = (pid: number, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);

function start(): Promise<ChildProcess> {
  const child = fork(WORKER, [], { env, execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`batch clearance process exited ${code}`)));
  });
}
const stop = (p: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve();
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
  });

console.log(
  `${proposals.length} names x 3 classes, chunks of 25 on BullMQ; ${os.availableParallelism()} cores; ` +
    `register ~${size.toLocaleString('en')} marks`,
);
const walls = new Map<number, number[]>();
const ids: string[] = [];
try {
  for (const p of runs) {
    const t0 = performance.now();
    const children = await Promise.all(Array.from({ length: p }, start));
    const readyS = (performance.now() - t0) / 1000;
    const id = await deps.repos.clearanceBatches.create(account.accountId, proposals);
    ids.push(id);
    const before = load();
    const s = performance.now();
    await enqueueBatch(queue, { id, total: proposals.length }, 0);
    await deps.repos.clearanceBatches.markEnqueued(id);
    let status = '';
    while (status !== 'completed' && status !== 'failed') {
      await new Promise((res) => setTimeout(res, 200));
      status = (await deps.db('clearance_batches').where({ id }).first('status')).status;
    }
    const wall = (performance.now() - s) / 1000;
    const errors = (await deps.db('clearance_batch_items').where({ batch_id: id, status: 'error' }).count<{ n: string }[]>('* as n'))[0].n;
    const mem = children.map((c) => `${(kib(c.pid!, 'VmRSS') / 2 ** 20).toFixed(2)} (peak ${(kib(c.pid!, 'VmHWM') / 2 ** 20).toFixed(2)})`);
    await Promise.all(children.map(stop));
    walls.set(p, [...(walls.get(p) ?? []), wall]);
    console.log(
      `${p} process${p > 1 ? 'es' : ''}: ${wall.toFixed(1)} s wall (${status}, ${errors} errors; ` +
        `indexes loaded in ${readyS.toFixed(1)} s before); ` +
        `RSS GiB ${mem.join(', ')}; load ${before} -> ${load()}`,
    );
  }
} finally {
  // The throwaway account and everything it made.
  await deps.db('outbox').whereIn('application_number', ids).del();
  await deps.db('clearance_batches').where({ account_id: account.accountId }).del();
  const keep = await deps.db.raw(
    `select conrelid::regclass::text as t, a.attname as c from pg_constraint k
     join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
     where k.contype = 'f' and k.confrelid = 'accounts'::regclass`,
  );
  for (const { t, c } of keep.rows as { t: string; c: string }[]) await deps.db(t).where(c, account.accountId).del();
  await deps.db('accounts').where({ id: account.accountId }).del();
  await deps.db('plans').where({ id: account.planId }).del();
  await queue.obliterate({ force: true });
  await queue.close();
  await deps.close();
}
const mean = (xs: number[] = []) => xs.reduce((s, x) => s + x, 0) / xs.length;
const one = mean(walls.get(1));
for (const [p, xs] of walls)
  if (p !== 1)
    console.log(
      `${p} processes: mean ${mean(xs).toFixed(1)} s against ${one.toFixed(1)} s with one: ` +
        `${(mean(xs) / one).toFixed(2)} (target <= 120 s)`,
    );
