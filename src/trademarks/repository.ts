import type { Db } from '../db/knex.ts';
import { Prepared } from '../db/prepared.ts';
import type { StaleRead } from '../db/replicas.ts';
import { isoDate } from '../db/sql.ts';
import type { Gate } from './gate.ts';
import { LINKED_SQL, type LinkedTable, SUMMARY_COLUMNS } from './sql.ts';

const LINKED_TABLES = Object.keys(LINKED_SQL) as LinkedTable[];
const SUMMARIES = new Prepared(
  'trademark_summaries',
  `select ${SUMMARY_COLUMNS} from trademarks t where t.application_number = any(?::text[])`,
);

export interface SummaryRow {
  application_number: string;
  word_mark: string;
  class_number: number;
  status: string;
  application_date: string;
  expire_at: string | null;
  proprietor_name: string;
  /** The owner entity of the proprietor name (docs/owners.md); null until the name is grouped. */
  owner_id: string | null;
  state: string | null;
  tm_type: string;
  filing_mode: string | null;
  alert: string;
  slug: string;
}

export interface DetailRow extends SummaryRow {
  goods_services: string | null;
  used_since: string | null;
  registry_office: string | null;
  vienna_codes: string[] | null;
  classes: number[];
  international_registration: string | null;
  priority: { date: string; application_number: string | null; country: string | null } | null;
  associated_with: string[];
  conditions: string[];
  journal: { id: number; journal_number: string; publication_date: string } | null;
  logo_key: string | null;
  [linked: string]: unknown;
}

export class TrademarkRepository {
  // One prepared statement per set of linked tables: a plan has few distinct shapes.
  private readonly detailStatements = new Map<number, Prepared>();

  /**
   * `read` runs a read where it should go (src/db/replicas.ts): the register's marks are written by imports alone, never
   * by a caller of the API, so a caller never misses its own write on a replica a moment behind.
   */
  constructor(
    primary: Db,
    private readonly read: StaleRead = (f) => f(primary),
  ) {}

  detailQuery(tables: readonly LinkedTable[], where = 't.application_number = ?'): string {
    const linked = tables.map((name) => `, ${LINKED_SQL[name]} as ${name}`).join('');
    return `select ${SUMMARY_COLUMNS}, t.goods_services, t.used_since, t.registry_office, t.vienna_codes,
      coalesce(t.classes::int[], array[t.class_number::int]) as classes, t.international_registration,
      case when t.priority_date is null then null else json_build_object('date', ${isoDate('t.priority_date')},
        'application_number', t.priority_number, 'country', t.priority_country) end as priority,
      coalesce(t.associated_with, '{}') as associated_with, coalesce(t.conditions, '{}') as conditions,
      (select json_build_object('id', j.id, 'journal_number', j.journal_number,
         'publication_date', ${isoDate('j.publication_date')}) from journals j where j.id = t.journal_id) as journal,
      (select l.object_key from logos l where l.application_number = t.application_number) as logo_key
      ${linked}
      from trademarks t where ${where}`;
  }

  /** Summaries of the given marks (those that exist), in no particular order. */
  async summaries(appNos: string[]): Promise<SummaryRow[]> {
    if (!appNos.length) return [];
    return this.read((db) => SUMMARIES.run<SummaryRow>(db, [appNos]));
  }

  /**
   * The goods and services of each mark, by application number (marks without any are left out): whole, or their
   * first `chars` characters (what a list's excerpt is cut from: the longest run to tens of thousands).
   */
  async goodsOf(appNos: string[], chars?: number): Promise<Map<string, string>> {
    if (!appNos.length) return new Map();
    const rows: { application_number: string; goods_services: string }[] = await this.read((db) =>
      db('trademarks')
        .select('application_number', chars ? db.raw('left(goods_services, ?) as goods_services', [chars]) : 'goods_services')
        .whereIn('application_number', appNos)
        .whereNotNull('goods_services'),
    );
    return new Map(rows.map((r) => [r.application_number, r.goods_services]));
  }

  /** The status labels of the reference list (data/tm_status_values.csv). */
  async statusLabels(): Promise<string[]> {
    const r = await this.read((db) => db.raw('select status from status_values'));
    return r.rows.map((x: { status: string }) => x.status);
  }

  /**
   * Core data plus the linked data a gate sees, in one round trip. The only way to read a mark's
   * linked tables: what the gate withholds is neither read (whole tables) nor returned (rows).
   */
  async detail(appNo: string, gate: Gate): Promise<DetailRow | undefined> {
    const tables = gate.detailTables;
    // Statement names are capped at 63 bytes: name the shape by which tables it holds.
    const mask = tables.reduce((m, t) => m | (1 << LINKED_TABLES.indexOf(t)), 0);
    let stmt = this.detailStatements.get(mask);
    if (!stmt) this.detailStatements.set(mask, (stmt = new Prepared(`trademark_detail_${mask}`, this.detailQuery(tables))));
    const row = (await this.read((db) => stmt.run<DetailRow>(db, [appNo])))[0];
    return row && gate.record(row);
  }

  /** detail() of several marks in one round trip (those that exist, in no particular order). */
  async detailMany(appNos: string[], gate: Gate): Promise<DetailRow[]> {
    const rows = await this.query<DetailRow>(this.detailQuery(gate.detailTables, 't.application_number = any(?)'), [appNos]);
    return rows.map((r) => gate.record(r));
  }

  /** The rows of one linked table a gate sees; undefined when the mark does not exist. */
  async linked<T extends object>(appNo: string, table: LinkedTable, gate: Gate): Promise<T[] | undefined> {
    const rows = await this.query<{ rows: T[] }>(`select ${LINKED_SQL[table]} as rows from trademarks t where t.application_number = ?`, [
      appNo,
    ]);
    return rows[0] && gate.rows(table, rows[0].rows);
  }

  private async query<T>(sql: string, bindings: unknown[]): Promise<T[]> {
    const r = await this.read((db) => db.raw(sql, bindings as never[]));
    return r.rows as T[];
  }
}
