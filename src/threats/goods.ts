// Goods and services compared by their words (issue 41, item 4): two marks in classes the class table calls
// unrelated may still cover the same goods (rice unprocessed in class 31, rice in 30; retail of rice in 35), which an
// examiner weighs as related goods. Words, not items: the register's goods texts are the applicants' own.

/** Words of goods texts that name no goods. */
const NOT_GOODS = new Set(
  `and the for with from other than being made based goods services products preparations purposes included class
  classes namely including such all kinds parts accessories thereof related same items materials articles use`.split(/\s+/),
);

/** A goods text's words that name goods: four letters or more, lower case, a plural S or ES dropped. */
export function goodsWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().split(/[^a-z]+/)) {
    if (w.length < 4 || NOT_GOODS.has(w)) continue;
    out.add(w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.endsWith('ses') || w.endsWith('xes') ? w.slice(0, -2) : w.replace(/s$/, ''));
  }
  return out;
}

/** The words of `ours` that `theirs` holds too, in `ours`'s order, at most `max`. */
export function sharedGoods(ours: ReadonlySet<string>, theirs: ReadonlySet<string>, max = 3): string[] {
  return [...ours].filter((w) => theirs.has(w)).slice(0, max);
}
