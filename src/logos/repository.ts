import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { StaleRead } from '../db/replicas.ts';
import type { MarkFilter } from '../trademarks/markFilter.ts';
import { markFilterSql } from '../trademarks/sql.ts';

// SQL of logo search and logo indexing. Vectors are compared as halfvec through a partial HNSW
// index per model (cosine distance); the model's name and dimension are spelled into the statement
// (both come from our own model list, never from a request) so the planner matches the index.

export interface LogoHit {
  application_number: string;
  word_mark: string;
  class_number: number;
  status: string;
  /** The mark's Vienna codes, which are its logo's (one logo a mark); null when the register has none. */
  vienna_codes: string[] | null;
  object_key: string;
}

export interface Nearest extends LogoHit {
  similarity: number;
}

export interface LogoToIndex {
  application_number: string;
  object_key: string;
  index_attempts: number;
}

export interface IndexCounts {
  total: number;
  pending: number;
  done: number;
  failed: number;
  /** Failed logos that will not be retried without `reindex-logos --failed`. */
  given_up: number;
}

/** Attempts at a logo before it stays failed (each after a longer wait: 1, 5, 25 minutes). */
export const MAX_INDEX_ATTEMPTS = 4;
// A claimed logo is not handed out again for this long: the job that took it has this long to finish.
const LEASE = '10 minutes';

/** The most logos a filtered image search looks at, nearest first, for the k its filter keeps. */
export const FILTERED_SCAN = 20_000;

const MODEL_NAME = /^[A-Za-z0-9._-]{1,80}$/;

export function checkModel(model: string, dims: number): void {
  if (!MODEL_NAME.test(model)) throw new Error(`model name ${JSON.stringify(model)} is not usable in SQL`);
  if (!Number.isInteger(dims) || dims < 1 || dims > 4000) throw new Error(`model ${model}: ${dims} dimensions cannot be indexed`);
}

/** A blend's weight, as the SQL will hold it: a number within 0..1 (`what` names the blend in the error). */
function checkWeight(weight: number, what: string): number {
  const w = Number(weight);
  if (!(w >= 0 && w <= 1)) throw new Error(`${what} weight ${weight} is not within 0..1`);
  return w;
}

const indexName = (model: string) => `logo_vectors_hnsw_${model.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
const halfvec = (v: ArrayLike<number>) => `[${Array.from(v, (x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;

/**
 * A filter as a condition on `logo_vectors v` (`only`: empty without one) and its bindings (null without one: the
 * query then runs unbound, in one round trip).
 */
function vectorsKept(filter: MarkFilter | null): { only: string; bindings: Knex.RawBinding[] | null } {
  if (!filter) return { only: '', bindings: null };
  const kept = markFilterSql(filter);
  return {
    only: ` and exists (select 1 from trademarks t where t.application_number = v.application_number and ${kept.sql})`,
    bindings: kept.bindings,
  };
}

/** A model's HNSW index beside PostgreSQL's buffer cache (src/logos/indexCache.ts). */
export interface IndexCacheFit {
  model: string;
  /** The index's size on disk. */
  indexBytes: number;
  /** PostgreSQL's shared_buffers. */
  sharedBuffersBytes: number;
}

export class LogoRepository {
  /** `read`: where nearest-neighbour queries and their marks go, a replica or the primary (src/db/replicas.ts). */
  constructor(
    private readonly db: Db,
    private readonly read: StaleRead = (f) => f(db),
  ) {}

  /**
   * The model's HNSW index (cosine, halfvec of its dimension), made once. `concurrently`: built without
   * blocking writes to logo_vectors (an index added to a register already indexed, which may take long), on
   * a connection of its own that `signal` cancels (the build is then left to the next start); an index left
   * invalid by a build that failed or was cancelled is dropped and built again.
   */
  async ensureModelIndex(model: string, dims: number, opts: { concurrently?: boolean; signal?: AbortSignal } = {}): Promise<void> {
    checkModel(model, dims);
    const create = (how: string) => `create index ${how}if not exists ${indexName(model)} on logo_vectors
      using hnsw ((embedding::halfvec(${dims})) halfvec_cosine_ops) with (m = 16, ef_construction = 64) where model = '${model}'`;
    if (!opts.concurrently) {
      await this.db.raw(create(''));
      return;
    }
    const valid = await this.db.raw(
      'select i.indisvalid as ok from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = ?',
      [indexName(model)],
    );
    if (valid.rows[0]?.ok) return;
    const conn = await this.db.client.acquireConnection();
    let pid = 0;
    const cancel = () => {
      this.db.raw('select pg_cancel_backend(?)', [pid]).catch(() => undefined);
    };
    try {
      pid = (await this.db.raw('select pg_backend_pid() as pid').connection(conn)).rows[0].pid;
      opts.signal?.throwIfAborted();
      opts.signal?.addEventListener('abort', cancel, { once: true });
      if (valid.rows[0]) await this.db.raw(`drop index concurrently if exists ${indexName(model)}`).connection(conn);
      await this.db.raw(create('concurrently ')).connection(conn);
    } finally {
      opts.signal?.removeEventListener('abort', cancel);
      await this.db.client.releaseConnection(conn);
    }
  }

  /** Drops the model's HNSW index, without blocking writes, if it is there (an index no search reads any more). */
  async dropModelIndex(model: string): Promise<void> {
    checkModel(model, 1);
    await this.db.raw(`drop index concurrently if exists ${indexName(model)}`);
  }

  /**
   * Up to `limit` logos with a vector of `model` but none of `derived`, with that vector: what a derived vector (the HOG
   * index's projection, hogIndex.ts) is still to be made for, on a register indexed before it existed; in application
   * number order, those after `after`.
   */
  async vectorsWithout(
    model: string,
    derived: string,
    limit: number,
    after = '',
  ): Promise<{ application_number: string; vector: number[] }[]> {
    checkModel(model, 1);
    checkModel(derived, 1);
    // In key order from where the last page ended: an anti-join alone would walk every row already done again on each
    // page, quadratic in the register (at 1M logos, hundreds of pages over up to 1M rows each).
    const r = await this.db.raw(
      `select v.application_number, v.embedding::text as vector from logo_vectors v
       where v.model = ? and v.application_number > ?
         and not exists (select 1 from logo_vectors d where d.application_number = v.application_number and d.model = ?)
       order by v.application_number limit ?`,
      [model, after, derived, limit],
    );
    return r.rows.map((x: { application_number: string; vector: string }) => ({
      application_number: x.application_number,
      vector: JSON.parse(x.vector) as number[],
    }));
  }

  /** Stores vectors of one model (a derived one), as indexing would; an existing one is replaced. */
  async saveVectors(model: string, rows: { application_number: string; vector: ArrayLike<number> }[]): Promise<void> {
    if (!rows.length) return;
    checkModel(model, rows[0].vector.length);
    await this.db.raw(
      `insert into logo_vectors (application_number, model, embedding)
       select a, ?, e::halfvec from unnest(?::text[], ?::text[]) as x(a, e)
       on conflict (application_number, model) do update set embedding = excluded.embedding, created_at = now()`,
      [model, rows.map((r) => r.application_number), rows.map((r) => halfvec(r.vector))],
    );
  }

  /** The size of the model's HNSW index and of PostgreSQL's buffer cache (src/logos/indexCache.ts); null without the index. */
  async indexCacheFit(model: string): Promise<IndexCacheFit | null> {
    const r = await this.db.raw(
      `select pg_relation_size(i) as index_bytes, pg_size_bytes(current_setting('shared_buffers')) as buffers
       from to_regclass(?) i where i is not null`,
      [indexName(model)],
    );
    const row = r.rows[0];
    return row ? { model, indexBytes: Number(row.index_bytes), sharedBuffersBytes: Number(row.buffers) } : null;
  }

  /**
   * The k logos nearest the vector under the model, with what a result shows, most similar first.
   * With `rerank`, the nearest `candidates` × k are scored again with the second model's vectors
   * (a logo without one keeps its first score). One round trip: the transaction that raises
   * ef_search (the index returns at most that many rows) and the query go as one multi-statement
   * text, the vectors spelled out as numbers.
   *
   * With a filter (class, status), only logos of marks it keeps, as they are now, are candidates,
   * so a filtered search still finds k. When the index is scanned it is scanned iteratively
   * (pgvector's hnsw.iterative_scan), going on past ef_search until the pool is found or
   * FILTERED_SCAN logos have been looked at; for a filter that keeps few marks PostgreSQL may instead
   * compare their vectors one by one, which is exact. The iterative scan's relaxed order is put right
   * by the outer sort. The filter's values are bound, which a multi-statement text cannot carry, so
   * the settings go first in their own statement of the transaction.
   */
  async nearest(
    model: string,
    vector: ArrayLike<number>,
    k: number,
    rerank?: { model: string; vector: ArrayLike<number>; weight: number; candidates: number },
    filter: MarkFilter | null = null,
  ): Promise<Nearest[]> {
    const dims = vector.length;
    checkModel(model, dims);
    const n = Math.max(1, Math.min(1000, Math.floor(k)));
    const pool = rerank ? Math.min(1000, n * Math.max(1, rerank.candidates)) : n;
    const cast = `halfvec(${dims})`;
    const q = `'${halfvec(vector)}'::${cast}`;
    // The blend is scored and cut to k in the statement, so only the k shown are joined to their marks.
    let similarity = '1 - nn.distance';
    let join = '';
    if (rerank) {
      checkModel(rerank.model, rerank.vector.length);
      const w = checkWeight(rerank.weight, 're-rank');
      const c2 = `halfvec(${rerank.vector.length})`;
      const second = `1 - (r.embedding::${c2} <=> '${halfvec(rerank.vector)}'::${c2})`;
      // A logo without the second model's vector keeps its first score.
      const blend = `${1 - w}::float8 * (1 - nn.distance) + ${w}::float8 * (${second})`;
      similarity = `case when r.embedding is null then 1 - nn.distance else ${blend} end`;
      join = `left join logo_vectors r on r.application_number = nn.application_number and r.model = '${rerank.model}'`;
    }
    const { only, bindings } = vectorsKept(filter);
    const settings = `set local hnsw.ef_search = ${Math.max(40, pool)}`;
    const query = `with nn as (
        select v.application_number, v.embedding::${cast} <=> ${q} as distance from logo_vectors v
        where v.model = '${model}'${only}
        order by v.embedding::${cast} <=> ${q} limit ${pool}),
      top as (select nn.application_number, ${similarity} as similarity from nn ${join}
        order by similarity desc, nn.application_number collate "C" limit ${n})
      select top.application_number, t.word_mark, t.class_number, t.status, t.vienna_codes, l.object_key, top.similarity
      from top join logos l using (application_number) join trademarks t using (application_number)
      order by top.similarity desc, top.application_number collate "C"`;
    const rows = await this.scanned<Nearest>(settings, query, bindings);
    return rows.map((x) => ({ ...x, similarity: Number(x.similarity) }));
  }

  /**
   * The k logos nearest under the concept score (likeness=concept): (1 − weight) × the model's cosine +
   * weight × the second model's (HOG's). Its candidates are its own neighbours, not the copy search's: the
   * nearest `candidates` × k under the model and under the second model's `index` (the HOG vectors' projection,
   * hogIndex.ts; the second model's own vectors without one), each from its HNSW index, re-scored by the blend (a
   * logo lacking one of the two vectors scores by the other). One round trip as `nearest`; with a filter, both
   * scans are iterative and filtered alike.
   */
  async nearestConcept(
    model: string,
    vector: ArrayLike<number>,
    second: {
      model: string;
      vector: ArrayLike<number>;
      weight: number;
      candidates: number;
      /** Where the second model's candidates are found instead of its own vectors (the HOG index's projection). */
      index?: { model: string; vector: ArrayLike<number> };
    },
    k: number,
    filter: MarkFilter | null = null,
  ): Promise<Nearest[]> {
    checkModel(model, vector.length);
    checkModel(second.model, second.vector.length);
    const by = second.index ?? second;
    checkModel(by.model, by.vector.length);
    const n = Math.max(1, Math.min(1000, Math.floor(k)));
    const pool = Math.min(1000, n * Math.max(1, second.candidates));
    const c1 = `halfvec(${vector.length})`;
    const c2 = `halfvec(${second.vector.length})`;
    const q1 = `'${halfvec(vector)}'::${c1}`;
    const q2 = `'${halfvec(second.vector)}'::${c2}`;
    const w = checkWeight(second.weight, 'concept');
    const { only, bindings } = vectorsKept(filter);
    const near = (m: string, cast: string, q: string) =>
      `(select v.application_number from logo_vectors v where v.model = '${m}'${only}
        order by v.embedding::${cast} <=> ${q} limit ${pool})`;
    const s1 = `1 - (a.embedding::${c1} <=> ${q1})`;
    const s2 = `1 - (b.embedding::${c2} <=> ${q2})`;
    const c3 = `halfvec(${by.vector.length})`;
    const query = `with c as (${near(model, c1, q1)} union ${near(by.model, c3, `'${halfvec(by.vector)}'::${c3}`)}),
      s as (select c.application_number,
          coalesce(${Math.round((1 - w) * 1e6) / 1e6} * (${s1}) + ${w} * (${s2}), ${s1}, ${s2}) as similarity
        from c left join logo_vectors a on a.application_number = c.application_number and a.model = '${model}'
          left join logo_vectors b on b.application_number = c.application_number and b.model = '${second.model}')
      select s.application_number, t.word_mark, t.class_number, t.status, t.vienna_codes, l.object_key, s.similarity
      from s join logos l using (application_number) join trademarks t using (application_number)
      order by s.similarity desc, s.application_number limit ${n}`;
    const settings = `set local hnsw.ef_search = ${Math.max(40, pool)}`;
    const rows = await this.scanned<Nearest>(settings, query, bindings && [...bindings, ...bindings]);
    return rows.map((x) => ({ ...x, similarity: Number(x.similarity) }));
  }

  /**
   * Runs a nearest-neighbour query under its HNSW settings, in one round trip when nothing is bound. With a filter's
   * `bindings` the scan is iterative (see `nearest`), and the settings go first in their own statement.
   */
  private async scanned<Row>(settings: string, query: string, bindings: Knex.RawBinding[] | null): Promise<Row[]> {
    return this.read(async (db) => {
      if (!bindings) {
        const r = await db.raw(`begin; ${settings}; ${query}; commit;`);
        return (r as { command: string; rows: Row[] }[]).find((x) => x.command === 'SELECT')!.rows;
      }
      return db.transaction(async (trx) => {
        await trx.raw(`${settings}; set local hnsw.iterative_scan = relaxed_order; set local hnsw.max_scan_tuples = ${FILTERED_SCAN}`);
        return (await trx.raw(query, bindings)).rows as Row[];
      });
    });
  }

  /** What a result shows, with the words the logo is searched by, for the given marks the filter keeps (in no order). */
  async hits(appNos: string[], filter: MarkFilter | null = null): Promise<(LogoHit & { text: string })[]> {
    if (!appNos.length) return [];
    const kept = markFilterSql(filter);
    const r = await this.read((db) =>
      db.raw(
        `select l.application_number, t.word_mark, t.class_number, t.status, t.vienna_codes, l.object_key,
           concat_ws(' ', l.ocr_text, l.ocr_detected) as text
         from logos l join trademarks t using (application_number) where l.application_number = any(?::text[]) and ${kept.sql}`,
        [appNos, ...kept.bindings],
      ),
    );
    return r.rows;
  }

  /** Logos with OCR text changed after `since` (text_seq), oldest change first. */
  async textsSince(
    since: number,
    limit: number,
  ): Promise<{ application_number: string; text: string; class_number: number; status: string; seq: number }[]> {
    const r = await this.db.raw(
      `select l.application_number, concat_ws(' ', l.ocr_text, l.ocr_detected) as text, t.class_number, t.status, l.text_seq as seq
       from logos l join trademarks t using (application_number) where l.text_seq > ? order by l.text_seq limit ?`,
      [since, limit],
    );
    return r.rows.map((x: { seq: string | number }) => ({ ...x, seq: Number(x.seq) }));
  }

  // ---- indexing ------------------------------------------------------------------------------

  /**
   * Takes up to `limit` logos due for indexing (pending, or failed and due for another attempt),
   * leasing them so no other planner takes them while their job runs.
   */
  async claim(limit: number): Promise<LogoToIndex[]> {
    const r = await this.db.raw(
      `update logos l set index_after = now() + interval '${LEASE}'
       from (select application_number from logos
             where index_state <> 'done' and (index_after is null or index_after <= now())
               and (index_state = 'pending' or index_attempts < ?)
             order by index_after nulls first, application_number limit ? for update skip locked) due
       where l.application_number = due.application_number
       returning l.application_number, l.object_key, l.index_attempts`,
      [MAX_INDEX_ATTEMPTS, limit],
    );
    return r.rows;
  }

  /** Stores a logo's vector(s) and OCR text, unless its image changed since it was read. */
  async saveIndexed(
    appNo: string,
    objectKey: string,
    vectors: { model: string; vector: ArrayLike<number> }[],
    ocr: { text: string; confidence: number },
  ): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const r = await trx.raw(
        `update logos set index_state = 'done', index_error = null, index_after = null, indexed_at = now(),
           ocr_detected = nullif(?, ''), ocr_confidence = ?
         where application_number = ? and object_key = ? returning 1`,
        [ocr.text, ocr.confidence, appNo, objectKey],
      );
      if (!r.rows.length) return false;
      for (const v of vectors) {
        checkModel(v.model, v.vector.length);
        await trx.raw(
          `insert into logo_vectors (application_number, model, embedding) values (?, ?, ?::halfvec)
           on conflict (application_number, model) do update set embedding = excluded.embedding, created_at = now()`,
          [appNo, v.model, halfvec(v.vector)],
        );
      }
      return true;
    });
  }

  /** Records why a logo could not be indexed; it is tried again later, fewer times the more it failed. */
  async saveFailure(appNo: string, objectKey: string, reason: string): Promise<void> {
    await this.db.raw(
      `update logos set index_state = 'failed', index_error = ?, index_attempts = index_attempts + 1,
         index_after = now() + make_interval(mins => power(5, least(index_attempts, 6))::int)
       where application_number = ? and object_key = ?`,
      [reason.slice(0, 500), appNo, objectKey],
    );
  }

  /** Gives a claimed logo back at once (its job could not run: the sidecar was away). */
  async release(appNos: string[]): Promise<void> {
    if (appNos.length)
      await this.db.raw(`update logos set index_after = null where application_number = any(?::text[]) and index_state <> 'done'`, [
        appNos,
      ]);
  }

  async counts(): Promise<IndexCounts> {
    const r = await this.db.raw(
      `select count(*)::int as total, count(*) filter (where index_state = 'pending')::int as pending,
         count(*) filter (where index_state = 'done')::int as done, count(*) filter (where index_state = 'failed')::int as failed,
         count(*) filter (where index_state = 'failed' and index_attempts >= ?)::int as given_up from logos`,
      [MAX_INDEX_ATTEMPTS],
    );
    return r.rows[0];
  }

  async failures(limit: number): Promise<{ application_number: string; index_error: string; index_attempts: number }[]> {
    const r = await this.db.raw(
      `select application_number, index_error, index_attempts from logos where index_state = 'failed' order by application_number limit ?`,
      [limit],
    );
    return r.rows;
  }

  /**
   * Sets logos back to pending: every one, the failed ones, or those without a vector of `model`
   * (a model placed since they were indexed). Returns how many.
   */
  async requeue(which: 'all' | 'failed' | 'missing', model?: string): Promise<number> {
    const where =
      which === 'all'
        ? 'true'
        : which === 'failed'
          ? `index_state = 'failed'`
          : `index_state = 'done' and not exists
               (select 1 from logo_vectors v where v.application_number = logos.application_number and v.model = ?)`;
    const r = await this.db.raw(
      `update logos set index_state = 'pending', index_attempts = 0, index_error = null, index_after = null where ${where}`,
      which === 'missing' ? [model!] : [],
    );
    return r.rowCount ?? 0;
  }

  /** The descriptions of Vienna codes (the shipped classification), by code; codes it lacks are absent. */
  async viennaDescriptions(codes: string[]): Promise<Map<string, string | null>> {
    if (!codes.length) return new Map();
    const r = await this.db.raw('select code, description from vienna_codes where code = any(?::text[])', [codes]);
    return new Map(r.rows.map((x: { code: string; description: string | null }) => [x.code, x.description]));
  }
}
