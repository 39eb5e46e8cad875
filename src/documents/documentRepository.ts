import type { Db } from '../db/knex.ts';
import { isoDate } from '../db/sql.ts';

export interface DocumentRow {
  id: number;
  application_number: string;
  name: string;
  document_type: string;
  upload_date: string;
  content_type: string;
  size_bytes: number | null;
  object_key: string;
  opposition_id: number | null;
  opposition_number: string | null;
}

const COLUMNS = `d.id, d.application_number, d.name, d.document_type, ${isoDate('d.upload_date')} as upload_date,
  d.content_type, d.size_bytes, d.object_key, d.opposition_id, o.opposition_number`;
const FROM = 'documents d left join oppositions o on o.id = d.opposition_id';
const ORDER = 'order by d.upload_date, d.id';

export class DocumentRepository {
  constructor(private readonly db: Db) {}

  /**
   * A mark's documents: those filed in an opposition (`opposition`) or all the others. Undefined when
   * the mark does not exist, so an unknown mark is a 404 and not an empty list.
   */
  async forMark(appNo: string, opposition: boolean): Promise<DocumentRow[] | undefined> {
    const r = await this.db.raw(
      `select exists(select 1 from trademarks where application_number = ?) as found,
         coalesce((select json_agg(x) from (select ${COLUMNS} from ${FROM}
           where d.application_number = ? and (d.opposition_id is not null) = ? ${ORDER}) x), '[]'::json) as rows`,
      [appNo, appNo, opposition],
    );
    const row = r.rows[0] as { found: boolean; rows: DocumentRow[] };
    return row.found ? row.rows : undefined;
  }

  async byId(id: number): Promise<DocumentRow | undefined> {
    const r = await this.db.raw(`select ${COLUMNS} from ${FROM} where d.id = ?`, [id]);
    return r.rows[0];
  }

  async byIds(ids: number[]): Promise<DocumentRow[]> {
    if (!ids.length) return [];
    const r = await this.db.raw(
      `select ${COLUMNS} from ${FROM} where d.id = any(?::bigint[]) order by d.application_number, d.upload_date, d.id`,
      [ids],
    );
    return r.rows;
  }

  /** Documents of several marks, optionally of some types only; the caller's gate decides which it may see. */
  async forMarks(appNos: string[], types: string[] | null): Promise<{ rows: DocumentRow[]; known: string[] }> {
    const [docs, known] = await Promise.all([
      this.db.raw(
        `select ${COLUMNS} from ${FROM} where d.application_number = any(?::text[])
           and (?::text[] is null or d.document_type = any(?::text[]))
         order by d.application_number, d.upload_date, d.id`,
        [appNos, types, types],
      ),
      this.db.raw('select application_number from trademarks where application_number = any(?::text[])', [appNos]),
    ]);
    return { rows: docs.rows, known: known.rows.map((r: { application_number: string }) => r.application_number) };
  }
}
