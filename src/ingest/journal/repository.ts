import type { Db } from '../../db/knex.ts';
import type { SummaryRow } from '../../trademarks/repository.ts';

// What a journal import reads of the register before it writes its delta (docs/journal.md): the journal's own row, and
// the marks the journal names as they are stored, with their first proprietor and agent, so that an entry already on
// the register is updated in place (its other fields kept) and never duplicated.

/** A stored trademark in the ingest format's field names and forms (docs/ingest.md), with its journal's date. */
export interface StoredMark extends Omit<SummaryRow, 'owner_id'> {
  goods_services: string | null;
  used_since: string | null;
  registry_office: string | null;
  journal_id: number | null;
  vienna_codes: string[] | null;
  classes: number[] | null;
  international_registration: string | null;
  priority_date: string | null;
  priority_number: string | null;
  priority_country: string | null;
  associated_with: string[] | null;
  conditions: string[] | null;
  /** The publication date of the journal that advertised it. */
  journal_date: string | null;
  proprietor: (Record<string, unknown> & { id: number; name: string; address: string | null }) | null;
  agent: (Record<string, unknown> & { id: number; name: string; address: string | null }) | null;
}

const day = (c: string) => `to_char(${c}, 'YYYY-MM-DD')`;

export class JournalImportRepository {
  constructor(private readonly db: Db) {}

  /** The journal's id when the register has it, else the next free one. */
  async journalId(journalNumber: string): Promise<number> {
    const known = await this.db('journals').where({ journal_number: journalNumber }).first('id');
    if (known) return known.id;
    return Number((await this.db('journals').max({ n: 'id' }).first())?.n ?? 0) + 1;
  }

  async marks(appNos: string[]): Promise<Map<string, StoredMark>> {
    if (!appNos.length) return new Map();
    const r = await this.db.raw(
      `select t.application_number, t.word_mark, t.class_number::int as class_number, t.status,
         ${day('t.application_date')} as application_date, ${day('t.expire_at')} as expire_at, t.proprietor_name, t.state,
         t.tm_type, t.filing_mode, t.alert, t.goods_services, t.used_since, t.registry_office, t.journal_id, t.vienna_codes,
         t.slug, t.classes::int[] as classes, t.international_registration, ${day('t.priority_date')} as priority_date,
         t.priority_number, t.priority_country, t.associated_with, t.conditions, ${day('j.publication_date')} as journal_date,
         (select row_to_json(p) from (select id, name, entity_type, address, state, country, trading_as from proprietors
            where application_number = t.application_number order by id limit 1) p) as proprietor,
         (select row_to_json(a) from (select id, name, agent_code, address, email, phone from attorneys
            where application_number = t.application_number order by id limit 1) a) as agent
       from trademarks t left join journals j on j.id = t.journal_id
       where t.application_number = any(?::text[])`,
      [appNos],
    );
    return new Map((r.rows as StoredMark[]).map((m) => [m.application_number, m]));
  }
}
