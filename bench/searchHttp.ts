// Where the time of a search over HTTP goes (issue 4): searches per second of `npm start`'s API
// processes (result cache off) for one query class at a time, with the default page of 50 and with a
// page of 1. EXACT costs the index almost nothing, so its rate is the ceiling set by everything else
// (HTTP, the key check, reading the page's summaries from PostgreSQL, JSON), on the same two cores.
// Uses a snapshot saved by `npm run search-index` or bench/search.ts (--snapshot).
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/nishaan_bench npx tsx bench/searchHttp.ts \
//     --snapshot var/search/index.snapshot [--classes exact,misspelling,mixed] [--duration 15]

import { createBenchAccounts } from './account.ts';
import { args, DEFAULT_URL, loadEnv, measure, type Row, startProcess, table } from './lib.ts';
import { queryClasses } from './searchQueries.ts';

const a = args();
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const snapshot = a.get('snapshot') ?? 'var/search/index.snapshot';
const names = (a.get('classes') ?? 'exact,misspelling,mixed').split(',');
const duration = Number(a.get('duration') ?? 15);
const classes = await queryClasses(url, 60);
// Eight accounts: 16 connections rotating over them never put more than a plan's 10 requests in flight on one key.
const keys = await createBenchAccounts(url, 8);
const env = { ...loadEnv(url, 8), SEARCH_SNAPSHOT: snapshot, SEARCH_CACHE_TTL_SECONDS: '0', PORT: '3912' };
const server = await startProcess('./servers/cluster.ts', env);
const rows: Row[] = [];
try {
  for (const name of names) {
    const qs = name === 'mixed' ? Object.entries(classes).flatMap(([n, q]) => (n === 'exact' ? [] : q)) : classes[name];
    if (!qs) throw new Error(`no query class ${name}; classes are: mixed, ${Object.keys(classes).join(', ')}`);
    for (const limit of [50, 1]) {
      const paths = qs.map((q) => {
        const p = new URLSearchParams({ word_mark: q.text, match_type: q.mode, limit: String(limit) });
        if (q.classes) p.set('classes', q.classes.join(','));
        return `/v1/trademarks/?${p}`;
      });
      rows.push(await measure(`${name}, limit ${limit}`, 3912, paths, { duration, connections: 16, keys }));
    }
  }
} finally {
  server.kill('SIGTERM');
}
table(rows);
