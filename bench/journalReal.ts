// Field accuracy on real Trade Marks Journal pages (issue 43). Real journals are third-party PDFs and never committed:
// give a folder (outside the repository) of `NAME.pdf` files, each with `NAME.expected.json`, the records written by
// hand from the page as printed: [{page, application_number, application_date, class_number, word_mark, proprietor,
// agent, used_since, office, goods_services}]. Three readers of the same pages, in the same run:
//   ours          src/ingest/journal (pdf.js text with positions and type sizes, the Registry's labels);
//   before        the journal reader of --before REV (default b8645fb, the code before this work), from git;
//   text only     the way the public parsers of the journal read it: pdf-parse's text, fields by labels and line order.
//   npx tsx bench/journalReal.ts --dir /work/journal-excerpts [--before b8645fb]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFParse } from 'pdf-parse';
import { AGENT_LABEL, APP_LINE, HEADER, isoOf, PROPOSED, USED_SINCE } from '../src/ingest/journal/layout.ts';
import { readJournal } from '../src/ingest/journal/readJournal.ts';
import { args } from './lib.ts';

const FIELDS = [
  'application_number',
  'application_date',
  'class_number',
  'word_mark',
  'proprietor',
  'agent',
  'used_since',
  'office',
  'goods_services',
] as const;
type Field = (typeof FIELDS)[number];
type Rec = Record<Field, unknown> & { page: number };

const a = args();
const dir = a.get('dir');
if (!dir) throw new Error('usage: npx tsx bench/journalReal.ts --dir FOLDER [--before REV]');
const before = a.get('before') ?? 'b8645fb';

/** The journal reader of a past commit, written out of git into var/ (ignored) and imported from there. */
async function pastReader(rev: string): Promise<((pdf: Buffer) => Promise<Rec[]>) | null> {
  const root = path.resolve(import.meta.dirname, '..');
  const out = path.join(root, 'var', `journal-${rev}`);
  fs.mkdirSync(out, { recursive: true });
  try {
    for (const f of ['layout.ts', 'parse.ts', 'read.ts'])
      fs.writeFileSync(path.join(out, f), execFileSync('git', ['-C', root, 'show', `${rev}:src/ingest/journal/${f}`]));
  } catch {
    return null;
  }
  const { parsePage } = await import(path.join(out, 'parse.ts'));
  const { readPdfLines } = await import(path.join(out, 'read.ts'));
  return async (pdf) => {
    const pages = (await readPdfLines(pdf)) as unknown[];
    return pages.flatMap((lines, i) => {
      const r = parsePage(i + 1, lines);
      if (!('entry' in r)) return [];
      const e = r.entry;
      return [{ page: i + 1, ...e, proprietor: e.proprietor.name, agent: e.agent?.name ?? null }];
    });
  };
}

/** Fields by the labels and the order of the text's lines, as the public parsers of the journal read it. */
async function textOnly(pdf: Buffer): Promise<Rec[]> {
  const parser = new PDFParse({ data: pdf });
  const text = await parser.getText();
  await parser.destroy();
  const out: Rec[] = [];
  text.pages.forEach((p: { text: string }, k: number) => {
    const lines = p.text
      .split('\n')
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
    const head = HEADER.exec(lines[0] ?? '');
    const at = lines.findIndex((l) => APP_LINE.test(l));
    if (!head || at < 0) return;
    const app = APP_LINE.exec(lines[at]) as RegExpExecArray;
    const agentAt = lines.findIndex((l) => AGENT_LABEL.test(l));
    const useAt = lines.findIndex((l) => USED_SINCE.test(l) || PROPOSED.test(l));
    const used = USED_SINCE.exec(lines[useAt] ?? '');
    const officeAt = useAt + (/^To be associated with/.test(lines[useAt + 1] ?? '') ? 2 : 1);
    const goods = lines.slice(officeAt + 1).filter((l, i, all) => !(i === all.length - 1 && /^\d+$/.test(l)));
    out.push({
      page: k + 1,
      application_number: app[1],
      application_date: isoOf(app[2], app[3], app[4]),
      class_number: Number(head[5]),
      word_mark: at > 1 ? lines.slice(1, at).join(' ') : null,
      proprietor: lines[at + 1] ?? null,
      agent: agentAt >= 0 ? lines[agentAt + 1] : null,
      used_since: used ? isoOf(used[1], used[2], used[3]) : null,
      office: lines[officeAt] ?? null,
      goods_services: goods.join(' '),
    });
  });
  return out;
}

async function ours(pdf: Buffer): Promise<Rec[]> {
  const j = await readJournal(pdf);
  return j.entries.map((e) => ({ ...e, proprietor: e.proprietor.name, agent: e.agent?.name ?? null }));
}

const readers: [string, ((pdf: Buffer) => Promise<Rec[]>) | null][] = [
  ['ours', ours],
  [`before (${before})`, await pastReader(before)],
  ['text only (pdf-parse)', textOnly],
];
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.pdf') && fs.existsSync(path.join(dir, f.replace(/\.pdf$/, '.expected.json'))));
if (!files.length) throw new Error(`no NAME.pdf with NAME.expected.json in ${dir}`);
let expectedCount = 0;
const right = new Map(readers.map(([name]) => [name, Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>]));
const found = new Map(readers.map(([name]) => [name, 0]));
for (const f of files) {
  const pdf = fs.readFileSync(path.join(dir, f));
  const expected = JSON.parse(fs.readFileSync(path.join(dir, f.replace(/\.pdf$/, '.expected.json')), 'utf8')) as Rec[];
  expectedCount += expected.length;
  for (const [name, read] of readers) {
    if (!read) continue;
    const got = new Map((await read(pdf)).map((r) => [r.page, r]));
    for (const e of expected) {
      const g = got.get(e.page);
      if (!g) continue;
      found.set(name, (found.get(name) ?? 0) + 1);
      const tally = right.get(name) as Record<Field, number>;
      for (const field of FIELDS) if (JSON.stringify(g[field] ?? null) === JSON.stringify(e[field])) tally[field]++;
    }
  }
}
console.log(`${files.length} file(s), ${expectedCount} entries written by hand; each field exactly as printed, of ${expectedCount}:`);
for (const [name, read] of readers) {
  if (!read) {
    console.log(`${name}: not available (git show failed)`);
    continue;
  }
  const r = right.get(name) as Record<Field, number>;
  const total = FIELDS.reduce((s, f) => s + r[f], 0);
  console.log(
    `${name.padEnd(24)} entries ${found.get(name)}/${expectedCount}; ${FIELDS.map((f) => `${f} ${r[f]}`).join(', ')}; ` +
      `all fields ${(total / (expectedCount * FIELDS.length)).toFixed(3)}`,
  );
}
