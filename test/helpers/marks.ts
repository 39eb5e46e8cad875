import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../src/db/knex.ts';

export interface MarkSpec {
  app: string;
  mark: string;
  cls?: number;
  status?: string;
  state?: string | null;
  type?: string;
  mode?: string | null;
  /** Proprietor name; default `OWNER OF <app>`. */
  owner?: string;
  /** Filing date, YYYY-MM-DD; default 2020-01-01. */
  date?: string;
  /** Goods and services; default none. */
  goods?: string;
}

/** Inserts trademarks with just what search needs (and what the table requires). */
export async function insertMarks(db: Db, marks: MarkSpec[]): Promise<void> {
  await db('trademarks').insert(
    marks.map((m) => ({
      application_number: m.app,
      word_mark: m.mark,
      class_number: m.cls ?? 30,
      status: m.status ?? 'Registered',
      application_date: m.date ?? '2020-01-01',
      proprietor_name: m.owner ?? `OWNER OF ${m.app}`,
      state: m.state === undefined ? 'MAHARASHTRA' : m.state,
      tm_type: m.type ?? 'WORD',
      filing_mode: m.mode === undefined ? 'E-FILING' : m.mode,
      slug: `mark-${m.app}`,
      goods_services: m.goods ?? null,
    })),
  );
}

/** The fields of a keyed search result (a summary, its score and strategy), in the order exports write them. */
export const SEARCH_RESULT_FIELDS = [
  'application_number',
  'word_mark',
  'class_number',
  'status',
  'application_date',
  'expire_at',
  'proprietor_name',
  'owner_id',
  'state',
  'tm_type',
  'filing_mode',
  'alert',
  'slug',
  'score',
  'strategy',
];

/** A new filing as a delta's trademarks.jsonl line holds it (the importer's format), advertised in `journal` or not yet. */
export const filing = (app: string, word: string, cls: number, journal: number | null) => ({
  application_number: app,
  word_mark: word,
  class_number: cls,
  status: 'Formalities Chk Pass',
  application_date: '2024-05-02',
  proprietor_name: `OWNER OF ${app}`,
  state: 'DELHI',
  tm_type: 'WORD',
  filing_mode: 'E-FILING',
  alert: '',
  journal_id: journal,
});

/** Writes a delta's trademarks.jsonl into `dir`. */
export const writeFilings = (dir: string, marks: object[]) =>
  fs.writeFileSync(path.join(dir, 'trademarks.jsonl'), `${marks.map((m) => JSON.stringify(m)).join('\n')}\n`);
