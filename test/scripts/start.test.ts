import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/knex.ts';
import { importSet } from '../../src/ingest/importer/index.ts';
import { LOGO_INDEX_QUEUE } from '../../src/logos/indexer.ts';
import { createRoot } from '../../src/root.ts';
import { DELIVERY_QUEUE } from '../../src/webhooks/outboxRelay.ts';
import { RENEWALS_QUEUE } from '../../src/webhooks/renewals.ts';
import { createAccount } from '../helpers/accounts.ts';
import { children, freePort, type Stack, spawnStack, startStack } from '../helpers/stack.ts';

describe('npm start', function () {
  this.timeout(180_000);
  const name = `nishaan_test_start_${randomBytes(4).toString('hex')}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-start-'));
  const dbUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
  const prefix = `test-${name}`;

  // Every stack started, stopped in the end even when an assertion failed before the test stopped it.
  const stacks: Stack[] = [];
  const start = async (...a: Parameters<typeof startStack>) => {
    const stack = await startStack(...a);
    stacks.push(stack);
    return stack;
  };

  after(async () => {
    await Promise.all(stacks.map((s) => s.stop()));
    const redis = new Redis('redis://127.0.0.1:6379/0', { maxRetriesPerRequest: null });
    for (const name of [DELIVERY_QUEUE, RENEWALS_QUEUE, LOGO_INDEX_QUEUE]) {
      const queue = new Queue(name, { connection: redis, prefix });
      await queue.obliterate({ force: true });
      await queue.close();
    }
    redis.disconnect();
    const admin = createDb('postgres://postgres@127.0.0.1:5432/postgres', 1);
    await admin.raw(`drop database if exists "${name}" with (force)`);
    await admin.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'creates and migrates the database, imports a demo registry once, ' +
      'serves it with its workers and ML sidecar, indexes its logos, and stops cleanly',
    async () => {
      const port = await freePort();
      const mlPort = await freePort();
      const env = {
        PORT: String(port),
        ML_URL: `http://127.0.0.1:${mlPort}`,
        UPLOAD_DIR: path.join(dir, 'uploads'),
        DATABASE_URL: dbUrl,
        OBJECT_STORE_DIR: path.join(dir, 'objects'),
        DEMO_DIR: path.join(dir, 'demo'),
        DEMO_RECORDS: '300',
        DEMO_LOGOS: '5',
        LOG_LEVEL: 'silent',
        NODE_ENV: 'development',
        QUEUE_PREFIX: prefix,
        RATE_LIMIT_PREFIX: `test:${name}`,
        SEARCH_SNAPSHOT: path.join(dir, 'search', 'index.snapshot'),
        CLEARANCE_WORKERS: '2',
      };
      const first = await start(env);
      expect(first.log()).to.contain('generating a demo registry of 300 marks');
      // The search index is built once, before the API processes start, and saved for the next start.
      expect(first.log()).to.match(/search index built in [\d.]+ s \(\d+ marks\)/);
      // Batch clearance on two processes: the workers process and one of its own.
      expect(children(first.child.pid!).filter((p) => p.cmd.includes('workers/clearance.ts'))).to.have.length(1);
      // Every process it started (API, workers, batch clearance, sidecar) decided on source maps before its own modules.
      const started = children(first.child.pid!).filter((p) => p.cmd.startsWith(`${process.execPath} `));
      expect(started.length).to.be.at.least(4);
      expect(started.filter((p) => !p.cmd.includes('scripts/sourceMaps.mjs')).map((p) => p.cmd)).to.deep.equal([]);
      // ... and runs with malloc's threshold fixed, so that freed buffers go back to the system (scripts/malloc.ts).
      const unfixed = started.filter(
        (p) => !fs.readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0').includes('MALLOC_MMAP_THRESHOLD_=131072'),
      );
      expect(unfixed.map((p) => p.cmd)).to.deep.equal([]);
      expect(first.log()).to.contain('+ workers + 1 batch clearance + ML sidecar');
      const snapshotTime = fs.statSync(env.SEARCH_SNAPSHOT).mtimeMs;
      const db = createDb(dbUrl, 1);
      const { rows } = await db.raw(
        `select application_number, word_mark from trademarks where word_mark <> '' order by application_number limit 1`,
      );
      const marks = await db.raw('select count(*)::int as n from trademarks');
      const { key } = await createAccount(db);
      await db.destroy();
      expect(marks.rows[0].n).to.equal(300);
      const res = await fetch(`http://127.0.0.1:${port}/v1/trademarks/${rows[0].application_number}/`, { headers: { 'X-API-Key': key } });
      expect(res.status).to.equal(200);
      expect((await res.json()).application_number).to.equal(rows[0].application_number);
      const search = (wordMark: string) =>
        fetch(`http://127.0.0.1:${port}/v1/trademarks/?word_mark=${encodeURIComponent(wordMark)}&match_type=EXACT`, {
          headers: { 'X-API-Key': key },
        }).then((r) => r.json());
      expect((await search(rows[0].word_mark)).results.map((r: { application_number: string }) => r.application_number)).to.include(
        rows[0].application_number,
      );

      // A delta imported while it runs is relayed and fanned out by the workers process (webhooks).
      const deps = createRoot(loadConfig({ ...env, PORT: '0', SEARCH_SNAPSHOT: '' }));
      const imported = await importSet({ db: deps.db, store: deps.store, dir: path.join(dir, 'demo', 'delta') });
      expect(imported.events).to.be.greaterThan(0);
      let pending = -1;
      for (let i = 0; i < 100 && pending !== 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        pending = (await deps.db.raw('select count(*)::int as n from outbox where fanned_out_at is null or seq is null')).rows[0].n;
      }
      await deps.close();
      expect(pending).to.equal(0);

      // The ML sidecar runs beside them, and the logos (the demo's and the delta's) are indexed in the background.
      const health = await (await fetch(`http://127.0.0.1:${mlPort}/health`)).json();
      expect(health.ok).to.equal(true);
      const logoDb = createDb(dbUrl, 1);
      let states: Record<string, number> = {};
      for (let i = 0; i < 600 && !(states.done >= 5 && !states.pending); i++) {
        await new Promise((r) => setTimeout(r, 100));
        const r = await logoDb.raw('select index_state, count(*)::int as n from logos group by 1');
        states = Object.fromEntries(r.rows.map((x: { index_state: string; n: number }) => [x.index_state, x.n]));
      }
      const vectors = (await logoDb.raw('select count(*)::int as n from logo_vectors where model = ?', [health.model.model])).rows[0].n;
      await logoDb.destroy();
      expect(Object.keys(states)).to.deep.equal(['done']);
      expect(vectors).to.equal(states.done);

      expect(await first.stop()).to.equal(0);
      // The sidecar has stopped with the rest.
      expect(await answering(`http://127.0.0.1:${mlPort}/health`)).to.equal(false);
      // The workers process is gone too (its relay would otherwise keep the database busy).
      expect(await connectionsTo(name)).to.equal(0);

      // The second start the README's way, `npm start`, stopped as a service manager stops it: SIGTERM to npm,
      // which hands it on to the supervisor (a shell between the two would die of it and leave them running).
      const second = await start(env, { npm: true });
      expect(second.log()).to.not.contain('generating a demo registry');
      expect(second.log()).to.not.contain('search index built');
      expect(fs.statSync(env.SEARCH_SNAPSHOT).mtimeMs).to.equal(snapshotTime);
      // Started from the snapshot, the API caught up with the delta imported since it was made.
      const later = createDb(dbUrl, 1);
      const changed = (
        await later.raw(
          `select application_number, word_mark from trademarks where word_mark <> '' and updated_at > ?
      order by application_number limit 1`,
          [new Date(snapshotTime).toISOString()],
        )
      ).rows[0] as { application_number: string; word_mark: string } | undefined;
      await later.destroy();
      expect(changed, 'the delta changed a mark with words').to.not.equal(undefined);
      expect((await search(changed!.word_mark)).results.map((r: { application_number: string }) => r.application_number)).to.include(
        changed!.application_number,
      );
      expect(await second.stop()).to.equal(0);
      expect(await answering(`http://127.0.0.1:${port}/healthz`)).to.equal(false);
      expect(await connectionsTo(name)).to.equal(0);

      // The same machine's parts on nodes of their own (NODE_ROLES): API processes alone, then the sidecar alone.
      const apiNode = await start({ ...env, NODE_ROLES: 'api' });
      expect(apiNode.log()).to.match(/Nishaan API on \S+ \(\d+ API processes, ready in/);
      const others = children(apiNode.child.pid!).filter((p) => /workers\/(main|clearance)\.ts|sidecar/.test(p.cmd));
      expect(others).to.deep.equal([]);
      expect((await search(rows[0].word_mark)).results.map((r: { application_number: string }) => r.application_number)).to.include(
        rows[0].application_number,
      );
      expect(await apiNode.stop()).to.equal(0);
      const mlNode = spawnStack({ ...env, NODE_ROLES: 'sidecar' });
      stacks.push(mlNode);
      await mlNode.waitFor(/Nishaan node running ML sidecar, no API processes/);
      let up = false;
      for (let i = 0; i < 300 && !up; i++) {
        await new Promise((r) => setTimeout(r, 100));
        up = await answering(`http://127.0.0.1:${mlPort}/health`);
      }
      expect(up).to.equal(true);
      expect(await answering(`http://127.0.0.1:${port}/healthz`)).to.equal(false);
      expect(await mlNode.stop()).to.equal(0);
      expect(await answering(`http://127.0.0.1:${mlPort}/health`)).to.equal(false);
      expect(await connectionsTo(name)).to.equal(0);
    },
  );
});

/** Whether anything answers at the URL. */
const answering = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

/** Connections open to the database but this one: none once every process of a stack has stopped. */
async function connectionsTo(name: string): Promise<number> {
  const check = createDb('postgres://postgres@127.0.0.1:5432/postgres', 1);
  try {
    const r = await check.raw('select count(*)::int as n from pg_stat_activity where datname = ? and pid <> pg_backend_pid()', [name]);
    return r.rows[0].n;
  } finally {
    await check.destroy();
  }
}
