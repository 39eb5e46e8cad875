// Documents: how long handing out a signed link takes, and how fast a 5 MB PDF downloads through the
// local object store's /files/ route (signature + plan check + sendFile) beside a bare node:http
// server piping fs.createReadStream of the same file, in the same run.
//   npx tsx bench/documents.ts [--duration 30] [--connections 4]
// Makes (and drops) a database of its own, nishaan_bench_docs_<pid>; reads nothing else.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createDb } from '../src/db/knex.ts';
import { migrateLatest, quoteIdent } from '../src/db/migrate.ts';
import { LocalObjectStore } from '../src/storage/localStore.ts';
import { UrlSigner } from '../src/storage/urlSigner.ts';
import { createAccount } from '../test/helpers/accounts.ts';
import { args, startProcess } from './lib.ts';

const a = args();
const o = { duration: Number(a.get('duration') ?? 30), connections: Number(a.get('connections') ?? 4) };
const admin = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `nishaan_bench_docs_${process.pid}`;
const dbUrl = Object.assign(new URL(admin), { pathname: `/${name}` }).toString();
const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-bench-docs-'));
const SIZE = 5 * 1024 * 1024;
const PORTS = { api: 3951, bare: 3952 };

const pct = (xs: number[], p: number) => xs.sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

async function setup(): Promise<{ key: string; accountId: string }> {
  const adm = createDb(admin, 1);
  await adm.raw(`create database ${quoteIdent(name)}`);
  await adm.destroy();
  const db = createDb(dbUrl, 2);
  try {
    await migrateLatest(db);
    await db('trademarks').insert({
      application_number: '1000001',
      word_mark: 'BENCH',
      class_number: 9,
      status: 'Registered',
      application_date: '2020-01-01',
      tm_type: 'WORD',
      slug: 'bench',
    });
    await db('documents').insert({
      id: 1,
      application_number: '1000001',
      name: 'Five megabytes',
      document_type: 'TM-A',
      upload_date: '2020-01-02',
      object_key: 'blobs/bench5mb.pdf',
      size_bytes: SIZE,
    });
    const acct = await createAccount(db, { quotas: { api_calls: 1e9, doc_views: 1e9 } });
    return { key: acct.key, accountId: acct.accountId };
  } finally {
    await db.destroy();
  }
}

async function teardown(): Promise<void> {
  const adm = createDb(admin, 1);
  await adm.raw(`drop database if exists ${quoteIdent(name)} with (force)`);
  await adm.destroy();
  fs.rmSync(storeDir, { recursive: true, force: true });
}

function load(url: string, headers: Record<string, string> = {}, duration = o.duration) {
  return autocannon({ url, connections: o.connections, duration, headers });
}

/**
 * `connections` loops for `seconds`, each alternating between the servers request by request, so both
 * see the same load at the same moments (the machine is shared, and its load swings within seconds).
 * Bodies are counted and dropped; each download's time is recorded per server.
 */
async function downloads(urls: readonly string[], seconds: number): Promise<{ times: number[]; bytes: number; failed: number }[]> {
  const agents = urls.map(() => new http.Agent({ keepAlive: true, maxSockets: o.connections }));
  const out = urls.map(() => ({ times: [] as number[], bytes: 0, failed: 0 }));
  const end = performance.now() + seconds * 1000;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const t0 = performance.now();
      http
        .get(urls[i], { agent: agents[i] }, (res) => {
          if (res.statusCode !== 200) out[i].failed++;
          res.on('data', (c: Buffer) => (out[i].bytes += c.length));
          res.on('end', () => {
            out[i].times.push(performance.now() - t0);
            resolve();
          });
          res.on('error', reject);
        })
        .on('error', reject);
    });
  await Promise.all(
    Array.from({ length: o.connections }, async (_, c) => {
      for (let n = c; performance.now() < end; n++) await one(n % urls.length);
    }),
  );
  for (const a of agents) a.destroy();
  return out;
}

try {
  const { key, accountId } = await setup();
  // Random bytes behind a PDF header: nothing along the way can compress them.
  const file = path.join(storeDir, 'blobs', 'bench5mb.pdf');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(SIZE - 9)]));

  // 1. Signing a link in process (what every listing does per document).
  const store = new LocalObjectStore(storeDir, new UrlSigner('bench-signing-secret-0123456789'), () => 'http://127.0.0.1:1');
  const sign: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const t0 = process.hrtime.bigint();
    store.signedUrl('blobs/bench5mb.pdf', { accountId, filename: '1000001 Five megabytes 1.pdf' });
    sign.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  console.log(`sign a link in process: p50 ${pct(sign, 50).toFixed(1)} µs, p99 ${pct(sign, 99).toFixed(1)} µs (20,000 links)`);

  const env = {
    DATABASE_URL: dbUrl,
    OBJECT_STORE_DIR: storeDir,
    RATE_KEY_PER_SECOND: '1000000',
    RATE_IP_PER_MINUTE: '100000000',
    RATE_LIMIT_PREFIX: `bench:${process.pid}`,
    PUBLIC_BASE_URL: `http://127.0.0.1:${PORTS.api}`,
    SEARCH_SNAPSHOT: '',
  };
  const api = await startProcess('./servers/api.ts', { ...env, PORT: String(PORTS.api), BENCH_UNGUARDED: '0' });
  const bare = await startProcess('./servers/bareFile.ts', { BENCH_FILE: file, PORT: String(PORTS.bare) });
  try {
    // 2. GET /v1/documents/{id}/url/ over HTTP: key, limits, one doc_views credit, the SQL read, signing.
    const urlPath = `http://127.0.0.1:${PORTS.api}/v1/documents/1/url/`;
    await load(urlPath, { 'x-api-key': key }, 3);
    const u = await load(urlPath, { 'x-api-key': key }, 10);
    console.log(
      `GET /v1/documents/{id}/url/: ${u.requests.average.toFixed(0)} req/s, ` +
        `p50 ${u.latency.p50} ms, p99 ${u.latency.p99} ms, non-2xx ${u.non2xx}`,
    );

    // 3. Downloads of the 5 MB file through the API's signed link and from the bare server, interleaved.
    // The client reads bodies and throws them away (autocannon's parser would be the bottleneck here).
    const link = (await (await fetch(urlPath, { headers: { 'x-api-key': key } })).json()).presigned_url as string;
    const labels = ['bare node:http + fs.createReadStream', 'Nishaan /files/ (local driver)'];
    const urls = [`http://127.0.0.1:${PORTS.bare}/`, link];
    await downloads(urls, 4);
    const r = await downloads(urls, o.duration);
    const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
    console.log(`\n${o.duration}s, ${o.connections} connections alternating request by request, 5 MB file`);
    console.log('| server | downloads | mean ms | p50 ms | p90 ms | MB/s per connection | failed |\n|---|---|---|---|---|---|---|');
    r.forEach((x, i) =>
      console.log(
        `| ${labels[i]} | ${x.times.length} | ${mean(x.times).toFixed(1)} | ${pct([...x.times], 50).toFixed(1)} | ` +
          `${pct([...x.times], 90).toFixed(1)} | ${(SIZE / 1024 / 1024 / (mean(x.times) / 1000)).toFixed(0)} | ${x.failed} |`,
      ),
    );
    console.log(
      `\nthroughput ratio API / bare = ${(mean(r[0].times) / mean(r[1].times)).toFixed(2)} by mean download time, ` +
        `${(pct([...r[0].times], 50) / pct([...r[1].times], 50)).toFixed(2)} by median (target >= 0.80)`,
    );
    console.log(
      `load average at the end: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    api.kill('SIGTERM');
    bare.kill('SIGTERM');
  }
} finally {
  await teardown();
}
