import type { Bitset } from './bitset.ts';
import type { MarkIndex } from './markIndex.ts';
import type { DayRange, Filter } from './types.ts';

// A search's filter as one index checks it: the facet values turned into flags by this index's
// codes (each index has its own dictionaries), the proprietor words into a bitmap of its owners. A
// facet is read from the packed word a posting carries beside the mark; dates and the owner are read
// by mark id, which postings give in ascending order, so those reads run forward through their arrays.

/** Flags by code of the values kept, or null when the filter keeps every value. */
function flags(dict: string[], values: string[] | null | undefined, size: number): Uint8Array | null {
  if (!values) return null;
  const out = new Uint8Array(size);
  for (const v of values) {
    // Code 0 is no value, which no filter asks for.
    const code = dict.indexOf(v);
    if (code > 0) out[code] = 1;
  }
  return out;
}

export class FilterCheck {
  readonly active: boolean;
  private readonly classes: Uint8Array | null;
  private readonly status: Uint8Array | null;
  private readonly type: Uint8Array | null;
  private readonly mode: Uint8Array | null;
  private readonly state: Uint8Array | null;
  private readonly applied: DayRange | null;
  private readonly expires: DayRange | null;
  private readonly appDays: Int32Array;
  private readonly expDays: Int32Array;
  private readonly owners: Bitset | null;
  private readonly ownerOf: Uint32Array;

  constructor(ix: MarkIndex, f: Filter) {
    const { dict, summary } = ix.d;
    this.classes = f.classes;
    this.status = flags(dict.status, f.status, 256);
    this.type = flags(dict.tm_type, f.tm_type, 16);
    this.mode = flags(dict.filing_mode, f.filing_mode, 64);
    this.state = flags(dict.state, f.state, 256);
    this.applied = f.applicationDays ?? null;
    this.expires = f.expireDays ?? null;
    this.appDays = summary.applicationDays;
    this.expDays = summary.expireDays;
    this.owners = f.proprietor ? ix.owners.matching(f.proprietor) : null;
    this.ownerOf = summary.ownerOf;
    this.active =
      this.classes !== null ||
      this.status !== null ||
      this.type !== null ||
      this.mode !== null ||
      this.state !== null ||
      this.applied !== null ||
      this.expires !== null ||
      this.owners !== null;
  }

  /** Whether mark m, whose packed facets are x, passes. */
  passes(m: number, x: number): boolean {
    if (this.classes !== null && this.classes[x & 63] === 0) return false;
    if (this.status !== null && this.status[(x >>> 6) & 255] === 0) return false;
    if (this.type !== null && this.type[(x >>> 14) & 15] === 0) return false;
    if (this.mode !== null && this.mode[(x >>> 18) & 63] === 0) return false;
    if (this.state !== null && this.state[x >>> 24] === 0) return false;
    if (this.applied !== null) {
      const d = this.appDays[m];
      if (d < this.applied.from || d > this.applied.to) return false;
    }
    if (this.expires !== null) {
      const d = this.expDays[m];
      if (d < this.expires.from || d > this.expires.to) return false;
    }
    return this.owners === null || this.owners.has(this.ownerOf[m]);
  }
}

/** Whether a filter keeps only some classes, if anything: the answers kept ready can serve it as they are. */
export function classesOnly(f: Filter): boolean {
  return f.status === null && !f.tm_type && !f.filing_mode && !f.state && !f.applicationDays && !f.expireDays && !f.proprietor;
}
