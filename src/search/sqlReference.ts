import type { Db } from '../db/knex.ts';
import { maxEdits, phoneticCodes } from './normalise.ts';
import type { PreparedQuery } from './query.ts';
import { FACETS, type Facet } from './types.ts';

// SMART search written once in SQL over the normalised mark (nishaan_norm, migrations/*_search.ts):
// the reference the in-process index is checked against (test/search/differential.test.ts) and the
// baseline its benchmark runs beside it. It uses the trigram index of the normalised mark for every
// strategy that contains the query, trigram similarity for spelling variants and the GIN index of
// the words' phonetic codes for sound-alikes. Its phonetic codes are PostgreSQL's dmetaphone (four
// letters at most, numbers read digit by digit), so sound-alikes can differ from the index's; and
// nishaan_norm folds accents only, so it neither romanises other scripts nor folds look-alikes.

/** The four textual relations the index and SQL must agree on exactly, as SQL predicates on n = nishaan_norm(word_mark). */
export const RELATIONS = {
  exact: 'n = $1',
  prefix: `n like $1 || '%'`,
  word: `' ' || n || ' ' like '% ' || $1 || ' %'`,
  substring: `n like '%' || $1 || '%'`,
} as const;
export type Relation = keyof typeof RELATIONS;

export interface SqlResult {
  count: number;
  groups: Record<Facet, Map<string, number>>;
  page: { appNo: string; strategy: number }[];
}

const STRATEGY_SQL = `
  case
    when n = $1 then 0
    when n like $1 || '%' and (length($1) <= 2 or cardinality($2::text[]) > 1
      or length(split_part(n, ' ', 1)) <= length($1) + ($4::int[])[1]) then 1
    when ' ' || n || ' ' like '% ' || $1 || ' %' then 2
    when n like $1 || '%' then 3
    when cardinality($2::text[]) = 1 and length($1) > 2 and position(' ' in n) = 0 and position($1 in n) = 0
      and levenshtein_less_equal(n, $1, ($4::int[])[1]) <= ($4::int[])[1] then 4
    when n ~ $3 then 5
    when cardinality($2::text[]) > 1 and string_to_array(n, ' ') @> $2::text[] then 6
    when n like '%' || $1 and length($1) > 2 then 7
    when n like '%' || $1 || '%' and length($1) > 2 and cardinality($2::text[]) = 1 then 8
    when n like '%' || $1 || '%' and length($1) > 2 then 9
    when length($1) > 2 and (select bool_and(exists (select 1 from unnest(string_to_array(n, ' ')) w
           where levenshtein_less_equal(w, qw.w, qw.k) <= qw.k)) from unnest($2::text[], $4::int[]) qw(w, k)) then 10
    when length($1) > 2 and nishaan_codes(word_mark) && $5::text[] then 11
  end`;

/** The regular expression of a compound: the query's letters run together, spaces allowed between any two, on word boundaries. */
function compoundPattern(compact: string): string {
  return `(^| )${[...compact].map((c) => c.replace(/[^A-Z0-9]/g, (x) => `\\${x}`)).join(' ?')}( |$)`;
}

export class SqlSearch {
  constructor(private readonly db: Db) {}

  /** Application numbers of the marks in the given relation to the normalised query. */
  async relation(kind: Relation, normalised: string): Promise<string[]> {
    const rows = await this.raw(
      `select application_number from (select application_number, nishaan_norm(word_mark) as n from trademarks
         where nishaan_norm(word_mark) like '%' || $1 || '%') m where ${RELATIONS[kind]}`,
      [normalised],
    );
    return rows.map((x) => x.application_number as string);
  }

  /** SMART (or EXACT) in SQL: the count, the groups and one page in the index's order. */
  async search(q: PreparedQuery, classes: number[] | null, status: string | null, limit: number, offset: number): Promise<SqlResult> {
    const short = q.normalised.length <= 2;
    let params: unknown[];
    let candidates: string;
    let strategy: string;
    if (q.mode === 'EXACT') {
      // Equal exact keys have equal normalised forms: the trigram index finds the candidates. Accents
      // and Æ Ø Ł… are folded by unaccent, as nishaan_norm folds them (look-alikes of other scripts are not).
      params = [q.normalised, q.exact];
      candidates = `nishaan_norm(word_mark) = $1
        and upper(btrim(regexp_replace(public.unaccent('public.unaccent'::regdictionary, word_mark), '\\s+', ' ', 'g'))) = $2`;
      strategy = '0';
    } else {
      const codes = short ? [] : [...new Set(q.words.flatMap((w) => phoneticCodes(w).map((c) => c.slice(0, 4))))];
      params = [q.normalised, q.words, compoundPattern(q.compact), q.words.map((w) => maxEdits(w.length)), codes];
      // Candidates through the indexes: the trigram index for everything that contains the query (or
      // is spelled like it), the phonetic codes for sound-alikes.
      candidates = short
        ? `nishaan_norm(word_mark) like $1 || '%' or ' ' || nishaan_norm(word_mark) || ' ' like '% ' || $1 || ' %'`
        : `nishaan_norm(word_mark) like '%' || $1 || '%' or nishaan_norm(word_mark) % $1
           or nishaan_norm(word_mark) ~ $3 or nishaan_codes(word_mark) && $5::text[]`;
      strategy = STRATEGY_SQL;
    }
    const filters: string[] = [];
    if (classes) filters.push(`class_number = any($${params.push(classes)}::int[])`);
    if (status) filters.push(`status = $${params.push(status)}`);
    const match = `
      with m as (
        select application_number, class_number, status, tm_type, filing_mode, state, n, ${strategy} as strategy
        from (select t.*, nishaan_norm(t.word_mark) as n from trademarks t
              where t.word_mark <> '' and (${candidates}) ${filters.length ? `and ${filters.join(' and ')}` : ''}) c)`;
    const all = params;
    const strategyLimit = short ? 'strategy <= 2' : 'strategy is not null';
    const groups = await this.raw(
      `${match}
      select grouping(status) as gs, grouping(tm_type) as gt, grouping(filing_mode) as gf, grouping(state) as ge,
        grouping(class_number) as gc,
        status, tm_type, filing_mode, state, class_number, count(*)::int as n
      from m where ${strategyLimit}
      group by grouping sets ((status), (tm_type), (filing_mode), (state), (class_number), ())`,
      all,
    );
    const page = await this.raw(
      `${match}
      select application_number, strategy from m where ${strategyLimit}
      order by strategy, length(n), application_number::bigint limit ${Number(limit)} offset ${Number(offset)}`,
      all,
    );
    const out = Object.fromEntries(FACETS.map((f) => [f, new Map<string, number>()])) as Record<Facet, Map<string, number>>;
    let count = 0;
    for (const r of groups) {
      const put = (f: Facet, v: unknown) => v !== null && v !== '' && out[f].set(String(v), Number(r.n));
      if (r.gs === 0) put('status', r.status);
      else if (r.gt === 0) put('tm_type', r.tm_type);
      else if (r.gf === 0) put('filing_mode', r.filing_mode);
      else if (r.ge === 0) put('state', r.state);
      else if (r.gc === 0) put('class_number', r.class_number);
      else count = Number(r.n);
    }
    return { count, groups: out, page: page.map((r) => ({ appNo: r.application_number as string, strategy: Number(r.strategy) })) };
  }

  private async raw(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    const conn = (await this.db.client.acquireConnection()) as {
      query(t: string, v: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
    };
    try {
      return (await conn.query(sql, params)).rows;
    } finally {
      await this.db.client.releaseConnection(conn);
    }
  }
}
