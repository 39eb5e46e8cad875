import { createHash } from 'node:crypto';
import { invalidParameter } from '../errors.ts';
import type { After } from './types.ts';

// The opaque `cursor` of deep paging: where the last page ended in the result order, and a
// fingerprint of the search it belongs to, so a cursor cannot be replayed against another search.

export function fingerprint(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function encodeCursor(fp: string, a: After): string {
  return Buffer.from(JSON.stringify([1, fp, a.strategy, a.dist, a.len, a.appNo])).toString('base64url');
}

const invalid = (why: string) => invalidParameter('query', 'cursor', why);

export function decodeCursor(cursor: string, fp: string): After {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor is not one this API handed out');
  }
  const ok =
    Array.isArray(v) &&
    v.length === 6 &&
    v[0] === 1 &&
    typeof v[1] === 'string' &&
    v.slice(2).every((x) => Number.isSafeInteger(x) && x >= 0);
  if (!ok) throw invalid('cursor is not one this API handed out');
  const [, f, strategy, dist, len, appNo] = v as [number, string, number, number, number, number];
  if (f !== fp) throw invalid('cursor belongs to another search: repeat the same word_mark, match_type, classes and status');
  return { strategy, dist, len, appNo };
}
