import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { MarkFilter } from '../trademarks/markFilter.ts';
import type { SummaryRow } from '../trademarks/repository.ts';
import { markFilterSql, SUMMARY_COLUMNS } from '../trademarks/sql.ts';
import { entityIdOf } from './entityName.ts';
import type { Grouped, KeyRow, NameCount } from './grouping.ts';

// SQL of owner entities (docs/owners.md): the names not grouped yet, the key rows a batch is grouped against, the
// batch's entities written in one transaction, and what the owner endpoints read. Marks are an owner's through their
// proprietor name (trademarks_proprietor_name_idx).

export interface EntityRow {
  id: string;
  name: string;
}

/** An owner's marks counted by status, class and state, as the listing folds them. */
export interface ProfileRow {
  entity_id: string;
  status: string;
  class_number: number;
  state: string | null;
  marks: number;
}

/** The pool, or the grouping's transaction. */
type Q = Knex | Knex.Transaction;

export class OwnerRepository {
  constructor(private readonly db: Db) {}

  /**
   * Runs `fn` in one transaction that holds the grouping lock: processes grouping at once would make one entity twice.
   * Resolves to undefined, without running `fn`, when another holds it (that one groups the same names).
   */
  async grouping<T>(fn: (q: Knex.Transaction) => Promise<T>): Promise<T | undefined> {
    return this.db.transaction(async (q) => {
      const r = await q.raw(`select pg_try_advisory_xact_lock(hashtext('nishaan-owner-grouping')) as locked`);
      return r.rows[0].locked ? fn(q) : undefined;
    });
  }

  /** Which of the ids are entities' already. */
  async existingIds(q: Q, ids: string[]): Promise<Set<string>> {
    const r = await q.raw('select id from owner_entities where id = any(?::text[])', [ids]);
    return new Set(r.rows.map((x: { id: string }) => x.id));
  }

  /** Finished import runs whose names are not grouped yet. */
  async ungroupedRuns(q: Q): Promise<number[]> {
    const r = await q.raw(
      `select r.id from import_runs r where r.finished_at is not null
         and not exists (select 1 from owner_runs o where o.import_run_id = r.id) order by r.id`,
    );
    return r.rows.map((x: { id: number }) => x.id);
  }

  /** Every proprietor name of the register that no entity holds yet, with how many marks bear it. */
  async ungroupedNames(q: Q): Promise<NameCount[]> {
    const r = await q.raw(
      `select t.proprietor_name as name, count(*)::int as marks from trademarks t
       where t.proprietor_name <> '' and not exists (select 1 from owner_names o where o.name = t.proprietor_name)
       group by t.proprietor_name`,
    );
    return r.rows;
  }

  /** The stored key rows with any of the keys, or (for names in an Indic script) any of the consonant skeletons. */
  async keyRows(q: Q, keys: string[], skeletons: string[]): Promise<KeyRow[]> {
    if (!keys.length && !skeletons.length) return [];
    const r = await q.raw(
      `select kind, key, qual, skeleton, entity_id from owner_keys
       where key = any(?::text[]) or skeleton = any(?::text[])`,
      [keys, skeletons],
    );
    return r.rows;
  }

  /** Writes a batch: entities made, entities merged into others (their names and keys moved), names and keys added. */
  /** `total`: the names of the whole catch-up, recorded with the runs it covers. */
  async write(q: Knex.Transaction, g: Grouped, runs: number[], total: number): Promise<void> {
    await insertRows(q, 'owner_entities (id, name)', ['id', 'name'], g.created);
    for (const [from, to] of g.merged) {
      await q.raw('update owner_names set entity_id = ? where entity_id = ?', [to, from]);
      await q.raw(
        `insert into owner_keys (kind, key, qual, skeleton, entity_id, key_id)
           select kind, key, qual, skeleton, ?, key_id from owner_keys where entity_id = ? on conflict do nothing`,
        [to, from],
      );
      await q.raw('delete from owner_entities where id = ?', [from]);
    }
    const names = [...g.names].map(([name, entity_id]) => ({ name, entity_id }));
    await insertRows(q, 'owner_names (name, entity_id)', ['name', 'entity_id'], names, 'on conflict (name) do nothing');
    const keys = g.keys.map((k) => ({ ...k, key_id: entityIdOf(`${k.key}#${k.qual}`) }));
    await insertRows(q, 'owner_keys (kind, key, qual, skeleton, entity_id, key_id)', KEY_COLUMNS, keys, 'on conflict do nothing');
    if (runs.length) {
      await q.raw(`insert into owner_runs (import_run_id, names) select unnest(?::int[]), ? on conflict do nothing`, [runs, total]);
    }
  }

  /** The entity an id names: an entity's own id, or the id of a key of an entity merged into another. */
  async resolve(id: string): Promise<EntityRow | undefined> {
    const r = await this.db.raw(
      `select e.id, e.name from owner_entities e where e.id = ?
       union all
       select e.id, e.name from owner_keys k join owner_entities e on e.id = k.entity_id where k.key_id = ?
       limit 1`,
      [id, id],
    );
    return r.rows[0];
  }

  /** The entities ids name now (an entity's own id, or a merged one's), for the ids that name one. */
  async resolveMany(ids: string[]): Promise<Map<string, EntityRow>> {
    if (!ids.length) return new Map();
    const r = await this.db.raw(
      `select distinct on (x.id) x.id as asked, e.id, e.name from unnest(?::text[]) x(id)
       join lateral (select e.id, e.name, 0 as o from owner_entities e where e.id = x.id
         union all select e.id, e.name, 1 from owner_keys k join owner_entities e on e.id = k.entity_id where k.key_id = x.id) e on true
       order by x.id, e.o`,
      [[...new Set(ids)]],
    );
    return new Map(r.rows.map((x: EntityRow & { asked: string }) => [x.asked, { id: x.id, name: x.name }]));
  }

  /** Entities with a key beginning with `prefix`, an exact key first, then shorter keys. */
  async search(prefix: string, limit: number, offset: number): Promise<{ rows: EntityRow[]; count: number }> {
    // LIKE's wildcards in the prefix are literal; the key column sorts in C, so the prefix is a range of the index.
    const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const matched = `select k.entity_id, min(length(k.key)) as len from owner_keys k where k.key like ? group by k.entity_id`;
    const [rows, total] = await Promise.all([
      this.db.raw(
        `select e.id, e.name from (${matched}) m join owner_entities e on e.id = m.entity_id
         order by m.len, e.name, e.id limit ? offset ?`,
        [pattern, limit, offset],
      ),
      this.db.raw(`select count(*)::int as n from (${matched}) m`, [pattern]),
    ]);
    return { rows: rows.rows, count: total.rows[0].n };
  }

  /** The entities' marks counted by status, class and state. */
  async profiles(ids: string[]): Promise<ProfileRow[]> {
    const r = await this.db.raw(
      `select o.entity_id, t.status, t.class_number::int as class_number, t.state, count(*)::int as marks
       from owner_names o join trademarks t on t.proprietor_name = o.name
       where o.entity_id = any(?::text[]) group by 1, 2, 3, 4`,
      [ids],
    );
    return r.rows;
  }

  /** The names an entity holds, with their marks, commonest first. */
  async names(id: string): Promise<{ name: string; marks: number }[]> {
    const r = await this.db.raw(
      `select o.name, (select count(*)::int from trademarks t where t.proprietor_name = o.name) as marks
       from owner_names o where o.entity_id = ? order by marks desc, o.name`,
      [id],
    );
    return r.rows;
  }

  /** The entity holding each name, for the names any entity holds. */
  async entitiesOf(names: string[]): Promise<Map<string, string>> {
    if (!names.length) return new Map();
    const r = await this.db.raw('select name, entity_id from owner_names where name = any(?::text[])', [[...new Set(names)]]);
    return new Map(r.rows.map((x: { name: string; entity_id: string }) => [x.name, x.entity_id]));
  }

  /** An entity's marks the filter keeps, in ascending application number, and how many there are. */
  async trademarks(id: string, filter: MarkFilter | null, limit: number, offset: number): Promise<{ rows: SummaryRow[]; count: number }> {
    const f = markFilterSql(filter);
    const from = `from owner_names o join trademarks t on t.proprietor_name = o.name where o.entity_id = ? and ${f.sql}`;
    const [rows, total] = await Promise.all([
      this.db.raw(`select ${SUMMARY_COLUMNS} ${from} order by length(t.application_number), t.application_number limit ? offset ?`, [
        id,
        ...f.bindings,
        limit,
        offset,
      ]),
      this.db.raw(`select count(*)::int as n ${from}`, [id, ...f.bindings]),
    ]);
    return { rows: rows.rows, count: total.rows[0].n };
  }
}

const KEY_COLUMNS = ['kind', 'key', 'qual', 'skeleton', 'entity_id', 'key_id'];

/** Rows inserted a few thousand at a time through unnest: one statement per chunk, not per row. */
async function insertRows(q: Knex.Transaction, target: string, columns: string[], rows: object[], tail = ''): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000) as Record<string, string>[];
    await q.raw(`insert into ${target} select * from unnest(${columns.map(() => '?::text[]').join(', ')}) ${tail}`, [
      ...columns.map((c) => chunk.map((r) => r[c])),
    ]);
  }
}
