// Reading JSON Lines and checking each line against its entity. Checks are hand-written (not zod):
// a full registry is tens of millions of lines, and every reason must name the field it is about.
// A valid line becomes one row of PostgreSQL's COPY text format, so staging is a plain COPY.
import { isUtf8 } from 'node:buffer';
import fsp from 'node:fs/promises';
import { viennaTable } from '../../reference/vienna.ts';
import { slugOf } from '../../trademarks/slug.ts';
import { type Entity, type Field, ITEMS_MAX, TEXT_MAX } from './entities.ts';

/**
 * One batch of lines from a file; `first` is the 1-based number of `lines[0]`. A line refused already
 * (`refused`: its index → the reason) is '' in `lines`.
 */
export interface LineBatch {
  lines: string[];
  first: number;
  refused?: Map<number, string>;
}

/**
 * The longest line read, in bytes. The longest record the limits allow (docs/ingest.md#limits) is well
 * under it even with every character escaped; a longer line is refused without being held in memory.
 */
export const MAX_LINE_BYTES = 1 << 20;
const TOO_LONG = `line longer than ${MAX_LINE_BYTES} bytes`;
const NOT_UTF8 = 'not valid UTF-8';
// Reads of this size hold at least one whole line unless that line is too long.
const CHUNK = 4 << 20;

/**
 * Lines of a file in batches (one per chunk read), split on `\n`; a trailing `\r` is left for
 * JSON.parse, which treats it as whitespace. A line that is not valid UTF-8 or is longer than
 * MAX_LINE_BYTES is refused here: decoding would have stored U+FFFD in place of its bad bytes.
 */
export async function* readLines(path: string): AsyncGenerator<LineBatch> {
  const fh = await fsp.open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let kept = 0; // bytes of an unfinished line carried over from the previous read
    let lineNo = 1;
    let skipping = false; // inside a line too long to keep: its bytes are dropped up to its newline
    for (;;) {
      const { bytesRead } = await fh.read(buf, kept, buf.length - kept, null);
      const end = kept + bytesRead;
      if (bytesRead === 0) {
        if (skipping) yield refusedLine(lineNo, TOO_LONG);
        else if (kept > 0) yield decode(buf, 0, kept, lineNo);
        return;
      }
      let start = 0;
      if (skipping) {
        const nl = buf.subarray(0, end).indexOf(10);
        if (nl < 0) {
          kept = 0;
          continue;
        }
        yield refusedLine(lineNo++, TOO_LONG);
        skipping = false;
        start = nl + 1;
      }
      const lastNl = buf.lastIndexOf(10, end - 1);
      if (lastNl >= start) {
        const batch = decode(buf, start, lastNl, lineNo);
        yield batch;
        lineNo += batch.lines.length;
        start = lastNl + 1;
      }
      // The unfinished line: kept for the next read, or dropped once it is too long to be a record.
      if (end - start > MAX_LINE_BYTES) {
        skipping = true;
        kept = 0;
      } else {
        buf.copy(buf, 0, start, end);
        kept = end - start;
      }
    }
  } finally {
    await fh.close();
  }
}

function refusedLine(lineNo: number, reason: string): LineBatch {
  return { lines: [''], first: lineNo, refused: new Map([[0, reason]]) };
}

/** The whole lines in buf[from, to) (newline-separated), numbered from `first`. */
function decode(buf: Buffer, from: number, to: number, first: number): LineBatch {
  const bytes = buf.subarray(from, to);
  // Nearly always the whole block is valid UTF-8 and no line is near the limit: one decode and split.
  // Otherwise each line's own bytes are judged (a newline byte is never part of a multi-byte character).
  const valid = isUtf8(bytes);
  const lines = bytes.toString('utf8').split('\n');
  let refused: Map<number, string> | undefined;
  const refuse = (i: number, reason: string) => {
    (refused ??= new Map()).set(i, reason);
    lines[i] = '';
  };
  if (!valid) {
    for (let i = 0, at = 0; i < lines.length; i++) {
      const nl = bytes.indexOf(10, at);
      const stop = nl < 0 ? bytes.length : nl;
      if (!isUtf8(bytes.subarray(at, stop))) refuse(i, NOT_UTF8);
      at = stop + 1;
    }
  }
  // A UTF-8 line has at least as many bytes as UTF-16 units and at most three times as many.
  for (let i = 0; i < lines.length; i++) {
    const n = lines[i].length;
    if (n > MAX_LINE_BYTES / 3 && (n > MAX_LINE_BYTES || Buffer.byteLength(lines[i]) > MAX_LINE_BYTES)) refuse(i, TOO_LONG);
  }
  // A byte order mark (some editors add one) is not part of the first record.
  if (first === 1 && lines[0].charCodeAt(0) === 0xfeff) lines[0] = lines[0].slice(1);
  return refused ? { lines, first, refused } : { lines, first };
}

/** A line turned into COPY text (without the line number, computed columns and newline), or why it was refused. */
export type Checked = { row: string; key: string | number; file?: string } | { reason: string };

const TM_TYPES = new Set(['WORD', 'DEVICE', 'COMPOSITE', '3D', 'SOUND', 'COLOUR']);
const OFFICES = new Set(['MUM', 'DEL', 'KOL', 'CHE', 'AHD']);
const PROPOSED = 'Proposed to be Used';
const MAX_INT32 = 2_147_483_647;
// The API serves a mark at /v1/trademarks/{app_no}/ with app_no at most 12 digits (src/schema/params.ts):
// a longer number could be stored but never looked up, so it is refused here.
// An application number is a number: no leading zero, so it has one spelling (the search index keeps it as one).
const DIGITS = /^[1-9][0-9]{0,11}$/;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-](\d{2})(?::?(\d{2}))?)$/;
const NEEDS_ESCAPE = /[\\\n\r\t]/;
const ESCAPES = /[\\\n\r\t]/g;
const ESCAPED: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A value in COPY text format (NULL is `\N`). */
export function copyText(s: string): string {
  return NEEDS_ESCAPE.test(s) ? s.replace(ESCAPES, (c) => ESCAPED[c]) : s;
}

const DAYS = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `YYYY-MM-DD` naming a real day (year 1 onwards), so PostgreSQL never refuses it mid-COPY. */
export function isDate(s: string): boolean {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  let y = 0;
  for (let i = 0; i < 4; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return false;
    y = y * 10 + c;
  }
  const m1 = s.charCodeAt(5) - 48,
    m2 = s.charCodeAt(6) - 48,
    d1 = s.charCodeAt(8) - 48,
    d2 = s.charCodeAt(9) - 48;
  if (m1 < 0 || m1 > 9 || m2 < 0 || m2 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return false;
  const m = m1 * 10 + m2,
    d = d1 * 10 + d2;
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > DAYS[m]) return false;
  return !(m === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)));
}

/** ISO 8601 timestamp with a zone (`Z` or an offset). */
export function isTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m || !isDate(m[1])) return false;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || (m[4] !== undefined && Number(m[4]) > 59)) return false;
  return m[5] === undefined || (Number(m[5]) <= 15 && (m[6] === undefined || Number(m[6]) <= 59));
}

function arrayLiteral(items: string[]): string {
  let out = '{';
  for (let i = 0; i < items.length; i++) {
    if (i) out += ',';
    out += `"${items[i].replace(/["\\]/g, '\\$&')}"`;
  }
  return copyText(`${out}}`);
}

function describe(f: Field): string {
  switch (f.kind) {
    case 'id':
      return `${f.name} must be a non-negative integer`;
    case 'int32':
      return `${f.name} must be a non-negative integer below 2^31`;
    case 'class':
      return `${f.name} must be an integer 1-45`;
    case 'classes':
      return `${f.name} must be an array of integers 1-45 whose lowest is class_number`;
    case 'digits':
      return `${f.name} must be 1-12 digits without a leading zero`;
    case 'date':
      return `${f.name} must be a date (YYYY-MM-DD)`;
    case 'timestamp':
      return `${f.name} must be an ISO 8601 timestamp with a zone`;
    case 'textArray':
    case 'viennaCodes':
      return `${f.name} must be an array of strings`;
    case 'tmType':
      return `${f.name} must be one of ${[...TM_TYPES].join(', ')}`;
    case 'office':
      return `${f.name} must be one of ${[...OFFICES].join(', ')}`;
    case 'usedSince':
      return `${f.name} must be "${PROPOSED}" or a date (YYYY-MM-DD)`;
    case 'file':
      return `${f.name} must be a path inside the set`;
    default:
      return `${f.name} must be a string`;
  }
}

/** One field's value in COPY text, or undefined when the value has the wrong type or form. */
function convert(f: Field, v: unknown, obj: Record<string, unknown>): string | undefined {
  switch (f.kind) {
    case 'text':
      return typeof v === 'string' ? copyText(v) : undefined;
    case 'id':
      return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : undefined;
    case 'int32':
      return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_INT32 ? String(v) : undefined;
    case 'class':
      return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 45 ? String(v) : undefined;
    case 'classes': {
      if (!Array.isArray(v) || !v.every((c) => typeof c === 'number' && Number.isInteger(c) && c >= 1 && c <= 45)) return undefined;
      const classes = [...new Set(v as number[])].sort((a, b) => a - b);
      // class_number is the lowest: the class the search index files a multi-class application under.
      if (classes[0] !== obj.class_number) return undefined;
      return classes.length > 1 ? `{${classes.join(',')}}` : '\\N';
    }
    case 'digits':
      return typeof v === 'string' && DIGITS.test(v) ? v : undefined;
    case 'date':
      return typeof v === 'string' && isDate(v) ? v : undefined;
    case 'timestamp':
      return typeof v === 'string' && isTimestamp(v) ? v : undefined;
    case 'upper':
      return typeof v === 'string' ? copyText(v.toUpperCase()) : undefined;
    case 'tmType':
      return typeof v === 'string' && TM_TYPES.has(v) ? v : undefined;
    case 'office':
      return typeof v === 'string' && OFFICES.has(v) ? v : undefined;
    case 'usedSince':
      if (typeof v !== 'string') return undefined;
      if (isDate(v)) return v;
      return v.toLowerCase() === PROPOSED.toLowerCase() ? PROPOSED : undefined;
    case 'textArray':
    case 'viennaCodes':
      if (!Array.isArray(v)) return undefined;
      for (const item of v) if (typeof item !== 'string') return undefined;
      return arrayLiteral(v as string[]);
    case 'slug':
      if (typeof v === 'string' && v !== '') return copyText(v);
      return typeof v === 'string' || v === undefined || v === null
        ? copyText(slugOf(typeof obj.word_mark === 'string' ? obj.word_mark : '', obj.application_number as string))
        : undefined;
    case 'file':
      return typeof v === 'string' && isSetPath(v) ? v : undefined;
  }
}

/** A relative path that stays inside the set directory. */
export function isSetPath(p: string): boolean {
  if (p === '' || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((seg) => seg !== '' && seg !== '..' && seg !== '.');
}

function hasNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\0');
  if (typeof v === 'object' && v !== null) return Object.values(v).some(hasNul);
  return false;
}

// A JSON escape of a surrogate (\ud800-\udfff); only lines holding one can hold an unpaired one.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a value holds half a surrogate pair: no character, and UTF-8 (PostgreSQL's text) cannot carry it. */
function hasLoneSurrogate(v: unknown): boolean {
  if (typeof v === 'string') return LONE_SURROGATE.test(v);
  if (typeof v === 'object' && v !== null) return Object.values(v).some(hasLoneSurrogate);
  return false;
}

/** Whether s has more than max characters (code points; s has no unpaired surrogate). */
function longer(s: string, max: number): boolean {
  if (s.length <= max) return false;
  if (s.length > 2 * max) return true;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n > max;
}

const LIMITED = new Set<Field['kind']>(['text', 'upper', 'slug', 'file', 'textArray', 'viennaCodes']);

/** Why a value that has the right type is too long (docs/ingest.md#limits), or undefined. */
function overLimit(f: Field, v: unknown): string | undefined {
  const max = f.max ?? TEXT_MAX;
  if (typeof v === 'string') return longer(v, max) ? `${f.name} must be at most ${max} characters` : undefined;
  if (!Array.isArray(v)) return undefined;
  const items = f.items ?? ITEMS_MAX;
  if (v.length > items) return `${f.name} must have at most ${items} items`;
  return v.some((x) => longer(x as string, max)) ? `${f.name} items must be at most ${max} characters` : undefined;
}

/**
 * Vienna codes as the table prints them (3.1.1 and 030101 are 03.01.01), each once, in the order given,
 * so a set that writes them another way imports the same codes every time; or why the line is refused.
 */
function viennaCodes(f: Field, given: string[]): string[] | string {
  const table = viennaTable();
  const out = new Set<string>();
  for (const g of given) {
    const code = table.known(g);
    if (code === null) return `${f.name} has an unknown Vienna code "${g}" (codes are category.division.section, e.g. 03.01.01)`;
    out.add(code);
  }
  return [...out];
}

/** Checks one line of `entity`'s file. */
export function checkLine(entity: Entity, text: string): Checked {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    return { reason: 'not valid JSON' };
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return { reason: 'not a JSON object' };
  const rec = obj as Record<string, unknown>;
  // PostgreSQL text cannot hold NUL; JSON can only carry it escaped, so only such lines are searched.
  if (text.includes('\\u0000') && entity.fields.some((f) => hasNul(rec[f.name]))) {
    return { reason: 'contains a NUL character (\\u0000)' };
  }
  // JSON can spell half a character (\ud800 unpaired); it would be stored as U+FFFD, so the line is refused.
  if (SURROGATE_ESCAPE.test(text)) {
    const bad = entity.fields.find((f) => hasLoneSurrogate(rec[f.name]));
    if (bad) return { reason: `${bad.name} contains an unpaired surrogate (\\ud800-\\udfff)` };
  }
  let row = '';
  let started = false;
  let file: string | undefined;
  for (const f of entity.fields) {
    const v = rec[f.name];
    let out: string | undefined;
    if ((v === undefined || v === null) && f.kind !== 'slug') {
      if (f.required) return { reason: `${f.name} is required` };
      if (f.kind === 'file') continue;
      out = f.fallback === undefined ? '\\N' : f.fallback;
    } else {
      out = convert(f, v, rec);
      if (out === undefined) return { reason: describe(f) };
      const over = LIMITED.has(f.kind) ? overLimit(f, v) : undefined;
      if (over) return { reason: over };
      if (f.kind === 'viennaCodes') {
        const codes = viennaCodes(f, v as string[]);
        if (typeof codes === 'string') return { reason: codes };
        out = arrayLiteral(codes);
      }
      if (f.kind === 'file') {
        file = out;
        continue;
      }
    }
    row = started ? `${row}\t${out}` : out;
    started = true;
  }
  const key = entity.key === 'id' ? (rec.id as number) : (rec.application_number as string);
  return { row, key, file };
}

/**
 * Whether keys arrive strictly ascending; while they do, a file cannot hold the same key twice
 * and the importer skips looking for duplicates.
 */
export class AscendingKeys {
  ascending = true;
  private last: string | number | undefined;

  see(key: string | number): void {
    if (!this.ascending) return;
    const last = this.last;
    if (last !== undefined) {
      const before =
        typeof key === 'number'
          ? (last as number) < key
          : (last as string).length < key.length || ((last as string).length === key.length && (last as string) < key);
      if (!before) this.ascending = false;
    }
    this.last = key;
  }
}
