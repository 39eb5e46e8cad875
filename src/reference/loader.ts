import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Db } from '../db/knex.ts';
import { readViennaCodes } from './vienna.ts';

// Reference data ships with the product in data/reference (copied from the shared data set; see
// data/reference/README.md for sources and coverage). A start whose files match what was loaded last
// (by content hash) skips the load; otherwise every table is replaced in one transaction, with ids
// counted from 1 again, so a row's id stays the same from one load to the next.
export const REFERENCE_DIR = new URL('../../data/reference', import.meta.url).pathname;

const FILES = [
  'nice_classes.json',
  'tmr_offices.json',
  'nice_items.csv',
  'well_known_marks.csv',
  'prohibited_marks.csv',
  'inn_names.csv',
  'inn_stems.csv',
  'stamp_duty.csv',
  'india_states.csv',
  'tm_status_values.csv',
  'vienna_codes.csv',
] as const;

// Part of the hash: bump it when the rows built from the same files change, so they are loaded again.
const LOADER_VERSION = '1';

function contentHash(dir: string): string {
  const h = createHash('sha256').update(LOADER_VERSION);
  for (const file of FILES) h.update(`\0${file}\0`).update(fs.readFileSync(path.join(dir, file)));
  return h.digest('hex');
}

type Row = Record<string, string>;

function csv(dir: string, file: string): Row[] {
  return parse(fs.readFileSync(path.join(dir, file)), { columns: true, skip_empty_lines: true }) as Row[];
}

const orNull = (v: string | undefined) => (v === undefined || v === '' ? null : v);

interface NiceClass {
  class: number;
  kind: string;
  heading: string;
  explanatory_note?: string;
  includes_in_particular?: string[];
  does_not_include_in_particular?: string[];
}

/** Loads the reference tables unless they already hold these files; answers the row count of each table. */
export async function loadReferenceData(db: Db, dir = REFERENCE_DIR): Promise<Record<string, number>> {
  const hash = contentHash(dir);
  return db.transaction(async (trx) => {
    // Two processes starting at once: the second waits here, then finds the first one's load.
    await trx.raw('lock table reference_version in exclusive mode');
    const loaded = await trx('reference_version').first('content_hash', 'counts');
    if (loaded?.content_hash === hash) return loaded.counts as Record<string, number>;

    const tables = readTables(dir);
    // All in one statement, so class_items' reference to nice_classes does not stand in the way. No
    // cascade: a table outside this list that referenced one of these would be emptied with it.
    await trx.raw(`truncate ${Object.keys(tables).join(', ')} restart identity`);
    const counts: Record<string, number> = {};
    // In file order (parents first): the ids a serial column gives follow it.
    for (const [table, rows] of Object.entries(tables)) {
      await trx.batchInsert(table, rows, 1000).transacting(trx);
      counts[table] = rows.length;
    }
    await trx.raw(
      `insert into reference_version (content_hash, counts) values (?, ?)
       on conflict (singleton) do update set content_hash = excluded.content_hash, counts = excluded.counts, loaded_at = now()`,
      [hash, JSON.stringify(counts)],
    );
    return counts;
  });
}

function readTables(dir: string): Record<string, Record<string, unknown>[]> {
  const classes = (JSON.parse(fs.readFileSync(path.join(dir, 'nice_classes.json'), 'utf8')) as { classes: NiceClass[] }).classes;
  const offices = (
    JSON.parse(fs.readFileSync(path.join(dir, 'tmr_offices.json'), 'utf8')) as {
      offices: { code: string; name: string; city: string; head_office: boolean; address: string | null; jurisdiction: string[] }[];
    }
  ).offices;

  return {
    nice_classes: classes.map((c) => ({
      class_number: c.class,
      kind: c.kind,
      heading: c.heading,
      explanatory_note: c.explanatory_note ?? null,
      includes: JSON.stringify(c.includes_in_particular ?? []),
      excludes: JSON.stringify(c.does_not_include_in_particular ?? []),
    })),
    class_items: csv(dir, 'nice_items.csv').map((r) => ({
      class_number: Number(r.class),
      basic_number: orNull(r.basic_number),
      item_a: r.item,
      item_b: null,
    })),
    well_known_marks: csv(dir, 'well_known_marks.csv').map((r) => ({
      mark: r.mark,
      proprietor: orNull(r.proprietor),
      source_kind: r.source_kind,
      date_or_journal: orNull(r.date_or_journal),
      source_url: orNull(r.source_url),
      confidence: r.confidence,
    })),
    prohibited_marks: csv(dir, 'prohibited_marks.csv').map((r) => ({
      id: r.id,
      legal_basis: r.legal_basis,
      kind: r.kind,
      subject: r.subject,
      description: orNull(r.description),
      match_terms: (r.match_terms ?? '')
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean),
      sources: orNull(r.sources),
      confidence: r.confidence,
    })),
    inn_names: csv(dir, 'inn_names.csv').map((r) => ({
      eaeu_code: r.eaeu_code,
      inn_en: r.inn_en,
      inn_la: orNull(r.inn_la),
      inn_ru: orNull(r.inn_ru),
    })),
    inn_stems: csv(dir, 'inn_stems.csv').map((r) => ({ stem: r.stem, kind: r.kind, meaning: r.meaning })),
    stamp_duty: csv(dir, 'stamp_duty.csv').map((r) => ({
      instrument: r.instrument,
      state: r.state,
      iso_3166_2: orNull(r.iso_3166_2),
      amount_inr: r.amount_inr && /^\d+(\.\d+)?$/.test(r.amount_inr) ? r.amount_inr : null,
      basis: orNull(r.basis),
      detail: orNull(r.detail),
      source: orNull(r.source),
      source_type: orNull(r.source_type),
      confidence: orNull(r.confidence),
    })),
    states: csv(dir, 'india_states.csv').map((r) => ({
      iso_3166_2: r.iso_3166_2,
      code: r.code,
      name: r.name,
      name_iso: r.name_iso,
      type: r.type,
      gst_state_code: orNull(r.gst_state_code),
      tmr_office: orNull(r.tmr_office),
      tmr_note: orNull(r.tmr_note),
    })),
    registry_offices: offices.map((o) => ({
      code: o.code,
      name: o.name,
      city: o.city,
      head_office: o.head_office,
      address: o.address,
      jurisdiction: o.jurisdiction,
    })),
    status_values: csv(dir, 'tm_status_values.csv').map((r) => ({
      status: r.status,
      aliases: orNull(r.aliases),
      stage: orNull(r.stage),
      is_live: r.is_live === '1',
      is_final: r.is_final === '1',
      meaning: orNull(r.meaning),
    })),
    vienna_codes: readViennaCodes(path.join(dir, 'vienna_codes.csv')).map((r) => ({ ...r })),
  };
}
