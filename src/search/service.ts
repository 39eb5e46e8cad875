import { createHash } from 'node:crypto';
import { invalidParameter, notFound } from '../errors.ts';
import { RegisterValues, resolveMarkFilter } from '../trademarks/markFilter.ts';
import type { SummaryRow, TrademarkRepository } from '../trademarks/repository.ts';
import type { SearchCache } from './cache.ts';
import { type Cursor, decodeCursor, encodeCursor, fingerprint } from './cursor.ts';
import type { SearchEngine } from './engine.ts';
import type { SearchIndex } from './manager.ts';
import { normaliseMark, phoneticCodes, romanise, wordsOf } from './normalise.ts';
import { type MatchType, prepareQuery } from './query.ts';
import type { PublicSearchParams, SearchParams, SortParam } from './schemas.ts';
import { S_NEAR, S_PHONETIC, S_SPELLING, STRATEGIES, score } from './strategies.ts';
import { type After, type DayRange, FACETS, type Facet, type Filter, type IndexHit, type Sort, type SortField } from './types.ts';

type Bucket = Record<string, number>[];
export interface SearchBody {
  query: string;
  match_type: MatchType;
  count: number;
  limit: number;
  offset: number;
  response_ms: number;
  from_cache: boolean;
  results: (SummaryRow & { score: number; strategy: (typeof STRATEGIES)[number] })[];
  groups: Record<Facet, Bucket>;
  next_cursor: string | null;
}

/** A search's parameters; the sort is relevance when not given. */
export type SearchRequest = Omit<SearchParams, 'sort'> & { sort?: SortParam };

const bad = (parameter: string, message: string) => invalidParameter('query', parameter, message);
// An open end of a date range: far past any date.
const DAY_LIMIT = 100_000_000;

/** Word-mark search over the in-process index, which also holds the summaries of the page. */
/** The few fields of a mark the free search and the free mark page show, and no more. */
const publicFields = (
  x: Pick<SummaryRow, 'application_number' | 'word_mark' | 'class_number' | 'status' | 'application_date' | 'state' | 'tm_type'>,
) => ({
  application_number: x.application_number,
  word_mark: x.word_mark,
  class_number: x.class_number,
  status: x.status,
  application_date: x.application_date,
  state: x.state,
  tm_type: x.tm_type,
});

export class SearchService {
  constructor(
    private readonly index: SearchIndex,
    private readonly repo: TrademarkRepository,
    private readonly cache: SearchCache,
    private readonly owners: OwnerLookup,
  ) {
    this.values = new RegisterValues(index, repo);
  }

  /** The register's values of each facet, as the other listings check their filters against them. */
  private readonly values: RegisterValues;

  /** `cached: false` for callers that page through a whole result (exports): their pages would only fill the cache. */
  /**
   * `owners: false` for the free search, which shows no owner and must go on from the index alone while PostgreSQL is
   * away (docs/outages.md).
   */
  async search(p: SearchRequest, opts: { cached?: boolean; owners?: boolean } = {}): Promise<SearchBody> {
    const cached = opts.cached ?? true;
    const owned = (b: SearchBody) => (opts.owners === false ? b : this.withOwners(b));
    const t0 = performance.now();
    const q = prepareQuery(p.word_mark, p.match_type);
    if (!q.words.length) throw bad('word_mark', 'word_mark must contain a letter or a digit');
    if (p.cursor !== undefined && p.offset > 0)
      throw bad('cursor', 'cursor and offset cannot be combined: a cursor says where the page starts');
    const engine = await this.index.ready();
    const { filter, key: filterKey } = await this.filter(p);
    const sortName = p.sort ?? 'relevance';
    const fp = fingerprint([q.normalised, q.exact, q.mode, filterKey, sortName]);
    const cursor = p.cursor === undefined ? null : decodeCursor(p.cursor, fp);
    const sort: Sort | null =
      sortName === 'relevance'
        ? null
        : { field: sortName.replace('-', '') as SortField, desc: sortName.startsWith('-'), after: cursor?.sorted ?? null };
    const after = cursor?.relevance ?? null;
    if (cursor && !fits(cursor, sort)) throw bad('cursor', 'cursor is not one this API handed out');
    const key = this.cache.key(
      engine.seq,
      createHash('sha256')
        .update(JSON.stringify([fp, p.limit, p.offset, p.cursor ?? null, p.word_mark]))
        .digest('base64url'),
    );
    const hit = cached ? await this.cache.get<SearchBody>(key) : null;
    if (hit) return { ...(await owned(hit)), response_ms: Math.round(performance.now() - t0), from_cache: true };

    const upTo = cursor ? p.limit : p.offset + p.limit;
    // One more than the page: whether there is a next page is then known, not guessed.
    const r = engine.search(q, filter, upTo + 1, after, sort);
    const page = r.hits.slice(cursor ? 0 : p.offset, upTo);
    const results = summaries(engine, page, q.normalised.length);
    const last = page.at(-1);
    const more = r.hits.length > upTo;
    const body: SearchBody = {
      query: p.word_mark,
      match_type: q.mode,
      count: r.count,
      limit: p.limit,
      offset: p.offset,
      response_ms: 0,
      from_cache: false,
      results,
      groups: formatGroups(r.groups),
      next_cursor: more && last ? encodeCursor(fp, last, sort !== null) : null,
    };
    if (cached) this.cache.set(key, body);
    return { ...(await owned(body)), response_ms: Math.round(performance.now() - t0) };
  }

  /** The page with each result's owner entity, read as the page is answered: names are grouped after an import. */
  private async withOwners(body: SearchBody): Promise<SearchBody> {
    const of = await this.owners.entitiesOf(body.results.map((r) => r.proprietor_name));
    return { ...body, results: body.results.map((r) => ({ ...r, owner_id: of.get(r.proprietor_name) ?? null })) };
  }

  /** One mark as the free search shows it (its few public fields); 404 when it is not on the register. */
  async publicMark(appNo: string) {
    const [row] = await this.repo.summaries([appNo]);
    if (!row) throw notFound(`trademark ${appNo}`);
    return publicFields(row);
  }

  /** The free search: ten results at most, the contract's few fields, counts by class and status. */
  async publicSearch(p: PublicSearchParams) {
    const r = await this.search(
      {
        word_mark: p.word_mark,
        match_type: p.match_type,
        class_number: p.class_number,
        classes: p.classes,
        status: p.status,
        limit: 10,
        offset: p.offset,
      },
      { owners: false },
    );
    return {
      query: r.query,
      match_type: r.match_type,
      count: r.count,
      offset: r.offset,
      results: r.results.map(publicFields),
      groups: { class_number: r.groups.class_number, status: r.groups.status },
    };
  }

  /** A mark's normalised form, its phonetic codes and its closest spelling variants and sound-alikes. */
  async phonetic(appNo: string) {
    const [row] = await this.repo.summaries([appNo]);
    if (!row) throw notFound(`trademark ${appNo}`);
    const engine = await this.index.ready();
    const q = prepareQuery(row.word_mark, 'SMART');
    const words = wordsOf(q.normalised).map((w) => ({ word: w, romanised: romanise(w), codes: phoneticCodes(w) }));
    let alikes: SearchBody['results'] = [];
    if (q.words.length) {
      // Pages that start after every stronger strategy: one-word variants (`near`, found first), then
      // the other spelling variants and sound-alikes.
      const after = (strategy: number): After => ({
        strategy,
        dist: Number.MAX_SAFE_INTEGER,
        len: Number.MAX_SAFE_INTEGER,
        appNo: Number.MAX_SAFE_INTEGER,
      });
      const none = { classes: null, status: null };
      const near = engine.search(q, none, 21, after(S_NEAR - 1)).hits.filter((h) => h.strategy === S_NEAR);
      // A page past the spelling variants runs on into the weaker strategies (partial matches): they are
      // not sound-alikes, and the answer names only near, spelling and phonetic.
      const variants = engine.search(q, none, 21, after(S_SPELLING - 1)).hits.filter((h) => h.strategy <= S_PHONETIC);
      alikes = summaries(
        engine,
        [...near, ...variants].filter((h) => String(h.appNo) !== appNo),
        q.normalised.length,
      ).slice(0, 20);
    }
    return {
      application_number: row.application_number,
      word_mark: row.word_mark,
      normalised: q.normalised,
      words,
      sound_alikes: alikes.map((a) => ({
        application_number: a.application_number,
        word_mark: a.word_mark,
        class_number: a.class_number,
        status: a.status,
        score: a.score,
        strategy: a.strategy as 'near' | 'spelling' | 'phonetic',
      })),
    };
  }

  /**
   * The search's filter, each value as the register spells it (any case accepted), and a key of it
   * for the cursor's fingerprint. A value that is neither in the reference list (statuses) nor on any
   * mark is a 400 naming the known ones.
   */
  private async filter(p: SearchRequest): Promise<{ filter: Filter; key: unknown[] }> {
    // The register's fields are read as every listing reads them (src/trademarks/markFilter.ts).
    const m = await resolveMarkFilter(p, this.values, 'query');
    const classes = m?.classes ?? [];
    const status = m?.status ?? null;
    const range = (name: string, from: number | undefined, to: number | undefined): DayRange | null => {
      if (from === undefined && to === undefined) return null;
      if (from !== undefined && to !== undefined && from > to) throw bad(`${name}_to`, `${name}_to must not be before ${name}_from`);
      return { from: from ?? -DAY_LIMIT, to: to ?? DAY_LIMIT };
    };
    let proprietor: string[] | null = null;
    if (p.proprietor !== undefined) {
      proprietor = wordsOf(normaliseMark(p.proprietor));
      if (!proprietor.length) throw bad('proprietor', 'proprietor must contain a letter or a digit');
    }
    const filter: Filter = {
      classes: classes.length ? classMask(classes) : null,
      status,
      tm_type: m?.tm_type ?? null,
      filing_mode: m?.filing_mode ?? null,
      state: m?.state ?? null,
      applicationDays: range('application_date', p.application_date_from, p.application_date_to),
      expireDays: range('expire', p.expire_from, p.expire_to),
      proprietor,
    };
    const sorted = (list: string[] | null | undefined) => (list ? [...list].sort() : null);
    const key = [
      classes,
      sorted(status),
      sorted(filter.tm_type),
      sorted(filter.filing_mode),
      sorted(filter.state),
      filter.applicationDays,
      filter.expireDays,
      proprietor,
    ];
    return { filter, key };
  }
}

/** Whether a cursor is of the search's order: relevance, or a sort with a value of its field's kind. */
function fits(c: Cursor, sort: Sort | null): boolean {
  if (!sort || !c.sorted) return !sort && c.relevance !== null;
  const v = c.sorted.value;
  if (sort.field === 'word_mark') return typeof v === 'string';
  return typeof v === 'number' || (v === null && sort.field === 'expire_at');
}

/** The page's summaries with each hit's score and strategy, from the engine that just found them (no await in between). */
function summaries(engine: SearchEngine, hits: IndexHit[], queryLength: number): SearchBody['results'] {
  const rows = engine.summaries(hits);
  return hits.map((h, i) =>
    Object.assign(rows[i], { score: score(h.strategy, h.dist, h.len, queryLength), strategy: STRATEGIES[h.strategy] }),
  );
}

/** Which owner entity holds each proprietor name (src/owners/repository.ts). */
export interface OwnerLookup {
  entitiesOf(names: string[]): Promise<Map<string, string>>;
}

export function classMask(classes: number[]): Uint8Array {
  const m = new Uint8Array(64);
  for (const c of classes) m[c] = 1;
  return m;
}

function formatGroups(groups: Record<Facet, Map<string, number>>): Record<Facet, Bucket> {
  const out = {} as Record<Facet, Bucket>;
  for (const f of FACETS) {
    out[f] = [...groups[f]].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => ({ [k]: n }));
  }
  return out;
}
