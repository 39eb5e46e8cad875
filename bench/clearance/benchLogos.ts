// Logos for a register built without them (`scripts/generate.ts --logos 0`, as the 7.7M benchmark register is), so
// that bench/clearance.ts --parts speed can time a clearance with an uploaded logo there (issue 21). Adds rows to the
// logo tables only, for existing device and composite marks, never to trademarks:
// - the images: every PNG under --images (a generated register's logos, e.g. its object store), copied into this
//   OBJECT_STORE_DIR under bench-logos/, which marks every row this script adds;
// - logos: --n device and composite marks without a logo, drawn in a seeded order, each given one of those images
//   (the words of a composite mark as its logo's text, none for a device mark), indexed;
// - logo_vectors: the images' own vectors under the register's model for the first marks, then vectors drawn
//   around them as bench/logos/scale.ts draws them, so the nearest-logo search walks an index of realistic size;
// - the model's HNSW index, as the logo workers make it (src/logos/repository.ts ensureModelIndex).
//   DATABASE_URL=… OBJECT_STORE_DIR=<a folder of one's own> npx tsx bench/clearance/benchLogos.ts --images DIR [--n 500000]
//   … npx tsx bench/clearance/benchLogos.ts --remove      # deletes them again (logo_vectors go with their logos)
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { loadConfig } from '../../src/config.ts';
import { createRoot } from '../../src/root.ts';
import { args, DEFAULT_URL } from '../lib.ts';
import { Rng } from '../rng.ts';
import { logoModel } from './logoEdits.ts';

const PREFIX = 'bench-logos/';
const a = args();
const n = Number(a.get('n') ?? 500_000);
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const c = new pg.Client(url);
await c.connect();
const say = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

if (a.has('remove')) {
  const r = await c.query(`delete from logos where object_key like '${PREFIX}%'`);
  say(`removed ${r.rowCount} logos and their vectors`);
  await c.end();
  process.exit(0);
}

const deps = createRoot(loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' }));
const dir = a.get('images');
if (!dir) throw new Error('--images DIR: a folder of PNG logos');
const files = (await fs.readdir(dir, { recursive: true })).filter((f) => f.endsWith('.png')).sort();
const model = await logoModel();
const keys: string[] = [];
const real: number[][] = [];
for (const f of files) {
  const bytes = await fs.readFile(path.join(dir, f));
  const v = await model.embed(bytes).catch(() => null);
  if (!v) continue;
  const key = `${PREFIX}${createHash('sha256').update(bytes).digest('hex')}.png`;
  await deps.store.put(key, bytes, 'image/png');
  keys.push(key);
  real.push(v.vector as number[]);
}
say(`${keys.length} images embedded by ${model.name} and stored under ${PREFIX}`);

const marks = (
  await c.query(
    `select application_number, word_mark, tm_type from trademarks t
     where tm_type in ('DEVICE', 'COMPOSITE') and not exists (select 1 from logos l where l.application_number = t.application_number)
     order by md5(application_number || 'bench-logos') limit $1`,
    [n],
  )
).rows as { application_number: string; word_mark: string; tm_type: string }[];
say(`${marks.length} device and composite marks drawn`);
// An index made before any vector was stored is dropped and built once they are in: filled row by row as they
// are copied, an HNSW index takes far longer than one built over them.
const hnswName = `logo_vectors_hnsw_${model.name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
const held = Number((await c.query('select count(*) from logo_vectors where model = $1', [model.name])).rows[0].count);
if (held === 0) await c.query(`drop index if exists ${hnswName}`);
else say(`note: ${held} ${model.name} vectors were there before; the index, if any, is kept and filled as they are copied`);

// Around the real vectors, as bench/logos/scale.ts draws its synthetic ones.
const r = new Rng(22);
const vec = (i: number): number[] => {
  if (i < real.length) return real[i];
  const base = real[r.int(real.length)];
  const v = base.map((x) => x + (r.next() - 0.5) * 0.5);
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
};
const clean = (s: string) => s.replace(/[\t\n\r\\]/g, ' ');
function* lines(line: (i: number) => string): Generator<string> {
  let buf = '';
  for (let i = 0; i < marks.length; i++) {
    buf += line(i);
    if (buf.length > 1 << 20) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}
const copyIn = (sql: string, line: (i: number) => string) => pipeline(Readable.from(lines(line)), c.query(copyStreams.from(sql)));
await copyIn('copy logos (application_number, object_key, ocr_text, index_state, indexed_at) from stdin', (i) => {
  const m = marks[i];
  const text = m.tm_type === 'COMPOSITE' && m.word_mark ? clean(m.word_mark) : '\\N';
  return `${m.application_number}\t${keys[i % keys.length]}\t${text}\tdone\t2026-11-27\n`;
});
await copyIn(
  'copy logo_vectors (application_number, model, embedding) from stdin',
  (i) =>
    `${marks[i].application_number}\t${model.name}\t[${vec(i)
      .map((x) => x.toFixed(5))
      .join(',')}]\n`,
);
say('logos and vectors copied in');
await c.query('analyze logos');
await c.query('analyze logo_vectors');
// Built here, not through the pool, for the memory and the one worker it is given (the machine is shared).
await c.query(`set maintenance_work_mem = '1GB'`);
await c.query('set max_parallel_maintenance_workers = 0');
const t = performance.now();
await c.query(`create index if not exists ${hnswName} on logo_vectors using hnsw ((embedding::halfvec(${real[0].length}))
  halfvec_cosine_ops) with (m = 16, ef_construction = 64) where model = '${model.name}'`);
await deps.repos.logos.ensureModelIndex(model.name, real[0].length);
say(`HNSW index ${hnswName} ready in ${((performance.now() - t) / 1000).toFixed(0)} s`);
await c.end();
await deps.close();
process.exit(0);
