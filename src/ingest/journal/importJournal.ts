import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../db/knex.ts';
import type { ObjectStore } from '../../storage/objectStore.ts';
import { type ImportResult, importSet } from '../importer/index.ts';
import { writeJournalDelta } from './delta.ts';
import type { Section } from './layout.ts';
import { readJournal } from './readJournal.ts';
import { type JournalRecords, journalRecords } from './records.ts';
import type { JournalImportRepository } from './repository.ts';

// One journal PDF imported (docs/journal.md): read whole, its content made into the register's records against the
// marks as stored, written as an ingest delta and applied by the importer in one transaction. Pages that cannot be read
// are reported with their number and the rest imported; a file that is no journal is refused and nothing imported.

export interface JournalImport {
  journal: { id: number; journal_number: string; publication_date: string; pages: number };
  /** Advertised entries (and entries the corrigenda print again), by section and by class. */
  entries: number;
  bySection: Partial<Record<Section, number>>;
  byClass: Record<string, number>;
  /** Entries whose page drew the mark's image, taken as its logo. */
  images: number;
  corrigenda: JournalRecords['corrigenda'];
  lists: JournalRecords['lists'];
  refused: { page: number; reason: string }[];
  /** Pages not read: before the journal proper, and of sections not taken in. */
  skipped: number;
  result: ImportResult;
}

export class JournalImporter {
  constructor(
    private readonly repo: JournalImportRepository,
    private readonly db: Db,
    private readonly store: ObjectStore,
  ) {}

  async importFile(file: string): Promise<JournalImport> {
    const pdf = fs.readFileSync(file);
    const content = await readJournal(pdf);
    const id = await this.repo.journalId(content.journal_number);
    const named = [...content.entries, ...content.corrigenda, ...content.registered, ...content.renewed].map((x) => x.application_number);
    const records = journalRecords(content, id, await this.repo.marks([...new Set(named)]));
    const journal = { id, journal_number: content.journal_number, publication_date: content.publication_date, page_count: content.pages };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-journal-'));
    try {
      writeJournalDelta(dir, journal, pdf, records);
      const result = await importSet({ db: this.db, store: this.store, dir });
      const bySection: JournalImport['bySection'] = {};
      const byClass: Record<string, number> = {};
      for (const e of content.entries) {
        bySection[e.section] = (bySection[e.section] ?? 0) + 1;
        for (const c of e.classes ?? [e.class_number]) byClass[c] = (byClass[c] ?? 0) + 1;
      }
      return {
        journal: { id, journal_number: content.journal_number, publication_date: content.publication_date, pages: content.pages },
        entries: content.entries.length,
        bySection,
        byClass,
        images: records.logos.length,
        corrigenda: records.corrigenda,
        lists: records.lists,
        refused: content.refused,
        skipped: content.skipped,
        result,
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}
