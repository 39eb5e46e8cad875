import type { ReferenceRepository } from '../reference/repository.ts';

// A proposal's goods and services, in the applicant's words, placed in the Nice classes their items belong to
// (docs/clearance.md, *Goods and services*): a clearance given goods but no classes screens the classes they fall
// in, and says which item of which class each phrase was placed by.

/** At most this many classes are suggested and screened (each costs a clearances credit). */
export const MAX_SUGGESTED = 6;
/** Items read per phrase: their ranks are summed by class, so that a class holding many items like it wins a tie. */
const PER_PHRASE = 8;

export interface GoodsClass {
  class_number: number;
  /** The phrases of the text placed in it, and the Nice item that placed each. */
  matched: { phrase: string; item: string }[];
}

/** The text's phrases: what commas, semicolons, new lines and "and" separate, of three letters or more. */
export function phrasesOf(text: string): string[] {
  const out = text
    .split(/[,;\n]|\band\b|&/i)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => /[a-z].*[a-z].*[a-z]/i.test(p));
  return [...new Set(out)].slice(0, 40);
}

/** The classes a goods text falls in, most phrases first (then the lower class), at most MAX_SUGGESTED. */
export async function classesOfGoods(reference: ReferenceRepository, text: string): Promise<GoodsClass[]> {
  const phrases = phrasesOf(text);
  const rows = await reference.itemsLike(phrases, PER_PHRASE);
  const byClass = new Map<number, GoodsClass>();
  for (let n = 1; n <= phrases.length; n++) {
    const items = rows.filter((r) => r.n === n);
    if (!items.length) continue;
    const votes = new Map<number, number>();
    for (const r of items) votes.set(r.class_number, (votes.get(r.class_number) ?? 0) + r.rank);
    const [cls] = [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
    const item = items.find((r) => r.class_number === cls)!.item;
    const g = byClass.get(cls) ?? { class_number: cls, matched: [] };
    g.matched.push({ phrase: phrases[n - 1], item: item.replace(/\*$/, '') });
    byClass.set(cls, g);
  }
  return [...byClass.values()]
    .sort((a, b) => b.matched.length - a.matched.length || a.class_number - b.class_number)
    .slice(0, MAX_SUGGESTED);
}

/** Where the marks' goods and services are read (TrademarkRepository). */
export interface GoodsReader {
  goodsOf(appNos: string[], chars?: number): Promise<Map<string, string>>;
}

/**
 * What each of these marks covers, as a list shows it (an excerpt, or null where the register has nothing): read
 * for the listed marks only, in one round trip.
 */
export async function coverOf(marks: GoodsReader, appNos: string[]): Promise<(appNo: string) => string | null> {
  const goods = await marks.goodsOf([...new Set(appNos)], EXCERPT_FROM);
  return (a) => excerpt(goods.get(a) ?? null);
}

/** The characters of a mark's goods an excerpt is cut from: more than it keeps, so that a cut there still ends with "…". */
export const EXCERPT_FROM = 400;

/** A goods text cut for a list: whole when short, else up to a separator near `max` characters, with an ellipsis. */
export function excerpt(text: string | null, max = 160): string | null {
  if (text === null) return null;
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const at = Math.max(cut.lastIndexOf(';'), cut.lastIndexOf(','));
  return `${(at > max / 2 ? cut.slice(0, at) : cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : max)).trim()} …`;
}
