// Vienna codes suggested for an image (POST /v1/logo-search/vienna-codes/, docs/logos.md): the codes of the registered
// logos nearest to it, as the served model sees them, each voted for by the marks that hold it, a vote weighing the
// mark's similarity raised to POWER, so that a near copy outweighs many loose neighbours. A code's score is its share
// of the votes (0-1). NEIGHBOURS and POWER were chosen on validation marks (bench/logos.ts --part vienna); the test
// marks were measured once, with them fixed.

/** How many of the nearest coded logos vote. */
export const NEIGHBOURS = 10;
/** How sharply nearness counts: a vote weighs similarity^POWER. */
export const POWER = 8;

/** A Vienna section as the register prints it: category.division.section, two digits each. */
const SECTION = /^\d{2}\.\d{2}\.\d{2}$/;

export interface ViennaVote {
  code: string;
  /** The code's share of the votes, 0-1. */
  score: number;
  /** How many of the neighbours hold it. */
  marks: number;
}

/** The sections the neighbours hold, best first (ties by code); marks without codes do not vote. */
export function viennaVotes(
  neighbours: readonly { similarity: number; vienna_codes: readonly string[] | null }[],
  power = POWER,
  k = NEIGHBOURS,
): ViennaVote[] {
  // A logo whose vector is all zeros (a blank image) has no similarity (NaN): it votes for nothing, as image search shows it nowhere.
  const coded = neighbours.filter((n) => Number.isFinite(n.similarity) && n.vienna_codes?.some((c) => SECTION.test(c))).slice(0, k);
  const votes = new Map<string, { weight: number; marks: number }>();
  let total = 0;
  for (const n of coded) {
    const w = Math.max(0, n.similarity) ** power;
    total += w;
    for (const code of new Set(n.vienna_codes!.filter((c) => SECTION.test(c)))) {
      const v = votes.get(code) ?? { weight: 0, marks: 0 };
      v.weight += w;
      v.marks++;
      votes.set(code, v);
    }
  }
  if (total <= 0) return [];
  return [...votes]
    .map(([code, v]) => ({ code, score: Math.round((v.weight / total) * 10_000) / 10_000, marks: v.marks }))
    .sort((a, b) => b.score - a.score || (a.code < b.code ? -1 : 1));
}
