import fs from 'node:fs';
import path from 'node:path';
import { INGEST_FORMAT } from '../importer/index.ts';
import type { JournalEntry, PrintedEntry } from './layout.ts';

// A journal's entries as an ingest delta (docs/ingest.md), so that they go through the importer like any other set:
// the journal (its PDF kept as its download), each entry a trademark advertised in it, its proprietor and its agent.
// The proprietor and agent records have ids made from the application number (in a range of their own, above any the
// generator writes), so that the same journal imported again writes the same rows and changes nothing.

/** The published status of an advertised application (docs/journal.md). */
export const ADVERTISED = 'Accepted & Advertised';

/** Record ids for a journal's linked rows: 8×10^15 + application number × 10 + the row's place (0 owner, 1 agent). */
export const linkedId = (appNo: string, place: 0 | 1) => 8_000_000_000_000_000 + Number(appNo) * 10 + place;

const OFFICE_CODES: Record<JournalEntry['office'], string> = {
  MUMBAI: 'MUM',
  DELHI: 'DEL',
  KOLKATA: 'KOL',
  CHENNAI: 'CHE',
  AHMEDABAD: 'AHD',
};

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');

export interface JournalMeta {
  id: number;
  journal_number: string;
  publication_date: string;
  page_count: number;
}

/** Writes the delta into `dir` (empty), the PDF among its files. */
export function writeJournalDelta(dir: string, journal: JournalMeta, pdf: Buffer, entries: PrintedEntry[]): void {
  fs.mkdirSync(path.join(dir, 'files'), { recursive: true });
  const file = `files/journal-${journal.journal_number}.pdf`;
  fs.writeFileSync(path.join(dir, file), pdf);
  const write = (name: string, rows: object[]) => fs.writeFileSync(path.join(dir, `${name}.jsonl`), jsonl(rows));
  fs.writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ format: INGEST_FORMAT, kind: 'delta', generated_at: new Date(0).toISOString(), records: entries.length }),
  );
  write('journals', [{ ...journal, file }]);
  write(
    'trademarks',
    entries.map((e) => ({
      application_number: e.application_number,
      word_mark: e.word_mark ?? '',
      class_number: e.class_number,
      status: ADVERTISED,
      application_date: e.application_date,
      expire_at: null,
      proprietor_name: e.proprietor.name,
      state: null,
      tm_type: e.word_mark ? 'WORD' : 'DEVICE',
      filing_mode: null,
      alert: '',
      goods_services: e.goods_services,
      used_since: e.used_since ?? 'Proposed to be Used',
      registry_office: OFFICE_CODES[e.office],
      journal_id: journal.id,
      vienna_codes: [],
    })),
  );
  write(
    'proprietors',
    entries.map((e) => ({
      id: linkedId(e.application_number, 0),
      application_number: e.application_number,
      name: e.proprietor.name,
      entity_type: e.proprietor.kind,
      address: e.proprietor.address.join(', ') || null,
      // The state and country are in the address, not read apart yet (docs/journal.md).
      state: null,
    })),
  );
  // A device or label mark's image, as the page draws it: its logo, indexed by the logo workers like any other.
  const logos = entries.filter((e) => e.image);
  for (const e of logos) fs.writeFileSync(path.join(dir, `files/logo-${e.application_number}.png`), e.image!);
  write(
    'logos',
    logos.map((e) => ({ application_number: e.application_number, file: `files/logo-${e.application_number}.png`, ocr_text: null })),
  );
  write(
    'attorneys',
    entries.flatMap((e) =>
      e.agent
        ? [
            {
              id: linkedId(e.application_number, 1),
              application_number: e.application_number,
              name: e.agent.name,
              address: e.agent.address.join(', ') || null,
            },
          ]
        : [],
    ),
  );
}
