import { Bitset } from './bitset.ts';
import { exact } from './exact.ts';
import { FilterSplit, splittable, unionOf } from './filterSplit.ts';
import { classesOnly } from './filters.ts';
import type { MarkIndex } from './markIndex.ts';
import { multiWord } from './multiWord.ts';
import { sortedPage } from './order.ts';
import { type PreparedQuery, prepareQuery } from './query.ts';
import { orderPart, type Part, type ReadyAnswer, readyAnswer, readyCounts, readyHits } from './ready.ts';
import type { ReadyEntries } from './readyData.ts';
import { READY_FROM, ReadyWords } from './readyWords.ts';
import { groups, page } from './results.ts';
import { SearchScratch } from './scratch.ts';
import { answersEach, noGroups } from './searchEach.ts';
import { SHORT_FROM, ShortPrefixes } from './shortPrefix.ts';
import { singleWord } from './singleWord.ts';
import { STRATEGY_COUNT } from './strategies.ts';
import { type After, type Filter, type IndexResult, MAX_LEN, type Sort } from './types.ts';
import { IndexReader, type IndexView } from './view.ts';

// An index as it is searched now: its marks (a MarkIndex, never changed) less those hidden since it
// was made, and the answers it keeps ready (src/search/ready.ts). Hiding a mark, when the change feed
// says it changed or went away, is the one change: hide() marks it hidden and takes it out of the
// ready answers' counts, together. Searching is synchronous and the change feed is applied between
// searches (src/search/engine.ts), so a search never sees half a change.

export class LiveIndex {
  private readonly hidden: Bitset;
  private hiddenCount = 0;
  private readonly short: ShortPrefixes;
  private readonly readyWords: ReadyWords;
  /** Scratch kept from search to search (one, but for a search made while another runs). */
  private readonly scratch: SearchScratch[] = [];
  /** The index as code outside search reads it (src/search/view.ts). */
  readonly view: IndexView;

  /**
   * `shortFrom`: how many postings a prefix of one or two characters needs to keep its answer ready;
   * `readyFrom`: how many marks a word needs to keep its answer ready when searched alone (tests lower
   * them to reach those paths on small registers).
   */
  constructor(
    readonly index: MarkIndex,
    shortFrom = SHORT_FROM,
    private readonly readyFrom = READY_FROM,
  ) {
    this.hidden = new Bitset(index.n);
    this.short = new ShortPrefixes(index.vocab, index.d, this.hidden, shortFrom);
    this.readyWords = new ReadyWords(index.n);
    const saved = index.takeReady();
    if (saved) {
      this.short.adopt(saved.prefixes);
      this.readyWords.adopt(saved.words);
    }
    this.view = new IndexReader(index, this.hidden);
  }

  /** How many marks are not hidden. */
  get live(): number {
    return this.index.n - this.hiddenCount;
  }

  isLive(id: number): boolean {
    return !this.hidden.has(id);
  }

  /** Hides a mark (it changed or went away; its newer copy lives in another index). */
  hide(appNo: number): void {
    const id = this.index.idOf(appNo);
    if (id >= 0 && !this.hidden.has(id)) {
      this.hidden.add(id);
      this.hiddenCount++;
      const x = this.index.d.info[id];
      this.short.remove(id, x);
      this.readyWords.remove(id, x);
    }
  }

  /** `after` pages by relevance; a `sort` carries its own cursor. */
  search(q: PreparedQuery, filter: Filter, want: number, after: After | null, sort: Sort | null = null): IndexResult {
    const dict = this.index.d.dict;
    const ready = this.readyAnswer(q);
    if (ready && sort === null && classesOnly(filter)) {
      const c = readyCounts(ready, filter.classes);
      return {
        count: c.count,
        groups: groups(dict, c.classStatus, c.typeMode, c.state),
        hits: readyHits(ready, this.index.d.appNo, this.hidden, filter.classes, want, after),
      };
    }
    return this.withScratch(filter, (s) => {
      if (ready) {
        // Other filters, or another order: the ready answer's marks, strategy by strategy, through the filters.
        ready.parts.forEach((part, b) => {
          for (let i = 0; i < part.marks.length; i++) s.takeKnown(part.marks[i], part.keys[i] >>> 10, part.keys[i] & MAX_LEN, part.info[i]);
          s.close(b);
        });
      } else this.run(q, s);
      s.close(STRATEGY_COUNT - 1);
      return {
        count: s.count,
        groups: groups(dict, s.facetClassStatus, s.facetTypeMode, s.facetState),
        hits: sort ? sortedPage(s, this.index, sort, want) : page(s, this.index.d.appNo, want, after),
      };
    });
  }

  /**
   * The first page (relevance, `want` hits) of the query under each filter, as separate searches would
   * answer, with their counts; groups only with `counts`. Without `counts` a search may stop once every page
   * is full (SearchScratch.pageOnly; one filter's through pageOf), and a count is then at least the page, not
   * the whole. Filters alike but for their classes, which no two share, are searched as one
   * (src/search/filterSplit.ts), unless the query has a ready answer.
   */
  searchEach(q: PreparedQuery, filters: Filter[], want: number, counts = true): IndexResult[] {
    const alone = () =>
      filters.map((f) => {
        const r = this.search(q, f, want, null);
        return counts ? r : { ...r, groups: noGroups() };
      });
    if (this.readyAnswer(q)) return alone();
    // One filter and no counts: the page alone, which may stop once it is full.
    if (filters.length === 1 && !counts) return [this.pageOf(q, filters[0], want)];
    if (!splittable(filters)) return alone();
    return this.withScratch(unionOf(filters), (s) => {
      const split = new FilterSplit(filters);
      s.split = split;
      if (!counts) s.pageOnly = want;
      try {
        this.run(q, s);
        s.close(STRATEGY_COUNT - 1);
        return answersEach(s, this.index.d, split, want, counts);
      } finally {
        s.split = null;
      }
    });
  }

  /** The first page (relevance) under one filter, stopping once it is full: its count is then at least the page. */
  private pageOf(q: PreparedQuery, filter: Filter, want: number): IndexResult {
    return this.withScratch(filter, (s) => {
      s.pageOnly = want;
      this.run(q, s);
      s.close(STRATEGY_COUNT - 1);
      return { count: s.count, groups: noGroups(), hits: page(s, this.index.d.appNo, want, null) };
    });
  }

  private run(q: PreparedQuery, s: SearchScratch): void {
    if (!q.words.length) return;
    if (q.mode === 'EXACT') exact(this.index, s, q);
    else if (q.words.length === 1) singleWord(this.index, s, q);
    else multiWord(this.index, s, q);
  }

  /**
   * Makes every ready answer now (short prefixes, common words searched alone), yielding to the event
   * loop between them, so that no search pays for making one (up to 300 ms for SHREE; all of them take
   * about 5 s at 7.7M marks). Returns how many it made.
   */
  async prepare(): Promise<number> {
    let made = 0;
    for (const q of this.readyQueries()) {
      if (this.readyAnswer(q)) made++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return made;
  }

  /**
   * Every ready answer made at once, with the common words' bitmaps, for a snapshot to keep (src/search/readyData.ts);
   * made before anything is hidden, so that a process loading them counts as this one would.
   */
  readyEntries(): ReadyEntries {
    if (this.hiddenCount) throw new Error('ready answers are saved from an index with nothing hidden');
    for (const q of this.readyQueries()) this.readyAnswer(q);
    return { prefixes: this.short.made(), words: this.readyWords.made(), sets: this.index.sets.bitmaps() };
  }

  private readyQueries(): PreparedQuery[] {
    const { vocab } = this.index;
    const queries = this.short.prefixes().map((p) => prepareQuery(p, 'SMART'));
    for (let w = 0; w < vocab.size; w++) {
      if (this.index.postings(w) >= this.readyFrom && vocab.words.lengthOf(w) > 2) queries.push(prepareQuery(vocab.words.at(w), 'SMART'));
    }
    return queries;
  }

  /** Runs a search in a scratch of its own, begun with `filter`. */
  private withScratch<T>(filter: Filter, f: (s: SearchScratch) => T): T {
    const s = this.scratch.pop() ?? new SearchScratch(this.index);
    try {
      s.begin(filter, this.hidden, this.hiddenCount);
      return f(s);
    } finally {
      this.scratch.push(s);
    }
  }

  /** The ready answer of a SMART query of one word, when it is a short prefix or a word common enough to keep one. */
  private readyAnswer(q: PreparedQuery): ReadyAnswer | undefined {
    if (q.mode !== 'SMART' || q.words.length !== 1) return undefined;
    const w = q.words[0];
    if (q.normalised.length <= 2) return this.short.get(w);
    const id = this.index.vocab.id(w);
    if (id < 0 || this.index.postings(id) < this.readyFrom) return undefined;
    return this.readyWords.get(id, (holds) => this.wholeAnswer(q, holds));
  }

  /** Searches a one-word query over every class and keeps its whole result, in order; `holds` gets its marks. */
  private wholeAnswer(q: PreparedQuery, holds: Bitset): ReadyAnswer {
    return this.withScratch({ classes: null, status: null }, (s) => {
      singleWord(this.index, s, q);
      s.close(STRATEGY_COUNT - 1);
      const parts: Part[] = [];
      for (let b = 0, from = 0; b < STRATEGY_COUNT; from = s.bucketEnd[b++]) {
        const marks = s.members.slice(from, s.bucketEnd[b]);
        for (let i = 0; i < marks.length; i++) holds.add(marks[i]);
        parts.push(orderPart(marks, Uint32Array.from(s.keys.subarray(from, s.bucketEnd[b])), this.index.d.info));
      }
      return readyAnswer(parts, this.hidden);
    });
  }
}
