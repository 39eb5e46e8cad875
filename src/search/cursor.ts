import { createHash } from 'node:crypto';
import { invalidParameter } from '../errors.ts';
import type { After, IndexHit, SortAfter } from './types.ts';

// The opaque `cursor` of deep paging: where the last page ended in the result order, and a
// fingerprint of the search it belongs to (query, mode, filters, sort), so a cursor cannot be replayed
// against another search. By relevance the place is (strategy, distance, length, application number);
// under a sort it is the sorted field's value and the application number.

export function fingerprint(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

/** The cursor of the page ending with hit `h` (`sorted`: under a sort, so h carries its value). */
export function encodeCursor(fp: string, h: IndexHit, sorted: boolean): string {
  const v = sorted ? [2, fp, h.value ?? null, h.appNo] : [1, fp, h.strategy, h.dist, h.len, h.appNo];
  return Buffer.from(JSON.stringify(v)).toString('base64url');
}

const invalid = (why: string) => invalidParameter('query', 'cursor', why);
const natural = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;

/** Where the page starts, by relevance or under the search's sort. */
export interface Cursor {
  relevance: After | null;
  sorted: SortAfter | null;
}

export function decodeCursor(cursor: string, fp: string): Cursor {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor is not one this API handed out');
  }
  const relevance = Array.isArray(v) && v.length === 6 && v[0] === 1 && typeof v[1] === 'string' && v.slice(2).every(natural);
  const sorted =
    Array.isArray(v) &&
    v.length === 4 &&
    v[0] === 2 &&
    typeof v[1] === 'string' &&
    (v[2] === null || typeof v[2] === 'string' || Number.isSafeInteger(v[2])) &&
    natural(v[3]);
  if (!relevance && !sorted) throw invalid('cursor is not one this API handed out');
  const list = v as unknown[];
  if (list[1] !== fp) {
    throw invalid('cursor belongs to another search: repeat the same word_mark, match_type, filters and sort');
  }
  if (sorted) return { relevance: null, sorted: { value: list[2] as number | string | null, appNo: list[3] as number } };
  const [, , strategy, dist, len, appNo] = list as number[];
  return { relevance: { strategy, dist, len, appNo }, sorted: null };
}
