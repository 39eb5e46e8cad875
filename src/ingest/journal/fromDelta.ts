import fs from 'node:fs';
import path from 'node:path';
import type { OFFICES, PrintedEntry } from './layout.ts';
import { renderJournal } from './render.ts';

// The demo's delta as the journal that advertises its marks (docs/journal.md): the delta's latest journal, each of its
// marks on a page in the published layout with its proprietor, agent and logo, written beside the delta's files, so
// that a new user can take a journal in with `npm run import-journal`. Marks the layout cannot print (no goods, no
// office) are left out and counted, and so are marks with letters no font of ours has (the renderer sets Latin in the
// standard fonts and Devanagari in the reports' Noto fonts, src/documents/pdfFonts.ts).

const OFFICE_NAMES: Record<string, (typeof OFFICES)[number]> = {
  MUM: 'MUMBAI',
  DEL: 'DELHI',
  KOL: 'KOLKATA',
  CHE: 'CHENNAI',
  AHD: 'AHMEDABAD',
};

type Row = Record<string, unknown>;
const rows = (dir: string, name: string): Row[] => {
  const file = path.join(dir, `${name}.jsonl`);
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
};
/** Latin-1, general punctuation and Devanagari: what the renderer's fonts print. */
const printableText = (s: string) => /^[\x20-\x7e\xa0-\xff\u2010-\u2027\u0900-\u097f\u200c\u200d]*$/.test(s);
const printable = (e: PrintedEntry) =>
  [
    e.word_mark ?? '',
    e.proprietor.name,
    ...e.proprietor.address,
    e.proprietor.kind ?? '',
    e.goods_services,
    e.agent?.name ?? '',
    ...(e.agent?.address ?? []),
  ].every(printableText);
const byApp = (list: Row[]) => new Map(list.map((r) => [String(r.application_number), r]));

/** Writes `journal-<number>.pdf` into the delta's directory; null when the delta lists no journal. */
export async function writeDeltaJournal(dir: string): Promise<{ file: string; entries: number; left: number } | null> {
  const journal = rows(dir, 'journals').at(-1);
  if (!journal) return null;
  const owners = byApp(rows(dir, 'proprietors'));
  const agents = byApp(rows(dir, 'attorneys'));
  const logos = byApp(rows(dir, 'logos'));
  const marks = rows(dir, 'trademarks').filter((t) => t.journal_id === journal.id);
  const entries: PrintedEntry[] = [];
  for (const t of marks) {
    const app = String(t.application_number);
    const office = OFFICE_NAMES[String(t.registry_office)];
    if (!office || typeof t.goods_services !== 'string' || !t.goods_services) continue;
    const owner = owners.get(app);
    const agent = agents.get(app);
    const logo = logos.get(app);
    const image = logo && /\.(png|jpe?g)$/i.test(String(logo.file)) ? fs.readFileSync(path.join(dir, String(logo.file))) : null;
    const name = String(t.proprietor_name);
    const entry: PrintedEntry = {
      journal_number: String(journal.journal_number),
      publication_date: String(journal.publication_date),
      class_number: Number(t.class_number),
      classes: null,
      word_mark: t.word_mark ? String(t.word_mark) : null,
      application_number: app,
      application_date: String(t.application_date),
      international_registration: null,
      priority: null,
      proprietor: {
        // The register's person and the name traded under, printed as the journal prints them.
        name: owner?.trading_as && owner.name === name ? `${name} trading as ${owner.trading_as}` : name,
        address: owner?.address ? [String(owner.address)] : [],
        kind: owner?.entity_type ? String(owner.entity_type) : null,
      },
      agent: agent ? { name: String(agent.name), address: agent.address ? [String(agent.address)] : [] } : null,
      used_since: typeof t.used_since === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(t.used_since) ? t.used_since : null,
      associated_with: [],
      office,
      goods_services: t.goods_services,
      conditions: [],
      image,
    };
    if (printable(entry)) entries.push(entry);
  }
  // Classes in order, as the journal prints them.
  entries.sort((a, b) => a.class_number - b.class_number || Number(a.application_number) - Number(b.application_number));
  const file = path.join(dir, `journal-${journal.journal_number}.pdf`);
  const id = { journal_number: String(journal.journal_number), publication_date: String(journal.publication_date) };
  fs.writeFileSync(
    file,
    await renderJournal(
      id,
      entries.map((entry) => ({ kind: 'entry', entry })),
    ),
  );
  return { file, entries: entries.length, left: marks.length - entries.length };
}
