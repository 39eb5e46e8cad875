import type { Vocabulary } from './vocabulary.ts';

const isDigit = (c: string) => c >= '0' && c <= '9';

/**
 * Ways to cut `compact` (a query run together) into two or three words of the register, each of at
 * least two characters, other than `own` (the query's own words): SUNRISEFOODS → SUNRISE FOODS. A
 * cut between a letter and a digit may leave one character (NO1 → NO 1, 7UP → 7 UP): numbers are
 * written both ways in brand names.
 */
export function splits(v: Vocabulary, compact: string, own: string[]): number[][] {
  const out: number[][] = [];
  const ownKey = own.join(' ');
  const n = compact.length;
  const cut = (at: number, from: number, to: number) =>
    at > from && at < to && ((at - from >= 2 && to - at >= 2) || isDigit(compact[at - 1]) !== isDigit(compact[at]));
  for (let i = 1; i < n; i++) {
    if (!cut(i, 0, n)) continue;
    const head = compact.slice(0, i);
    const a = v.id(head);
    if (a < 0) continue;
    const rest = compact.slice(i);
    const b = v.id(rest);
    if (b >= 0 && `${head} ${rest}` !== ownKey) out.push([a, b]);
    for (let j = i + 1; j < n; j++) {
      if (!cut(j, i, n) || (j - i < 2 && !isDigit(compact[i])) || (n - j < 2 && !isDigit(compact[j]))) continue;
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

const LETTERS = /^[A-Z]{2,3}$/;

/**
 * The query's words with initials written the other way: a word of two or three letters spelled out
 * (SK D GARMENTS → S K D GARMENTS) or a run of single letters run together (S K D GARMENTS → SKD
 * GARMENTS), one such change at a time and all the short words spelled out at once, each as ids of
 * words of the register (none where a word is not one). Initials are written both ways in Indian marks.
 * Only a `rare` short word is spelled out: SK, MJ, GA are held by a few hundred marks of 7.7 million,
 * SRI, SAI, OM by a hundred thousand, and those are words, whose letters cost a pass over the marks of S.
 */
export function initials(v: Vocabulary, words: string[], rare: (word: string) => boolean): number[][] {
  const out: string[][] = [];
  const short = words.map((w, i) => (LETTERS.test(w) && rare(w) ? i : -1)).filter((i) => i >= 0);
  const spelled = (at: number[]) => words.flatMap((w, i) => (at.includes(i) ? [...w] : [w]));
  for (const i of short) out.push(spelled([i]));
  if (short.length > 1) out.push(spelled(short));
  for (let i = 0; i < words.length; ) {
    let j = i;
    while (j < words.length && words[j].length === 1 && !isDigit(words[j])) j++;
    if (j - i >= 2) out.push([...words.slice(0, i), words.slice(i, j).join(''), ...words.slice(j)]);
    i = Math.max(j, i + 1);
  }
  const ids: number[][] = [];
  for (const parts of out) {
    if (parts.length < 2) continue;
    const id = parts.map((p) => v.id(p));
    if (id.every((x) => x >= 0)) ids.push(id);
  }
  return ids;
}
