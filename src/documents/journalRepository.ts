import type { Db } from '../db/knex.ts';
import type { StaleRead } from '../db/replicas.ts';
import { isoDate } from '../db/sql.ts';
import type { MarkFilter } from '../trademarks/markFilter.ts';
import type { SummaryRow } from '../trademarks/repository.ts';
import { markFilterSql, SUMMARY_COLUMNS } from '../trademarks/sql.ts';

const JOURNAL_COLUMNS = `j.id, j.journal_number, ${isoDate('j.publication_date')} as publication_date,
  j.page_count, j.object_key is not null as has_pdf`;

export interface JournalRow {
  id: number;
  journal_number: string;
  publication_date: string;
  page_count: number | null;
  has_pdf: boolean;
}

export class JournalRepository {
  /** Journals are written by imports alone: every read here may be a moment stale, on a replica (src/db/replicas.ts). */
  constructor(
    db: Db,
    private readonly read: StaleRead = (f) => f(db),
  ) {}

  async list(limit: number, offset: number): Promise<{ count: number; rows: JournalRow[] }> {
    const [rows, total] = await this.read((db) =>
      Promise.all([
        db.raw(`select ${JOURNAL_COLUMNS} from journals j order by j.publication_date desc, j.id desc limit ? offset ?`, [limit, offset]),
        db.raw('select count(*)::int as n from journals'),
      ]),
    );
    return { count: total.rows[0].n, rows: rows.rows };
  }

  async get(id: number): Promise<(JournalRow & { trademark_count: number }) | undefined> {
    const r = await this.read((db) =>
      db.raw(
        `select ${JOURNAL_COLUMNS}, (select count(*)::int from trademarks t where t.journal_id = j.id) as trademark_count
       from journals j where j.id = ?`,
        [id],
      ),
    );
    return r.rows[0];
  }

  /**
   * Marks advertised in a journal, in ascending application number, those the filter keeps. Numbers
   * are digit strings without leading zeros, so shorter is smaller: as text, '1000000' would sort before
   * '999999'. The journal index finds the rows; filtering and sorting them is cheap, as one journal
   * advertises a few thousand marks at most.
   */
  async trademarks(id: number, limit: number, offset: number, filter: MarkFilter | null = null): Promise<SummaryRow[]> {
    const f = markFilterSql(filter);
    const r = await this.read((db) =>
      db.raw(
        `select ${SUMMARY_COLUMNS} from trademarks t where t.journal_id = ? and ${f.sql}
       order by length(t.application_number), t.application_number limit ? offset ?`,
        [id, ...f.bindings, limit, offset],
      ),
    );
    return r.rows;
  }

  /** How many of a journal's marks the filter keeps. */
  async countTrademarks(id: number, filter: MarkFilter | null): Promise<number> {
    const f = markFilterSql(filter);
    const r = await this.read((db) =>
      db.raw(`select count(*)::int as n from trademarks t where t.journal_id = ? and ${f.sql}`, [id, ...f.bindings]),
    );
    return r.rows[0].n;
  }

  /** Where the journal's PDF is stored; null when the register has none. */
  async objectKey(id: number): Promise<string | null> {
    const r = await this.read((db) => db.raw('select object_key from journals where id = ?', [id]));
    return r.rows[0]?.object_key ?? null;
  }
}
