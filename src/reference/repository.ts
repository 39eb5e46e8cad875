import type { Knex } from 'knex';
import type { GroundLists } from '../clearance/registrability.ts';
import type { Db } from '../db/knex.ts';
import type { ItemType } from './schemas.ts';

/** A piece of SQL with its positional bindings, so columns, filters and rankings compose in order. */
interface Sql {
  sql: string;
  binds: Knex.RawBinding[];
}

const sql = (text: string, ...binds: Knex.RawBinding[]): Sql => ({ sql: text, binds });
const ALL = sql('true');

/** LIKE treats % and _ as wildcards; a caller's text must match literally. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

// Must be the expression of class_items_trgm_idx, or the trigram index is not used.
const ITEM_TEXT = `(coalesce(i.item_a, '') || ' ' || coalesce(i.item_b, ''))`;

const ITEM_TYPE_FILTER: Record<ItemType, string> = {
  nice: ' and i.item_a is not null',
  tm: ' and i.item_b is not null',
  both: '',
};

export interface Page<T> {
  count: number;
  rows: T[];
}

export interface WellKnownRow {
  id: number;
  mark: string;
  proprietor: string | null;
  source_kind: string;
  date_or_journal: string | null;
  source_url: string | null;
  confidence: string;
}

export interface ProhibitedRow {
  id: string;
  legal_basis: string;
  kind: string;
  subject: string;
  description: string | null;
  match_terms: string[];
  sources: string[];
  confidence: string;
}

export interface InnRow {
  eaeu_code: string;
  inn_en: string;
  inn_la: string | null;
  inn_ru: string | null;
  match: 'exact' | 'prefix' | 'substring' | 'similar' | null;
}

export interface StemMatch {
  stem: string;
  position: 'suffix' | 'prefix' | 'infix' | 'anywhere' | 'prefix_and_suffix';
  meanings: string[];
}

export interface StateRow {
  iso_3166_2: string;
  code: string;
  name: string;
}

export interface StampDutyRow {
  id: number;
  instrument: 'affidavit' | 'power_of_attorney';
  state: string;
  iso_3166_2: string | null;
  amount_inr: number | null;
  basis: string | null;
  detail: string | null;
  source: string | null;
  source_type: string | null;
  confidence: string | null;
}

export interface ClassSummaryRow {
  class: number;
  kind: 'goods' | 'services';
  heading: string;
  item_count: number;
  nice_item_count: number;
  tm_item_count: number;
}

export interface ClassRow {
  class: number;
  kind: 'goods' | 'services';
  heading: string;
  explanatory_note: string | null;
  includes: string[];
  excludes: string[];
}

export interface ClassItemRow {
  id: number;
  item_a: string | null;
  item_b: string | null;
  basic_number: string | null;
}
export interface ClassSearchRow extends ClassItemRow {
  class: number;
  rank: number;
}

export class ReferenceRepository {
  constructor(private readonly db: Db) {}

  /** The lists clearance's registrability is judged on, whole (a few thousand short rows). */
  async groundLists(): Promise<GroundLists> {
    const [wellKnown, prohibited, inn, stems, states, items] = await Promise.all([
      this.db('well_known_marks').select('mark', 'proprietor').orderBy('mark'),
      this.db('prohibited_marks').select('subject', 'legal_basis', 'match_terms as terms').orderBy('subject'),
      this.db('inn_names').orderBy('inn_en').pluck('inn_en'),
      this.db('inn_stems').distinct('stem').orderBy('stem').pluck('stem'),
      this.db('states').orderBy('name').pluck('name'),
      this.db('class_items').whereNotNull('item_a').orderBy('id').select('class_number', 'item_a as item'),
    ]);
    return { wellKnown, prohibited, inn, stems, states, items };
  }

  /**
   * One page plus the total of the same filter, one query after the other: `db` may be a transaction,
   * whose single connection must not be sent a second query while the first runs (pg 9 refuses it).
   * Not `count(*) over ()`: a page past the end has no row to carry the total.
   */
  private async page<T>(
    select: Sql,
    from: string,
    where: Sql,
    order: Sql,
    limit: number,
    offset: number,
    db: Knex = this.db,
  ): Promise<Page<T>> {
    const rows = await db.raw(`select ${select.sql} from ${from} where ${where.sql} order by ${order.sql} limit ? offset ?`, [
      ...select.binds,
      ...where.binds,
      ...order.binds,
      limit,
      offset,
    ]);
    const total = await db.raw(`select count(*)::int as n from ${from} where ${where.sql}`, where.binds);
    return { count: total.rows[0].n, rows: rows.rows };
  }

  wellKnownMarks(q: string, limit: number, offset: number): Promise<Page<WellKnownRow>> {
    const select = sql('w.id, w.mark, w.proprietor, w.source_kind, w.date_or_journal, w.source_url, w.confidence');
    const from = 'well_known_marks w';
    if (!q) return this.page(select, from, ALL, sql('lower(w.mark), w.id'), limit, offset);
    const sub = `%${escapeLike(q)}%`;
    return this.page(
      select,
      from,
      sql('(w.mark ilike ? or w.proprietor ilike ? or w.mark % ? or w.proprietor % ?)', sub, sub, q, q),
      // A hit on the mark outranks one on the proprietor: clients check a candidate mark against marks.
      sql(
        `case when lower(w.mark) = lower(?) then 0 when w.mark ilike ? then 1 when w.mark ilike ? then 2
             when w.proprietor ilike ? then 3 else 4 end,
           greatest(similarity(w.mark, ?), similarity(coalesce(w.proprietor, ''), ?)) desc, lower(w.mark), w.id`,
        q,
        `${escapeLike(q)}%`,
        sub,
        sub,
        q,
        q,
      ),
      limit,
      offset,
    );
  }

  prohibitedMarks(q: string, limit: number, offset: number): Promise<Page<ProhibitedRow>> {
    const select = sql(`p.id, p.legal_basis, p.kind, p.subject, p.description, p.match_terms,
      coalesce(string_to_array(p.sources, ' | '), '{}') as sources, p.confidence`);
    const from = 'prohibited_marks p';
    if (!q) return this.page(select, from, ALL, sql('p.id'), limit, offset);
    const sub = `%${escapeLike(q)}%`;
    // Both directions: q inside the entry (a lookup), and a match term as whole words inside q (clearing a
    // candidate mark such as "UNO FOODS"). Words are compared after folding case and punctuation to spaces.
    const where = sql(
      `(p.subject ilike ? or p.description ilike ? or exists (
         select 1 from unnest(p.match_terms) t
         where t ilike ?
            or (' ' || regexp_replace(lower(?), '[^a-z0-9]+', ' ', 'g') || ' ')
               like ('% ' || btrim(regexp_replace(lower(t), '[^a-z0-9]+', ' ', 'g')) || ' %')))`,
      sub,
      sub,
      sub,
      q,
    );
    return this.page(select, from, where, sql('p.id'), limit, offset);
  }

  nonProprietaryNames(q: string, limit: number, offset: number): Promise<Page<InnRow>> {
    const from = 'inn_names n';
    if (!q) return this.page(sql('n.eaeu_code, n.inn_en, n.inn_la, n.inn_ru, null as match'), from, ALL, sql('n.inn_en'), limit, offset);
    const prefix = `${escapeLike(q)}%`;
    const sub = `%${escapeLike(q)}%`;
    // The match kind, as a label for the client and as the first sort key.
    const tier = (exact: string, pre: string, substring: string, similar: string) =>
      sql(
        `case when lower(n.inn_en) = lower(?) then ${exact} when n.inn_en ilike ? then ${pre}
         when n.inn_en ilike ? then ${substring} else ${similar} end`,
        q,
        prefix,
        sub,
      );
    const label = tier(`'exact'`, `'prefix'`, `'substring'`, `'similar'`);
    const rank = tier('0', '1', '2', '3');
    return this.page(
      sql(`n.eaeu_code, n.inn_en, n.inn_la, n.inn_ru, ${label.sql} as match`, ...label.binds),
      from,
      // Both arms can use inn_names_en_trgm_idx.
      sql('(n.inn_en ilike ? or n.inn_en % ?)', sub, q),
      sql(`${rank.sql}, similarity(n.inn_en, ?) desc, n.inn_en`, ...rank.binds, q),
      limit,
      offset,
    );
  }

  /**
   * WHO stems found in q, read in the WHO notation: a hyphen stands for the rest of the name, so `-mab` is a
   * suffix, `cef-` a prefix, `-adol-` sits inside, and a stem without hyphens may sit anywhere. Each word of q
   * is checked, and q as a whole for stems with a space (`-dronic acid`). Stems that may sit mid-word need at
   * least 3 letters: shorter ones occur in too many ordinary words to mean anything.
   */
  async innStems(q: string): Promise<StemMatch[]> {
    const r = await this.db.raw(
      `select s.stem, s.position, array_agg(s.meaning order by s.id) as meanings
       from (
         select st.id, st.stem, st.meaning, length(replace(st.stem, '-', '')) as letters,
           case when st.stem not like '%-%' then '%' || st.stem || '%' else replace(st.stem, '-', '%') end as pattern,
           case when st.stem like '-%-' then 'infix' when st.stem like '-%' then 'suffix' when st.stem like '%-' then 'prefix'
                when st.stem like '%-%' then 'prefix_and_suffix' else 'anywhere' end as position
         from inn_stems st where st.kind = 'stem'
       ) s
       where (s.position in ('suffix', 'prefix', 'prefix_and_suffix') or s.letters >= 3)
         and exists (
           select 1 from unnest(regexp_split_to_array(lower(?), '\\s+') || lower(?)) w(word)
           where w.word <> '' and w.word like s.pattern)
       group by s.stem, s.position
       order by max(s.letters) desc, s.stem`,
      [q, q],
    );
    return r.rows;
  }

  /** A state or union territory by name (ASCII or ISO spelling), ISO 3166-2 code or short code, in any case. */
  async findState(text: string): Promise<StateRow | undefined> {
    const r = await this.db.raw(
      `select iso_3166_2, code, name from states
       where lower(name) = lower(?) or lower(name_iso) = lower(?) or upper(iso_3166_2) = upper(?) or upper(code) = upper(?)
       limit 1`,
      [text, text, text, text],
    );
    return r.rows[0];
  }

  async stampDuty(iso: string | null, instrument: string | null): Promise<StampDutyRow[]> {
    const r = await this.db.raw(
      `select id, instrument, state, iso_3166_2, amount_inr::float8 as amount_inr, basis, detail, source, source_type, confidence
       from stamp_duty
       where (?::text is null or iso_3166_2 = ?) and (?::text is null or instrument = ?)
       order by instrument, state, id`,
      [iso, iso, instrument, instrument],
    );
    return r.rows;
  }

  async classes(): Promise<ClassSummaryRow[]> {
    const r = await this.db.raw(
      `select c.class_number::int as class, c.kind, c.heading,
         count(i.id)::int as item_count, count(i.item_a)::int as nice_item_count, count(i.item_b)::int as tm_item_count
       from nice_classes c left join class_items i on i.class_number = c.class_number
       group by c.class_number order by c.class_number`,
    );
    return r.rows;
  }

  async classDetail(classNumber: number): Promise<ClassRow | undefined> {
    const r = await this.db.raw(
      `select class_number::int as class, kind, heading, explanatory_note, includes, excludes
       from nice_classes where class_number = ?`,
      [classNumber],
    );
    return r.rows[0];
  }

  /** Items in id order: the loader inserts them sorted by item, and (class_number, id) is indexed. */
  classItems(classNumber: number, type: ItemType, limit: number, offset: number): Promise<Page<ClassItemRow>> {
    return this.page(
      sql('i.id, i.item_a, i.item_b, i.basic_number'),
      'class_items i',
      sql(`i.class_number = ?${ITEM_TYPE_FILTER[type]}`, classNumber),
      sql('i.id'),
      limit,
      offset,
    );
  }

  /**
   * For each phrase of a goods or services text, the Nice items that share most of its words (English full text, any
   * word of the phrase, ranked by cover density): `per` of them, best first, with their class. What a clearance
   * without classes screens (src/clearance/goods.ts).
   */
  async itemsLike(phrases: string[], per: number): Promise<{ n: number; class_number: number; item: string; rank: number }[]> {
    if (!phrases.length) return [];
    const rows = await this.db.raw(
      `with p as (select t, n from unnest(?::text[]) with ordinality as p(t, n)),
       q as (select n, to_tsquery('english', string_agg(quote_literal(w), ' | ')) as q
             from p, regexp_split_to_table(lower(t), '[^a-z]+') as w where length(w) > 1 group by n)
       select q.n::int as n, m.class_number::int as class_number, m.item_a as item, m.rank::float8 as rank
       from q cross join lateral (
         select i.class_number, i.item_a, ts_rank_cd(i.search, q.q, 1) as rank from class_items i
         where i.search @@ q.q and i.item_a is not null order by rank desc, length(i.item_a), i.id limit ?) m
       order by q.n, m.rank desc`,
      [phrases, per],
    );
    return rows.rows;
  }

  /**
   * Whole words by English full-text search (so "shirt" finds "shirts"); partial words, from 3 letters or digits (one
   * trigram), by substring or trigram word similarity. Full-text hits rank above 1 (1 + ts_rank_cd, scaled down for
   * long items and into 0-1), the rest at most 1 (word similarity), so a whole-word hit always comes first; among
   * equals the shorter item is the closer one.
   */
  searchItems(q: string, type: ItemType, classNumber: number | undefined, limit: number, offset: number): Promise<Page<ClassSearchRow>> {
    const tsq = `websearch_to_tsquery('english', ?)`;
    // pg_trgm builds trigrams from letters and digits only; a q without them would make the trigram index read
    // every entry.
    const partial = q.replace(/[^\p{L}\p{N}]/gu, '').length >= 3;
    const partialMatch = partial ? sql(` or ${ITEM_TEXT} ilike ? or ? <% ${ITEM_TEXT}`, `%${escapeLike(q)}%`, q) : sql('');
    const classFilter = classNumber === undefined ? sql('') : sql(' and i.class_number = ?', classNumber);
    const where = sql(
      `(i.search @@ ${tsq}${partialMatch.sql})${ITEM_TYPE_FILTER[type]}${classFilter.sql}`,
      q,
      ...partialMatch.binds,
      ...classFilter.binds,
    );
    const rank = sql(
      `round((case when i.search @@ ${tsq} then 1 + ts_rank_cd(i.search, ${tsq}, 1 | 32)
                   else word_similarity(?, ${ITEM_TEXT}) end)::numeric, 4)::float8`,
      q,
      q,
      q,
    );
    return this.db.transaction(async (trx) => {
      // The planner prices word_similarity like a cheap operator and scans every item computing it (30-45 ms);
      // the full-text and trigram indexes answer the same query in 2-6 ms.
      await trx.raw('set local enable_seqscan = off');
      return this.page<ClassSearchRow>(
        sql(`i.class_number::int as class, i.id, i.item_a, i.item_b, i.basic_number, ${rank.sql} as rank`, ...rank.binds),
        'class_items i',
        where,
        sql(`rank desc, length(${ITEM_TEXT}), i.class_number, i.id`),
        limit,
        offset,
        trx,
      );
    });
  }
}
