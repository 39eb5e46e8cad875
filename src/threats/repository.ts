import type { Db } from '../db/knex.ts';
import { isoDate } from '../db/sql.ts';
import { checkModel } from '../logos/repository.ts';

// SQL of the threats analysis: the statuses that count as live, and the logo side (the mark's own
// vector, its nearest logos through the model's HNSW index, and the cosine of given marks' logos).
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

export class ThreatRepository {
  constructor(private readonly db: Db) {}

  /** Statuses of the reference list that are not live (refused, abandoned, withdrawn, invalid, removed). */
  async deadStatuses(): Promise<Set<string>> {
    const r = await this.db.raw('select status from status_values where not is_live');
    return new Set(r.rows.map((x: { status: string }) => x.status));
  }

  /** The model and dimension of the mark's logo vector (the preferred model when it has several), or null. */
  async ownVector(appNo: string, preferred: string[]): Promise<{ model: string; dims: number } | null> {
    const r = await this.db.raw(
      `select model, vector_dims(embedding::vector) as dims from logo_vectors where application_number = ?
       order by array_position(?::text[], model) nulls last, model limit 1`,
      [appNo, preferred],
    );
    const row = r.rows[0] as { model: string; dims: number } | undefined;
    return row ? { model: row.model, dims: Number(row.dims) } : null;
  }

  /**
   * The k logos nearest the mark's own under the model (the mark itself left out), with what a threat
   * shows. The vector is read by the statement itself; ordering by distance to it uses the model's
   * HNSW index (src/logos/repository.ts ensureModelIndex).
   */
  async nearest(appNo: string, model: string, dims: number, k: number): Promise<LogoCandidate[]> {
    checkModel(model, dims);
    // One multi-statement text (no bindings possible): the number is spelled in, digits only.
    if (!/^\d{1,12}$/.test(appNo)) throw new Error(`application number ${JSON.stringify(appNo)} is not usable in SQL`);
    const cast = `halfvec(${dims})`;
    const me = `(select embedding::${cast} from logo_vectors where application_number = '${appNo}' and model = '${model}')`;
    const r = await this.db.raw(`begin; set local hnsw.ef_search = ${Math.max(40, k + 1)};
      with nn as (
        select application_number, embedding::${cast} <=> ${me} as distance from logo_vectors
        where model = '${model}' order by embedding::${cast} <=> ${me} limit ${k + 1})
      select nn.application_number, 1 - nn.distance as similarity, t.word_mark, t.class_number::int as class_number,
        t.status, t.proprietor_name, ${isoDate('t.application_date')} as application_date
      from nn join trademarks t using (application_number)
      where nn.application_number <> '${appNo}' order by nn.distance, nn.application_number;
      commit;`);
    const rows = (r as unknown as { command: string; rows: LogoCandidate[] }[]).find((x) => x.command === 'SELECT')!.rows;
    return rows.map((x) => ({ ...x, similarity: Number(x.similarity) }));
  }

  /** Cosine similarity of the mark's logo with each given mark's logo (those that have one under the model). */
  async similarities(appNo: string, model: string, dims: number, others: string[]): Promise<Map<string, number>> {
    if (!others.length) return new Map();
    checkModel(model, dims);
    const cast = `halfvec(${dims})`;
    const r = await this.db.raw(
      `select v.application_number, 1 - (v.embedding::${cast} <=> me.embedding::${cast}) as similarity
       from logo_vectors me join logo_vectors v on v.model = me.model and v.application_number = any(?::text[])
       where me.application_number = ? and me.model = ?`,
      [others, appNo, model],
    );
    return new Map(r.rows.map((x: LogoNeighbour) => [x.application_number, Number(x.similarity)]));
  }

  /** The words in the given marks' logos (supplied and read), for those that have any. */
  async logoTexts(appNos: string[]): Promise<Map<string, string>> {
    if (!appNos.length) return new Map();
    const r = await this.db.raw(
      `select application_number, concat_ws(' ', ocr_text, ocr_detected) as text from logos
       where application_number = any(?::text[]) and coalesce(ocr_text, ocr_detected) is not null`,
      [appNos],
    );
    return new Map(r.rows.map((x: { application_number: string; text: string }) => [x.application_number, x.text]));
  }
}
