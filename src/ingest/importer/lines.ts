// Reading JSON Lines and checking each line against its entity. Checks are hand-written (not zod):
// a full registry is tens of millions of lines, and every reason must name the field it is about.
// A valid line becomes one row of PostgreSQL's COPY text format, so staging is a plain COPY.
import fsp from 'node:fs/promises';
import type { Entity, Field } from './entities.ts';
import { slugOf } from '../../trademarks/slug.ts';

/** One batch of lines from a file; `first` is the 1-based number of `lines[0]`. */
export interface LineBatch {
  lines: string[];
  first: number;
}

const CHUNK = 4 << 20;

/**
 * Lines of a file in batches (one per chunk read), split on `\n`; a trailing `\r` is left for
 * JSON.parse, which treats it as whitespace.
 */
export async function* readLines(path: string): AsyncGenerator<LineBatch> {
  const fh = await fsp.open(path, 'r');
  try {
    let buf = Buffer.allocUnsafe(CHUNK);
    let kept = 0; // bytes of an unfinished line carried over from the previous read
    let lineNo = 1;
    for (;;) {
      if (kept === buf.length) {
        // A line longer than the buffer: grow rather than split it.
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, kept);
        buf = bigger;
      }
      const { bytesRead } = await fh.read(buf, kept, buf.length - kept, null);
      const end = kept + bytesRead;
      if (bytesRead === 0) {
        if (kept > 0) yield { lines: [buf.toString('utf8', lineNo === 1 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0, kept)], first: lineNo };
        return;
      }
      // Decode only whole lines, so a multi-byte character is never cut in two.
      const lastNl = buf.lastIndexOf(10, end - 1);
      if (lastNl < 0) {
        kept = end;
        continue;
      }
      const lines = buf.toString('utf8', 0, lastNl).split('\n');
      // A byte order mark (some editors add one) is not part of the first record.
      if (lineNo === 1 && lines[0].charCodeAt(0) === 0xfeff) lines[0] = lines[0].slice(1);
      yield { lines, first: lineNo };
      lineNo += lines.length;
      kept = end - lastNl - 1;
      buf.copy(buf, 0, lastNl + 1, end);
    }
  } finally {
    await fh.close();
  }
}

/** A line turned into COPY text (without the line number, computed columns and newline), or why it was refused. */
export type Checked = { row: string; key: string | number; file?: string } | { reason: string };

const TM_TYPES = new Set(['WORD', 'DEVICE', 'COMPOSITE', '3D', 'SOUND', 'COLOUR']);
const OFFICES = new Set(['MUM', 'DEL', 'KOL', 'CHE', 'AHD']);
const PROPOSED = 'Proposed to be Used';
const MAX_INT32 = 2_147_483_647;
// The API serves a mark at /v1/trademarks/{app_no}/ with app_no at most 12 digits (http/schemas.ts):
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
  const m1 = s.charCodeAt(5) - 48, m2 = s.charCodeAt(6) - 48, d1 = s.charCodeAt(8) - 48, d2 = s.charCodeAt(9) - 48;
  if (m1 < 0 || m1 > 9 || m2 < 0 || m2 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return false;
  const m = m1 * 10 + m2, d = d1 * 10 + d2;
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
    case 'id': return `${f.name} must be a non-negative integer`;
    case 'int32': return `${f.name} must be a non-negative integer below 2^31`;
    case 'class': return `${f.name} must be an integer 1-45`;
    case 'digits': return `${f.name} must be 1-12 digits without a leading zero`;
    case 'date': return `${f.name} must be a date (YYYY-MM-DD)`;
    case 'timestamp': return `${f.name} must be an ISO 8601 timestamp with a zone`;
    case 'textArray': return `${f.name} must be an array of strings`;
    case 'tmType': return `${f.name} must be one of ${[...TM_TYPES].join(', ')}`;
    case 'office': return `${f.name} must be one of ${[...OFFICES].join(', ')}`;
    case 'usedSince': return `${f.name} must be "${PROPOSED}" or a date (YYYY-MM-DD)`;
    case 'file': return `${f.name} must be a path inside the set`;
    default: return `${f.name} must be a string`;
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
        typeof key === 'number' ? (last as number) < key
          : (last as string).length < key.length || ((last as string).length === key.length && (last as string) < key);
      if (!before) this.ascending = false;
    }
    this.last = key;
  }
}
