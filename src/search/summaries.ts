import type { SummaryRow } from '../trademarks/repository.ts';
import { slugOf } from '../trademarks/slug.ts';

// The trade mark summaries of an index's marks, kept beside it, so a page of search results is
// written without a round trip to PostgreSQL: at 7.7M marks that round trip (50 rows looked up and
// formatted, then parsed) cost about a sixth of the machine's time per search. What the index
// already keeps (class, status, type, filing mode, state) is read from its facet columns; a word
// mark or slug is kept only where it differs from what the mark's normalised words and slugOf()
// give, which at registry scale is almost never. Kept current by the index's change feed like
// everything else in it, and saved in its snapshot.

/** Strings in one UTF-8 block: string i is bytes [offsets[i], offsets[i + 1]). */
export interface TextHeap {
  offsets: Uint32Array;
  bytes: Uint8Array;
}

export interface SummaryData {
  /** application_date as days since 1970-01-01. */
  applicationDays: Int32Array;
  /** expire_at as days since 1970-01-01, or NO_DATE. */
  expireDays: Int32Array;
  /** Index into `alerts` (0 is the empty alert). */
  alertCodes: Uint8Array | Uint16Array | Uint32Array;
  alerts: TextHeap;
  /** Owner (proprietor_name) of mark i: an index into `owners`, the distinct names. */
  ownerOf: Uint32Array;
  owners: TextHeap;
  /** Marks (ids ascending) whose word mark is not their normalised words, and that word mark. */
  displayIds: Uint32Array;
  displays: TextHeap;
  /** Marks (ids ascending) whose slug is not slugOf(word mark, application number), and that slug. */
  slugIds: Uint32Array;
  slugs: TextHeap;
}

export const NO_DATE = -0x80000000;

/** The summary fields of a mark as the index streams them from PostgreSQL (absent ones take their defaults). */
export interface SummaryFields {
  proprietor?: string;
  applicationDays?: number;
  expireDays?: number | null;
  alert?: string;
  /** Absent in marks built by hand (tests): slugOf(word mark, application number). */
  slug?: string;
}

const encoder = new TextEncoder();

class Bytes {
  a = new Uint8Array(1 << 16);
  n = 0;
  append(s: string): void {
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit.
    if (this.n + 3 * s.length > this.a.length) {
      const b = new Uint8Array(Math.max(this.a.length * 2, this.n + 3 * s.length));
      b.set(this.a.subarray(0, this.n));
      this.a = b;
    }
    // ASCII, nearly every name, is copied as it is; the rest is encoded.
    const a = this.a;
    let n = this.n;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 128) {
        this.n += encoder.encodeInto(s, a.subarray(this.n)).written;
        return;
      }
      a[n++] = c;
    }
    this.n = n;
  }
}

class HeapBuilder {
  private readonly text = new Bytes();
  private ends: Uint32Array = new Uint32Array(1024);
  size = 0;
  add(s: string): void {
    this.text.append(s);
    if (this.size === this.ends.length) {
      const b = new Uint32Array(this.size * 2);
      b.set(this.ends);
      this.ends = b;
    }
    this.ends[this.size++] = this.text.n;
  }
  finish(): TextHeap {
    const offsets = new Uint32Array(this.size + 1);
    offsets.set(this.ends.subarray(0, this.size), 1);
    return { offsets, bytes: this.text.a.slice(0, this.text.n) };
  }
}

function heapOf(list: string[]): TextHeap {
  const b = new HeapBuilder();
  for (const s of list) b.add(s);
  return b.finish();
}

/** A dictionary's codes in the narrowest array that holds them. */
function narrow(codes: Uint32Array, distinct: number): Uint8Array | Uint16Array | Uint32Array {
  if (distinct <= 0x100) return Uint8Array.from(codes);
  if (distinct <= 0x10000) return Uint16Array.from(codes);
  return codes;
}

/**
 * Whether `slug` is what slugOf(`plain`, application number) gives, for a word mark that is already
 * normalised ASCII (upper-case letters and digits, single spaces): checked character by character,
 * since building the expected slug for every mark of the register would cost seconds of the build.
 */
function isDerivedSlug(slug: string, plain: string, appNo: number): boolean {
  let len = plain.length;
  if (len > 60) len = plain.charCodeAt(59) === 32 ? 59 : 60;
  if (slug.length < len + 2 || slug.charCodeAt(len) !== 45) return false;
  for (let i = 0; i < len; i++) {
    const c = plain.charCodeAt(i);
    if (slug.charCodeAt(i) !== (c === 32 ? 45 : c >= 65 && c <= 90 ? c + 32 : c)) return false;
  }
  if (slug.charCodeAt(len + 1) === 48 && slug.length > len + 2) return false;
  let v = 0;
  for (let i = len + 1; i < slug.length; i++) {
    const d = slug.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    v = v * 10 + d;
  }
  return v === appNo;
}

/** Collects the summary fields of marks in the order they come; finish() puts them in mark order. */
export class SummaryBuilder {
  private readonly ownerIds = new Map<string, number>();
  /** The distinct proprietor names, in the order they came: owner ids. */
  readonly ownerNames: string[] = [];
  private ownerOf = new Uint32Array(1024);
  private appDays = new Int32Array(1024);
  private expDays = new Int32Array(1024);
  private alertCodes = new Uint32Array(1024);
  private readonly alertIds = new Map<string, number>([['', 0]]);
  private readonly alerts: string[] = [''];
  private readonly displays = new Map<number, string>();
  private readonly slugs = new Map<number, string>();

  /** Mark `i` (its position in arrival order): `normalised` is its searchable form, never empty. */
  add(i: number, appNo: number, wordMark: string, normalised: string, f: SummaryFields): void {
    if (i === this.appDays.length) {
      const grow = <T extends Int32Array | Uint32Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a as never);
        return b;
      };
      this.appDays = grow(this.appDays, (n) => new Int32Array(n));
      this.expDays = grow(this.expDays, (n) => new Int32Array(n));
      this.alertCodes = grow(this.alertCodes, (n) => new Uint32Array(n));
      this.ownerOf = grow(this.ownerOf, (n) => new Uint32Array(n));
    }
    const owner = f.proprietor ?? '';
    let o = this.ownerIds.get(owner);
    if (o === undefined) {
      o = this.ownerNames.length;
      this.ownerIds.set(owner, o);
      this.ownerNames.push(owner);
    }
    this.ownerOf[i] = o;
    this.appDays[i] = f.applicationDays ?? 0;
    this.expDays[i] = f.expireDays ?? NO_DATE;
    const alert = f.alert ?? '';
    let code = alert === '' ? 0 : this.alertIds.get(alert);
    if (code === undefined) {
      code = this.alerts.length;
      this.alertIds.set(alert, code);
      this.alerts.push(alert);
    }
    this.alertCodes[i] = code;
    const plain = wordMark === normalised;
    if (!plain) this.displays.set(i, wordMark);
    if (f.slug !== undefined && !(plain ? isDerivedSlug(f.slug, normalised, appNo) : f.slug === slugOf(wordMark, String(appNo)))) {
      this.slugs.set(i, f.slug);
    }
  }

  /** The summaries in mark order: `order[id]` is the arrival position of mark `id`. */
  finish(order: Uint32Array): SummaryData {
    const n = order.length;
    const appDays = new Int32Array(n);
    const expDays = new Int32Array(n);
    const codes = new Uint32Array(n);
    const ownerOf = new Uint32Array(n);
    for (let id = 0; id < n; id++) {
      const i = order[id];
      appDays[id] = this.appDays[i];
      expDays[id] = this.expDays[i];
      codes[id] = this.alertCodes[i];
      ownerOf[id] = this.ownerOf[i];
    }
    const sparse = (m: Map<number, string>) => {
      const ids: number[] = [];
      const texts: string[] = [];
      if (m.size) {
        for (let id = 0; id < n; id++) {
          const t = m.get(order[id]);
          if (t !== undefined) {
            ids.push(id);
            texts.push(t);
          }
        }
      }
      return { ids: Uint32Array.from(ids), heap: heapOf(texts) };
    };
    const display = sparse(this.displays);
    const slug = sparse(this.slugs);
    return {
      applicationDays: appDays,
      expireDays: expDays,
      alertCodes: narrow(codes, this.alerts.length),
      alerts: heapOf(this.alerts),
      ownerOf,
      owners: heapOf(this.ownerNames),
      displayIds: display.ids,
      displays: display.heap,
      slugIds: slug.ids,
      slugs: slug.heap,
    };
  }
}

/** Days since 1970-01-01 as [year, month, day] (the proleptic Gregorian calendar, as PostgreSQL counts). */
function civil(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [era * 400 + yoe + (m <= 2 ? 1 : 0), m, d];
}

const two = (x: number) => (x < 10 ? `0${x}` : String(x));
const four = (y: number) => String(y).padStart(4, '0');

// A register's filing days are some tens of thousands of distinct days, and a clearance reads a thousand marks'
// (src/threats/candidates.ts): each day is spelled once, not once per mark (a tenth of what reading a mark cost).
const ISO_DAYS_KEPT = 100_000;
const isoDays = new Map<number, string>();

export function isoDay(days: number): string {
  let iso = isoDays.get(days);
  if (iso === undefined) {
    const [y, m, d] = civil(days);
    iso = `${four(y)}-${two(m)}-${two(d)}`;
    if (isoDays.size < ISO_DAYS_KEPT) isoDays.set(days, iso);
  }
  return iso;
}

export function dmyDay(days: number): string {
  const [y, m, d] = civil(days);
  return `${two(d)}/${two(m)}/${four(y)}`;
}

/** A summary's fields that the threats analysis reads (src/threats/analysis.ts CandidateRow); a candidate's slug is never read. */
export type BriefRow = Pick<
  SummaryRow,
  'application_number' | 'word_mark' | 'class_number' | 'status' | 'application_date' | 'proprietor_name'
>;

/** Reads summaries out of an index's columns. */
export class Summaries {
  private readonly owners: Buffer;
  private readonly displays: Buffer;
  private readonly slugTexts: Buffer;
  private readonly alerts: string[];

  constructor(
    private readonly s: SummaryData,
    private readonly appNo: Float64Array,
    private readonly info: Uint32Array,
    private readonly dict: { status: string[]; tm_type: string[]; filing_mode: string[]; state: string[] },
    private readonly text: (id: number) => string,
  ) {
    const buf = (h: TextHeap) => Buffer.from(h.bytes.buffer, h.bytes.byteOffset, h.bytes.byteLength);
    this.owners = buf(s.owners);
    this.displays = buf(s.displays);
    this.slugTexts = buf(s.slugs);
    const alerts = buf(s.alerts);
    this.alerts = Array.from({ length: s.alerts.offsets.length - 1 }, (_, i) =>
      alerts.toString('utf8', s.alerts.offsets[i], s.alerts.offsets[i + 1]),
    );
  }

  /** What the threats analysis reads of mark `id`: the fields of row() it compares and answers with, no others. */
  brief(id: number): BriefRow {
    const x = this.info[id];
    return {
      application_number: String(this.appNo[id]),
      word_mark: this.wordMark(id),
      class_number: x & 63,
      status: this.dict.status[(x >>> 6) & 255],
      application_date: isoDay(this.s.applicationDays[id]),
      proprietor_name: this.proprietor(id),
    };
  }

  /** The mark as displayed: its own text where it differs from its normalised words, else those words. */
  private wordMark(id: number): string {
    return sparseText(this.s.displayIds, this.s.displays.offsets, this.displays, id) ?? this.text(id);
  }

  private proprietor(id: number): string {
    const { offsets } = this.s.owners;
    const owner = this.s.ownerOf[id];
    return this.owners.toString('utf8', offsets[owner], offsets[owner + 1]);
  }

  /** The summary of mark `id`, shaped and formatted as TrademarkRepository.summaries() reads it from PostgreSQL. */
  row(id: number): SummaryRow {
    const s = this.s;
    const x = this.info[id];
    const appNo = String(this.appNo[id]);
    const wordMark = this.wordMark(id);
    const exp = s.expireDays[id];
    return {
      application_number: appNo,
      word_mark: wordMark,
      class_number: x & 63,
      status: this.dict.status[(x >>> 6) & 255],
      application_date: isoDay(s.applicationDays[id]),
      expire_at: exp === NO_DATE ? null : dmyDay(exp),
      proprietor_name: this.proprietor(id),
      // Entities live in PostgreSQL (src/owners/): the search service adds them to the page it answers.
      owner_id: null,
      state: x >>> 24 ? this.dict.state[x >>> 24] : null,
      tm_type: this.dict.tm_type[(x >>> 14) & 15],
      filing_mode: (x >>> 18) & 63 ? this.dict.filing_mode[(x >>> 18) & 63] : null,
      alert: this.alerts[s.alertCodes[id]],
      slug: sparseText(s.slugIds, s.slugs.offsets, this.slugTexts, id) ?? slugOf(wordMark, appNo),
    };
  }
}

function sparseText(ids: Uint32Array, offsets: Uint32Array, bytes: Buffer, id: number): string | undefined {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < ids.length && ids[lo] === id ? bytes.toString('utf8', offsets[lo], offsets[lo + 1]) : undefined;
}
