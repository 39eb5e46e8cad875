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
  'state',
  'tm_type',
  'filing_mode',
  'alert',
  'slug',
  'score',
  'strategy',
];
