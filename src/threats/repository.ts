import type { Db } from '../db/knex.ts';
import { isoDate } from '../db/sql.ts';
import { checkModel } from '../logos/repository.ts';

// SQL of the threats analysis: the statuses that count as live, and the logo side (a mark's own
// vector, the logos nearest a vector through the model's HNSW index, and the cosine of given marks'
// logos with it).
// Word candidates never come from SQL: they come from the search index (src/threats/candidates.ts).

export interface LogoNeighbour {
  application_number: string;
  similarity: number;
}

export interface LogoCandidate extends LogoNeighbour {
  word_mark: string;
  class_number: number;
  status: string;
  proprietor_name: string;
  application_date: string;
}

/** A logo's embedding under one model: read from the register (a mark's own) or made from an image (a proposal's). */
export interface LogoProbe {
  model: string;
  dims: number;
  /** pgvector's text form, [x,y,…], or the numbers. */
  vector: string | ArrayLike<number>;
}

const VECTOR_TEXT = /^\[[-+0-9.eE,]*\]$/;

/** The vector as pgvector reads it; a text that is not numbers in brackets is refused (it is spelled into SQL). */
function vectorText(v: string | ArrayLike<number>): string {
  const text = typeof v === 'string' ? v : `[${Array.from(v, (x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;
  if (!VECTOR_TEXT.test(text)) throw new Error('a logo vector is not numbers in brackets');
  return text;
}

export class ThreatRepository {
  constructor(private readonly db: Db) {}

  /** Statuses of the reference list that are not live (refused, abandoned, withdrawn, invalid, removed). */
  async deadStatuses(): Promise<Set<string>> {
    const r = await this.db.raw('select status from status_values where not is_live');
    return new Set(r.rows.map((x: { status: string }) => x.status));
  }

  /** The mark's logo vector (under the preferred model when it has several), or null. */
  async vectorOf(appNo: string, preferred: string[]): Promise<LogoProbe | null> {
    const r = await this.db.raw(
      `select model, vector_dims(embedding::vector) as dims, embedding::text as vector from logo_vectors where application_number = ?
       order by array_position(?::text[], model) nulls last, model limit 1`,
      [appNo, preferred],
    );
    const row = r.rows[0] as { model: string; dims: number; vector: string } | undefined;
    return row ? { model: row.model, dims: Number(row.dims), vector: row.vector } : null;
  }

  /**
   * The k logos nearest the vector under its model, with what a threat shows. Ordering by distance to
   * it uses the model's HNSW index (src/logos/repository.ts ensureModelIndex).
   */
  async nearest(probe: LogoProbe, k: number): Promise<LogoCandidate[]> {
    const { model, dims } = probe;
    checkModel(model, dims);
    // One multi-statement text (no bindings possible): the vector is spelled in, numbers only.
    const me = `'${vectorText(probe.vector)}'::halfvec(${dims})`;
    const cast = `halfvec(${dims})`;
    const r = await this.db.raw(`begin; set local hnsw.ef_search = ${Math.max(40, k)};
      with nn as (
        select application_number, embedding::${cast} <=> ${me} as distance from logo_vectors
        where model = '${model}' order by embedding::${cast} <=> ${me} limit ${Math.floor(k)})
      select nn.application_number, 1 - nn.distance as similarity, t.word_mark, t.class_number::int as class_number,
        t.status, t.proprietor_name, ${isoDate('t.application_date')} as application_date
      from nn join trademarks t using (application_number)
      order by nn.distance, nn.application_number;
      commit;`);
    const rows = (r as unknown as { command: string; rows: LogoCandidate[] }[]).find((x) => x.command === 'SELECT')!.rows;
    return rows.map((x) => ({ ...x, similarity: Number(x.similarity) }));
  }

  /** Cosine similarity of the vector with each given mark's logo (those that have one under its model). */
  async similarities(probe: LogoProbe, others: string[]): Promise<Map<string, number>> {
    if (!others.length) return new Map();
    const { model, dims } = probe;
    checkModel(model, dims);
    const cast = `halfvec(${dims})`;
    const r = await this.db.raw(
      `select application_number, 1 - (embedding::${cast} <=> ?::${cast}) as similarity
       from logo_vectors where model = ? and application_number = any(?::text[])`,
      [vectorText(probe.vector), model, others],
    );
    return new Map(r.rows.map((x: LogoNeighbour) => [x.application_number, Number(x.similarity)]));
  }
}
