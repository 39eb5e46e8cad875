import type { Vocabulary } from './vocabulary.ts';

/**
 * Ways to cut `compact` (a query run together) into two or three words of the register, each of at
 * least two characters, other than `own` (the query's own words): SUNRISEFOODS → SUNRISE FOODS.
 */
export function splits(v: Vocabulary, compact: string, own: string[]): number[][] {
  const out: number[][] = [];
  const ownKey = own.join(' ');
  const n = compact.length;
  for (let i = 2; i <= n - 2; i++) {
    const head = compact.slice(0, i);
    const a = v.id(head);
    if (a < 0) continue;
    const rest = compact.slice(i);
    const b = v.id(rest);
    if (b >= 0 && `${head} ${rest}` !== ownKey) out.push([a, b]);
    for (let j = i + 2; j <= n - 2; j++) {
      const mid = compact.slice(i, j);
      const b2 = v.id(mid);
      if (b2 < 0) continue;
      const tail = compact.slice(j);
      const c = v.id(tail);
      if (c >= 0 && `${head} ${mid} ${tail}` !== ownKey) out.push([a, b2, c]);
    }
  }
  return out;
}
