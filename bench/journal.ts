// Journal import speed (issue 43): a journal of --pages entries (2,000 by default) written in the published layout by
// our renderer, then imported into the database of DATABASE_URL (a copy of the register; it gains the journal's marks):
// the pages read and parsed, the delta applied. Beside, in the same run, pdf-parse (an npm PDF text extractor) taking
// the text of the same file, the floor of any import that reads it. Target: a 2,000-page journal in ≤ 2 minutes.
//   DATABASE_URL=… nice npx tsx bench/journal.ts [--pages 2000] [--seed 3]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFParse } from 'pdf-parse';
import { loadConfig } from '../src/config.ts';
import { importJournal } from '../src/ingest/journal/importJournal.ts';
import { type JournalEntry, OFFICES } from '../src/ingest/journal/layout.ts';
import { parsePage } from '../src/ingest/journal/parse.ts';
import { readPdfLines } from '../src/ingest/journal/read.ts';
import { renderJournal } from '../src/ingest/journal/render.ts';
import { createRoot, SCRIPT } from '../src/root.ts';
import { args } from './lib.ts';
import { Rng } from './rng.ts';

const a = args();
const pages = Number(a.get('pages') ?? 2000);
const r = new Rng(Number(a.get('seed') ?? 3));
const WORDS = ['SUN', 'RISE', 'GANGA', 'LOTUS', 'KRISHNA', 'NOVA', 'AMRIT', 'VEDA', 'ZEN', 'PRIME', 'GOLD', 'TECH', 'AGRO', 'CARE'];
const word = () => Array.from({ length: 1 + r.int(2) }, () => r.pick(WORDS)).join('');
const entries: JournalEntry[] = Array.from({ length: pages }, (_, i) => ({
  journal_number: '2299',
  publication_date: '2026-11-30',
  class_number: 1 + Math.floor((i * 45) / pages),
  word_mark: i % 7 === 3 ? null : `${word()} ${word()}`,
  application_number: String(7_100_000 + i),
  application_date: `2025-0${1 + r.int(9)}-1${r.int(10)}`,
  international_registration: i % 11 === 0 ? String(1_700_000 + i) : null,
  proprietor: {
    name: `${word()} ${r.pick(['PRIVATE LIMITED', 'LLP', '& CO.', 'INDUSTRIES'])}`,
    address: [`${1 + r.int(99)}, MG ROAD`, 'PUNE - 411001'],
    kind: 'Private Limited Company',
  },
  agent: i % 3 ? { name: `${word()} & ASSOCIATES`, address: ['FORT, MUMBAI - 400001'] } : null,
  used_since: i % 2 ? null : '2019-01-01',
  office: r.pick(OFFICES),
  goods_services: Array.from({ length: 4 + r.int(20) }, () =>
    r.pick(['soaps', 'perfumery', 'essential oils', 'cosmetics', 'hair lotions', 'dentifrices']),
  ).join('; '),
  conditions: i % 5 ? [] : ['NO RIGHT TO THE EXCLUSIVE USE OF THE DESCRIPTIVE WORDS.'],
}));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-bench-journal-'));
const file = path.join(dir, 'journal.pdf');
let t = performance.now();
fs.writeFileSync(file, await renderJournal(entries));
console.log(
  `rendered ${pages} pages in ${((performance.now() - t) / 1000).toFixed(1)} s (${(fs.statSync(file).size / 1e6).toFixed(1)} MB)`,
);

t = performance.now();
const parser = new PDFParse({ data: fs.readFileSync(file) });
await parser.getText();
await parser.destroy();
const peer = (performance.now() - t) / 1000;

// Field by field against what was written: our own rendering, so a check of the reader, not of real journals.
const lines = await readPdfLines(fs.readFileSync(file));
const read = lines.map((l, i) => parsePage(i + 1, l));
const FIELDS = Object.keys(entries[0]) as (keyof JournalEntry)[];
const right = Object.fromEntries(FIELDS.map((f) => [f, 0]));
read.forEach((x, i) => {
  if (!('entry' in x)) return;
  for (const f of FIELDS) if (JSON.stringify(x.entry[f]) === JSON.stringify(entries[i][f])) right[f]++;
});
console.log(`fields read back exactly, of ${pages}: ${FIELDS.map((f) => `${f} ${right[f]}`).join(', ')}`);

const root = createRoot(loadConfig(), SCRIPT);
t = performance.now();
const res = await importJournal({ db: root.db, store: root.store, file });
const ours = (performance.now() - t) / 1000;
await root.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log(
  `pdf-parse, text only: ${peer.toFixed(1)} s\n` +
    `import-journal (read, parse, apply): ${ours.toFixed(1)} s (target <= 120 s), ${res.entries} entries, ${res.refused.length} refused, ` +
    `${res.result.counts.trademarks.inserted} inserted; ratio ${(ours / peer).toFixed(2)}`,
);
