import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Builder } from './build.ts';
import { AS_OF, DELTA_DAY, DELTA_JOURNAL, FIRST_JOURNAL, iso, journalDay, LAST_JOURNAL } from './dates.ts';
import { writeDelta } from './delta.ts';
import { Sink } from './emit.ts';
import { JOURNAL_PAGES, journalFile, writeDocumentPool, writeJournalPdfs } from './files.ts';
import { hasLogoType, renderLogos, selectLogos } from './logoSet.ts';
import { LogoRenderer } from './logos.ts';
import { Marks } from './marks.ts';
import { SetWriter } from './output.ts';
import { defaultDeltaSize, planDelta } from './plan.ts';
import { runChunks } from './pool.ts';
import { loadReference } from './reference.ts';
import { hash3 } from './rng.ts';
import { unknownStatuses } from './status.ts';

// A deterministic synthetic registry: a baseline file set of `records` trade marks with their linked
// records, journals, documents and logos, and a delta set holding one day of changes on top of it,
// both in the ingest format of docs/ingest.md. Same records and seed, same bytes.

export interface GenerateOptions {
  records: number;
  seed: number;
  out: string;
  /** Marks that get a logo image (capped at the number of device/composite marks). */
  logos?: number;
  /** Baseline marks changed (or filed) in the delta; at least 3 of every kind. */
  deltaSize?: number;
  /** Worker threads for the baseline JSONL; 0 generates in the calling thread. */
  threads?: number;
  /** Directory with the reference CSVs (default: data/reference, else the shared data set). */
  dataDir?: string;
  progress?: (message: string) => void;
}

export interface SetSummary {
  dir: string;
  counts: Record<string, number>;
  bytes: number;
}

export interface GenerateSummary {
  baseline: SetSummary;
  delta: SetSummary;
}

export const DEFAULT_LOGOS = 100_000;
const CHUNK = 20_000;
const THREADS_FROM = 200_000;
export const MAX_RECORDS = 8_000_000; // application numbers stay 7 digits

export async function generate(opts: GenerateOptions): Promise<GenerateSummary> {
  const n = opts.records;
  if (!Number.isInteger(n) || n < 1 || n > MAX_RECORDS) throw new Error(`records must be an integer from 1 to ${MAX_RECORDS}`);
  if (!Number.isInteger(opts.seed) || opts.seed < 0 || opts.seed > 0xffffffff)
    throw new Error('seed must be an integer from 0 to 4294967295');
  const seed = opts.seed;
  const say = opts.progress ?? (() => {});
  const ref = loadReference(opts.dataDir);
  const unknown = unknownStatuses(ref.statuses);
  if (unknown.length) throw new Error(`status labels missing from tm_status_values.csv: ${unknown.join(', ')}`);
  const marks = new Marks(seed, n);
  const plan = planDelta(marks, opts.deltaSize ?? defaultDeltaSize(n));
  const threads = opts.threads ?? (n >= THREADS_FROM ? Math.min(2, os.availableParallelism()) : 0);

  const baseDir = path.join(opts.out, 'baseline');
  const deltaDir = path.join(opts.out, 'delta');
  // Stale files from an earlier run (a logo of a mark no longer selected) would leak into the set.
  fs.rmSync(baseDir, { recursive: true, force: true });
  fs.rmSync(deltaDir, { recursive: true, force: true });

  // ---- baseline ----
  const base = new SetWriter(baseDir);
  writeDocumentPool(baseDir);
  const journals = new Sink();
  const numbers: number[] = [];
  for (let j = FIRST_JOURNAL; j <= LAST_JOURNAL; j++) {
    journals.add('journals', journalLine(j));
    numbers.push(j);
  }
  base.writeAll(journals.take());
  const journalPdfs = writeJournalPdfs(baseDir, numbers);
  journalPdfs.catch(() => {}); // awaited below

  const renderer = new LogoRenderer(seed, marks);
  const logoList = selectLogos(marks, opts.logos ?? DEFAULT_LOGOS);
  say(`baseline: ${n} marks, ${logoList.length} logos, ${threads || 'no'} worker threads`);
  const logosDone = renderLogos(renderer, logoList, baseDir, (d) => say(`baseline: ${d} / ${logoList.length} logos`));
  logosDone.catch(() => {}); // awaited below; avoids an unhandled rejection while chunks run

  let lastSay = 0;
  await runChunks(
    { seed, n, dataDir: ref.dir, forced: plan.forced },
    n,
    CHUNK,
    threads,
    (c, out) => {
      base.writeAll(out);
      const now = Date.now();
      if (now - lastSay > 2000 || (c + 1) * CHUNK >= n) {
        lastSay = now;
        say(`baseline: ${Math.min(n, (c + 1) * CHUNK)} / ${n} marks, ${(base.bytes / 1e9).toFixed(2)} GB`);
      }
    },
    () => new Promise((r) => setImmediate(r)),
  );
  await journalPdfs;
  const logos = await logosDone;
  base.write('logos', Buffer.from(logos.text, 'latin1'), logos.lines);
  base.close({ kind: 'baseline', generatedAt: generatedAt(seed, AS_OF), seed, records: n });

  // ---- delta ----
  const delta = new SetWriter(deltaDir);
  writeDocumentPool(deltaDir);
  await writeJournalPdfs(deltaDir, [DELTA_JOURNAL]);
  const sink = new Sink();
  sink.add('journals', journalLine(DELTA_JOURNAL));
  const fresh = writeDelta(new Builder(seed, n, ref), plan, sink);
  const out = sink.take();
  delta.writeAll(out);
  const freshLogos = (opts.logos ?? DEFAULT_LOGOS) > 0 ? fresh.filter((i) => hasLogoType(marks, i)) : [];
  const deltaLogos = await renderLogos(renderer, freshLogos, deltaDir);
  delta.write('logos', Buffer.from(deltaLogos.text, 'latin1'), deltaLogos.lines);
  delta.close({
    kind: 'delta',
    generatedAt: generatedAt(seed, DELTA_DAY),
    seed,
    records: out.lines.trademarks,
    extra: { baseline_records: n, changed_marks: plan.slots.length, new_marks: plan.newMarks },
  });
  say(`delta: ${plan.slots.length} changed marks, ${plan.newMarks} new marks`);

  return {
    baseline: { dir: baseDir, counts: { ...base.counts }, bytes: base.bytes },
    delta: { dir: deltaDir, counts: { ...delta.counts }, bytes: delta.bytes },
  };
}

function journalLine(j: number): string {
  return (
    `{"id":${j},"journal_number":"${j}","publication_date":"${iso(journalDay(j))}",` +
    `"file":"${journalFile(j)}","page_count":${JOURNAL_PAGES}}\n`
  );
}

/** A time on the snapshot day that depends on the seed only, never on the clock. */
function generatedAt(seed: number, day: number): string {
  const s = hash3(seed, day, 0x6a7) % 86_400;
  const hh = String(Math.floor(s / 3600)).padStart(2, '0');
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return `${iso(day)}T${hh}:${mm}:${ss}Z`;
}
