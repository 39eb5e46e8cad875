import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Db } from '../../db/knex.ts';
import type { ObjectStore } from '../../storage/objectStore.ts';
import { type ImportResult, importSet } from '../importer/index.ts';
import { writeJournalDelta } from './delta.ts';
import type { PrintedEntry } from './layout.ts';
import { parsePage } from './parse.ts';
import { JournalFileError, type PageImage, readPdf } from './read.ts';

// One journal PDF imported (docs/journal.md): its pages read, the entries written as an ingest delta and applied by
// the importer in one transaction; pages that are no entry reported with their number and the rest imported. A file
// that is no journal (no page has the header, or the pages disagree on the journal) is refused, nothing imported.

export interface JournalImport {
  journal: { id: number; journal_number: string; publication_date: string; pages: number };
  entries: number;
  /** Entries whose page drew the mark's image, taken as its logo. */
  images: number;
  byClass: Record<string, number>;
  refused: { page: number; reason: string }[];
  result: ImportResult;
}

export async function importJournal(opts: { db: Db; store: ObjectStore; file: string }): Promise<JournalImport> {
  const pdf = fs.readFileSync(opts.file);
  const pages = await readPdf(pdf);
  const entries: PrintedEntry[] = [];
  const refused: JournalImport['refused'] = [];
  for (const [i, page] of pages.entries()) {
    const r = parsePage(i + 1, page.lines);
    if ('entry' in r) entries.push({ ...r.entry, image: page.images[0] ? await pngOf(page.images[0]) : null });
    else refused.push({ page: r.page, reason: r.refused });
  }
  if (!entries.length) throw new JournalFileError('no page reads as a Trade Marks Journal entry: another publication?');
  const [first] = entries;
  const other = entries.find((e) => e.journal_number !== first.journal_number || e.publication_date !== first.publication_date);
  if (other) throw new JournalFileError(`pages of two journals (No. ${first.journal_number} and No. ${other.journal_number}) in one file`);
  // The journal's own row when the register has it (imported before, or listed by a delta), else the next id.
  const known = await opts.db('journals').where({ journal_number: first.journal_number }).first('id');
  const id = known?.id ?? Number((await opts.db('journals').max({ n: 'id' }).first())?.n ?? 0) + 1;
  const journal = { id, journal_number: first.journal_number, publication_date: first.publication_date, page_count: pages.length };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-journal-'));
  try {
    writeJournalDelta(dir, journal, pdf, entries);
    const result = await importSet({ db: opts.db, store: opts.store, dir });
    const byClass: Record<string, number> = {};
    for (const e of entries) byClass[e.class_number] = (byClass[e.class_number] ?? 0) + 1;
    const images = entries.filter((e) => e.image).length;
    return { journal: { ...journal, pages: pages.length }, entries: entries.length, images, byClass, refused, result };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A decoded page image as the PNG its logo is stored as. */
function pngOf(img: PageImage): Promise<Buffer> {
  return sharp(Buffer.from(img.data), { raw: { width: img.width, height: img.height, channels: img.channels } })
    .png()
    .toBuffer();
}
