// Journal import speed (issue 43): a journal of --pages entries (2,000 by default) written in the published layout by
// our renderer (some multi-class, Madrid with priority claims, associations, goods long enough to go on over a second
// page), then imported into the database of DATABASE_URL (a copy of the register; it gains the journal's marks): the
// pages read and parsed, the delta applied. Beside, in the same run, pdf-parse (an npm PDF text extractor) taking the
// text of the same file, the floor of any import that reads it. Target: a 2,000-page journal in ≤ 2 minutes.
// Field accuracy on real journal pages is bench/journalReal.ts.
//   DATABASE_URL=… nice npx tsx bench/journal.ts [--pages 2000] [--seed 3]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFParse } from 'pdf-parse';
import { loadConfig } from '../src/config.ts';
import { type JournalEntry, OFFICES } from '../src/ingest/journal/layout.ts';
import { readJournal } from '../src/ingest/journal/readJournal.ts';
import { renderJournal } from '../src/ingest/journal/render.ts';
import { createRoot, SCRIPT } from '../src/root.ts';
import { args } from './lib.ts';
import { Rng } from './rng.ts';

const a = args();
const pages = Number(a.get('pages') ?? 2000);
const r = new Rng(Number(a.get('seed') ?? 3));
const WORDS = ['SUN', 'RISE', 'GANGA', 'LOTUS', 'KRISHNA', 'NOVA', 'AMRIT', 'VEDA', 'ZEN', 'PRIME', 'GOLD', 'TECH', 'AGRO', 'CARE'];
const word = () => Array.from({ length: 1 + r.int(2) }, () => r.pick(WORDS)).join('');
const GOODS = ['soaps', 'perfumery', 'essential oils', 'cosmetics', 'hair lotions', 'dentifrices', 'bleaching preparations'];
const goods = (n: number) => Array.from({ length: n }, () => r.pick(GOODS)).join('; ');
const entries: JournalEntry[] = Array.from({ length: pages }, (_, i) => {
  const cls = 1 + Math.floor((i * 45) / pages);
  const multi = i % 13 === 5 && cls < 45;
  return {
    journal_number: '2299',
    publication_date: '2026-11-30',
    class_number: cls,
    classes: multi ? [cls, cls + 1] : null,
    word_mark: i % 7 === 3 ? null : `${word()} ${word()}`,
    application_number: String(7_100_000 + i),
    application_date: `2025-0${1 + r.int(9)}-1${r.int(10)}`,
    international_registration: i % 11 === 0 ? String(1_700_000 + i) : null,
    priority: i % 11 === 0 ? { date: '2024-12-02', number: `30 2024 ${100 + r.int(900)}`, country: 'Germany' } : null,
    proprietor: {
      name: `${word()} ${r.pick(['PRIVATE LIMITED', 'LLP', '& CO.', 'INDUSTRIES'])}`,
      address: [`${1 + r.int(99)}, MG ROAD`, 'PUNE - 411001'],
      kind: i % 11 === 0 ? null : 'Private Limited Company',
    },
    agent: i % 3 ? { name: `${word()} & ASSOCIATES`, address: ['FORT, MUMBAI - 400001'] } : null,
    used_since: i % 2 ? null : '2019-01-01',
    associated_with: i % 17 === 0 ? [String(3_800_000 + i)] : [],
    office: r.pick(OFFICES),
    // One entry in 50 with goods that go on over a second page.
    goods_services: multi ? `Cl.${cls};${goods(6)} Cl.${cls + 1};${goods(6)}` : goods(i % 50 === 7 ? 900 : 4 + r.int(20)),
    conditions: i % 5 ? [] : ['NO RIGHT TO THE EXCLUSIVE USE OF THE DESCRIPTIVE WORDS.'],
  };
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-bench-journal-'));
const file = path.join(dir, 'journal.pdf');
let t = performance.now();
const id = { journal_number: '2299', publication_date: '2026-11-30' };
fs.writeFileSync(
  file,
  await renderJournal(
    id,
    entries.map((entry) => ({ kind: 'entry', entry })),
  ),
);
console.log(
  `rendered ${pages} entries in ${((performance.now() - t) / 1000).toFixed(1)} s (${(fs.statSync(file).size / 1e6).toFixed(1)} MB)`,
);

t = performance.now();
const parser = new PDFParse({ data: fs.readFileSync(file) });
const text = await parser.getText();
await parser.destroy();
const peer = (performance.now() - t) / 1000;

// Field by field against what was written: our own rendering, so a check of the reader, not of real journals.
const read = await readJournal(fs.readFileSync(file));
const FIELDS = Object.keys(entries[0]) as (keyof JournalEntry)[];
const right = Object.fromEntries(FIELDS.map((f) => [f, 0]));
const byApp = new Map(read.entries.map((e) => [e.application_number, e]));
for (const e of entries) {
  const got = byApp.get(e.application_number);
  if (got) for (const f of FIELDS) if (JSON.stringify(got[f]) === JSON.stringify(e[f])) right[f]++;
}
console.log(`${text.pages.length} pages; fields read back exactly, of ${pages}: ${FIELDS.map((f) => `${f} ${right[f]}`).join(', ')}`);

const root = createRoot(loadConfig(), SCRIPT);
t = performance.now();
const res = await root.services.journalImport.importFile(file);
const ours = (performance.now() - t) / 1000;
await root.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log(
  `pdf-parse, text only: ${peer.toFixed(1)} s\n` +
    `import-journal (read, parse, apply): ${ours.toFixed(1)} s (target <= 120 s), ${res.entries} entries, ${res.refused.length} refused, ` +
    `${res.result.counts.trademarks.inserted} inserted; ratio ${(ours / peer).toFixed(2)}`,
);
