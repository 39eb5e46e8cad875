import fs from 'node:fs';
import path from 'node:path';
import { INGEST_FORMAT } from '../importer/index.ts';
import type { JournalRecords } from './records.ts';

// A journal's records written as an ingest delta (docs/ingest.md), so that they go through the importer like any other
// set: the journal (its PDF kept as its download), the trademarks, their proprietors, agents and status changes, and
// the device and label marks' images as their logos (indexed by the logo workers like any other).

export interface JournalMeta {
  id: number;
  journal_number: string;
  publication_date: string;
  page_count: number;
}

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');

/** Writes the delta into `dir` (empty), the PDF among its files. */
export function writeJournalDelta(dir: string, journal: JournalMeta, pdf: Buffer, records: JournalRecords): void {
  fs.mkdirSync(path.join(dir, 'files'), { recursive: true });
  const file = `files/journal-${journal.journal_number}.pdf`;
  fs.writeFileSync(path.join(dir, file), pdf);
  const write = (name: string, rows: object[]) => fs.writeFileSync(path.join(dir, `${name}.jsonl`), jsonl(rows));
  fs.writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ format: INGEST_FORMAT, kind: 'delta', generated_at: new Date(0).toISOString(), records: records.trademarks.length }),
  );
  write('journals', [{ ...journal, file }]);
  write('trademarks', records.trademarks);
  write('status_history', records.status_history);
  write('proprietors', records.proprietors);
  write('attorneys', records.attorneys);
  for (const l of records.logos) fs.writeFileSync(path.join(dir, `files/logo-${l.application_number}.png`), l.png);
  write(
    'logos',
    records.logos.map((l) => ({
      application_number: l.application_number,
      file: `files/logo-${l.application_number}.png`,
      ocr_text: null,
    })),
  );
}
