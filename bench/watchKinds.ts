// Watch matching with every kind of watch (issue 42, item 6): an import of --import register marks against
// --watches mark watches, as many owner watches and as many portfolio watches, through WatchMatcher.matchAll (owner
// entities, exclusions, a portfolio's live marks read from PostgreSQL), beside today's matcher before owner watches in
// the same run: WatchMatcher.match of the mark watches alone. In process; the hits are not stored.
//   DATABASE_URL=… SEARCH_SNAPSHOT=… nice npx tsx bench/watchKinds.ts [--watches 10000] [--import 10000] [--seed 5]
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { createRoot } from '../src/root.ts';
import type { MarkRow, WatchProbe } from '../src/watches/repository.ts';
import { args } from './lib.ts';
import { Rng } from './rng.ts';

const a = args();
const o = { watches: Number(a.get('watches') ?? 10_000), import: Number(a.get('import') ?? 10_000), seed: Number(a.get('seed') ?? 5) };
const config = loadConfig();
const root = createRoot(config);
const c = new pg.Client({ connectionString: config.DATABASE_URL });
await c.connect();
const r = new Rng(o.seed);

const t0 = performance.now();
await root.services.owners.catchUp({ force: true });
console.log(`owners grouped (names not grouped yet, e.g. bench/realMarks.ts's): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const size = Number((await c.query('select count(*)::int as n from trademarks')).rows[0].n);
const sample = (n: number, seed: number) =>
  `select t.application_number, t.word_mark, t.class_number::int as class_number, t.status, t.proprietor_name,
     t.application_date::text, false as has_logo, t.journal_id,
     (select o.entity_id from owner_names o where o.name = t.proprietor_name) as owner_id
   from trademarks t tablesample bernoulli (${Math.min(100, (n * 2 * 100) / size)}) repeatable (${seed})
   where t.word_mark <> '' limit ${n}`;
const marks = (await c.query(sample(o.import, o.seed + 7))).rows as MarkRow[];
const others = (await c.query(sample(o.watches, o.seed + 11))).rows as MarkRow[];
const entities = (
  await c.query(
    `select id from owner_entities tablesample bernoulli (${Math.min(100, (o.watches * 400) / size)}) repeatable (${o.seed})
     limit ${2 * o.watches}`,
  )
).rows.map((x: { id: string }) => x.id);

const base = { account_id: 'a', webhook_id: null, logo: null, min_risk: 'Medium' as const, exclude_owner_ids: [], include_own: false };
const markWatches: WatchProbe[] = others.map((m, i) => ({
  ...base,
  id: `m${i}`,
  kind: 'mark',
  word_mark: m.word_mark,
  classes: [...new Set([m.class_number, 1 + r.int(45)])],
  owner_id: null,
  account_owner_id: entities[i % entities.length],
}));
// Owner watches: half follow an owner of the import (so they fire), half an owner drawn from the register.
const ownerWatches: WatchProbe[] = Array.from({ length: o.watches }, (_, i) => ({
  ...base,
  id: `o${i}`,
  kind: 'owner',
  word_mark: null,
  classes: i % 3 ? [] : [1 + r.int(45)],
  owner_id: i % 2 ? (marks[r.int(marks.length)].owner_id ?? entities[i % entities.length]) : entities[i % entities.length],
  account_owner_id: null,
}));
const portfolioWatches: WatchProbe[] = Array.from({ length: o.watches }, (_, i) => ({
  ...base,
  id: `p${i}`,
  kind: 'portfolio',
  word_mark: null,
  classes: [],
  owner_id: null,
  account_owner_id: entities[(i + o.watches) % entities.length],
}));
const { rows: own } = await c.query(
  `select count(*)::int as n from owner_names n join trademarks t on t.proprietor_name = n.name where n.entity_id = any($1::text[])`,
  [portfolioWatches.map((w) => w.account_owner_id)],
);

const matcher = root.services.watchMatcher;
await matcher.match(markWatches.slice(0, 50), marks.slice(0, 50)); // the index loaded before either is timed
let s = performance.now();
const before = await matcher.match(markWatches, marks);
const baseS = (performance.now() - s) / 1000;
s = performance.now();
const all = await matcher.matchAll([...markWatches, ...ownerWatches, ...portfolioWatches], marks);
const allS = (performance.now() - s) / 1000;
const by = (k: string) => all.filter((m) => m.watch.kind === k).length;
console.log(
  `\n${marks.length} imported marks (${size.toLocaleString('en')} on the register); ` +
    `${markWatches.length} mark, ${ownerWatches.length} owner and ` +
    `${portfolioWatches.length} portfolio watches (the portfolios hold ${own[0].n.toLocaleString('en')} marks)\n` +
    `today's matcher, mark watches alone (match): ${baseS.toFixed(1)} s, ${before.length} hits\n` +
    `every kind (matchAll): ${allS.toFixed(1)} s (target <= 60 s), ${all.length} hits: ${by('mark')} mark, ${by('owner')} owner, ` +
    `${by('portfolio')} portfolio; ratio ${(allS / baseS).toFixed(2)}`,
);
await c.end();
await root.close();
