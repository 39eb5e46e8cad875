import { Buckets } from './gather.ts';
import type { Filter } from './types.ts';

// One search made for several filters at once (src/search/searchEach.ts): filters alike but for their
// classes, which no two share. The search runs once over the union of their classes; what depends on the
// filter beyond leaving marks out (partial matching reads a bounded number of candidates of the filter's
// classes: src/search/partial.ts) is done filter by filter (src/search/partialGroups.ts), and the page is
// picked filter by filter.

/** One filter of a split search, and its partial matches (as partial matching leaves them in a scratch). */
export interface SplitPart {
  filter: Filter;
  partials: Buckets;
  partialWords: number[];
}

const kept: Buckets[] = [];

export class FilterSplit {
  /** Which part a class belongs to, or -1 (by class number, 64 entries). */
  readonly partOf = new Int8Array(64).fill(-1);
  readonly parts: SplitPart[];

  constructor(filters: Filter[]) {
    // Partial buckets grow to what a search needs: kept from search to search (one runs at a time).
    while (kept.length < filters.length) kept.push(new Buckets(3));
    this.parts = filters.map((filter, k) => ({ filter, partials: kept[k], partialWords: [] }));
    filters.forEach((f, k) => {
      for (let c = 0; c < 64; c++) if (f.classes?.[c]) this.partOf[c] = k;
    });
  }
}

/**
 * Whether the filters can be searched as one split search: at least two, each keeping some classes and no
 * class another keeps, and alike in everything else (then a mark passes the union exactly when it passes
 * the one filter its class belongs to).
 */
export function splittable(filters: Filter[]): boolean {
  if (filters.length < 2 || filters.length > 64) return false;
  const owner = new Int8Array(64).fill(-1);
  const rest = (f: Filter) =>
    JSON.stringify([f.status, f.tm_type, f.filing_mode, f.state, f.applicationDays, f.expireDays, f.proprietor].map((x) => x ?? null));
  const first = rest(filters[0]);
  for (const [k, f] of filters.entries()) {
    if (!f.classes || rest(f) !== first) return false;
    for (let c = 0; c < 64; c++) {
      if (!f.classes[c]) continue;
      if (owner[c] >= 0) return false;
      owner[c] = k;
    }
  }
  return true;
}

/** The filter keeping every mark one of `filters` keeps (they are splittable). */
export function unionOf(filters: Filter[]): Filter {
  const classes = new Uint8Array(64);
  for (const f of filters) for (let c = 0; c < 64; c++) if (f.classes?.[c]) classes[c] = 1;
  return { ...filters[0], classes };
}
