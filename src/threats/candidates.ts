import { hasIndic, romanisedOf } from '../search/loanwords.ts';
import { romanise } from '../search/normalise.ts';
import { type MatchType, type PreparedQuery, prepareQuery } from '../search/query.ts';
import { classMask } from '../search/service.ts';
import type { BriefRow } from '../search/summaries.ts';
import type { IndexHit } from '../search/types.ts';
import type { RegisterView } from '../search/view.ts';
import type { MarkForm } from './compare.ts';
import { farWords, type HolderRanking, holdersBy, holdersOf, relatedWords } from './holders.ts';
import { lexiconOf } from './readings.ts';
import { equivalents } from './translations.ts';

// Word candidates of a mark, from the search index (never a scan of the register). SMART search
// already finds what an examiner compares: the same mark, marks holding it or starting or ending with
// it, joined and split forms, spelling variants (1-2 edits), sound-alikes after Indian romanisation
// (Double Metaphone) and marks that are one word of it. Searches of these kinds, each capped:
//   1. the whole mark in its own and cognate classes (the strongest matches first);
//   2. the whole mark in every class, a few results (the same or nearly the same mark elsewhere);
//   3. each of its most distinctive words alone in its own and cognate classes: a copy often keeps
//      the distinctive word and changes the rest (SUNRISE → ROYAL SUNRISE, SUNRISE FOODS);
//   4. the mark less its first word and less its last word, when it has three words or more (4 SAI'S
//      GROUP less 4, JAGDAMBA'S CAFE less CAFE): copies add a number, a title or a trade word to a
//      whole mark, and a word's weight in the register says little about whether it was added (CAFE may be
//      rare in the register, yet is the trade word of a cafe);
//   5. words of the register that a long word of the mark is made of, as spelled or as said
//      (THETARA holds TARA, SOOLTANAN said SULTANAN holds SULTAN): an earlier mark taken whole into a
//      coined word, which search (marks that hold the query, not marks the query holds) does not find.
//   6. translations (src/threats/translations.ts): each listed word's equivalents in the other language
//      alone (SURAJ → SUN, SURYA) and in the mark (QUEEN EXPORTS → RANI EXPORTS, as spelled: EXACT), and
//      the mark with its listed words in English (SURAJ FOODS → SUN FOODS).
//   7. the mark respelled: its most distinctive words replaced by their most held variants (variantForms).
//   8. each of its most distinctive words' holders that share the most with the mark, weighed the way
//      the scoring weighs them (src/threats/holders.ts): VANA BISCUITS for VANA BRAND, a word for the
//      goods beside VANA, where search ranks hundreds of shorter holders (VANA QUIX) first. Standing
//      (class, live, earlier) counts too: a later or dead holder scores less.
//   9. the mark respelled with a rare distinctive word's respellings two edits away, one further than
//      search goes for words of up to seven letters (SWATSKI GOLD → SWASTIK GOLD, MOONEN AGRO → MOON
//      AGRO): a word few marks hold is often a mistyped or respelled copy of an established one. A common
//      word's list is full of closer marks already, and two edits from it reach hundreds of other words.
//  10. a mark written in an Indic script read as the English words it spells (सनराइज फ़ूड्स: SUNRISE FOODS), whole
//      and word by word, searched beside step 1 (src/search/loanwords.ts).
//  11. the register's marks in an Indic script that spell the mark's most distinctive words (SUNRISE: सनराइज).
// Results of a search come strongest strategy first, then closest spelling, then shortest mark, so
// the caps keep the closest candidates.

export const CANDIDATES = {
  whole: 300,
  anyClass: 20,
  perWord: 150,
  /** At most this many words searched alone, the most distinctive first. */
  words: 3,
  /** Words lighter than this (held by a large share of the register) are not searched alone. */
  minWeight: 0.05,
  /** Equivalents searched per listed word (the English word first). */
  equivalents: 4,
  /** Register words inside a long word: at most this many, of at least `pieceLength` characters. */
  pieces: 2,
  pieceLength: 4,
  perPiece: 40,
  /**
   * Spelling variants and sound-alikes of the mark's most distinctive words, each put in the mark and the
   * result searched EXACT (the respelled mark itself; a SMART search per variant costs too much at scale).
   */
  variantWords: 2,
  variantsPerWord: 6,
  perVariant: 30,
  /** Holders of each distinctive word whose other words weigh least (the word dominates them), per word. */
  dominated: 50,
  /** A word held by more marks than this in the related classes is not read holder by holder. */
  dominatedLimit: 15_000,
  /** Respellings two edits away (step 9) of words held by at most this many marks, of these lengths. */
  farHolders: 50,
  farLengths: [5, 7],
  /** Step 11: the most distinctive words walked back to Indic romanisations, and the romanisations searched per word. */
  indicWords: 2,
  indicSpellings: 4,
} as const;

/** The analysed mark's filing day and the standing factor of another mark (step 8). */
export type HolderContext = Pick<HolderRanking, 'day' | 'standing'>;

/** The proposal in one group of cognate classes: its form weighed in that trade, and a cheap word weight (step 8). */
export interface CandidateSide {
  form: MarkForm;
  /** The group's classes; the sides' groups are disjoint. */
  classes: number[];
  weight: HolderRanking['weight'];
}

interface Search {
  text: string;
  want: number;
  mode: MatchType;
}

/**
 * Every candidate of every side once, with the summary fields the analysis reads, read from the engine in the same turn as the
 * searches. Each side is searched as if alone, but a search that several sides make (the same words, mode
 * and cap) is made once over all their classes (sharedSearch): most of a search's work does not depend on
 * its classes.
 */
export function wordCandidates(engine: RegisterView, sides: CandidateSide[], context: HolderContext): Map<string, BriefRow> {
  const out = new Map<string, BriefRow>();
  const form = sides[0]?.form;
  if (!form?.words.length) return out;
  // Each side's hits so far, as application numbers: what its holders (step 8) skip.
  const found = sides.map(() => new Set<number>());
  const summarised = new Set<number>();
  const keep = (hits: IndexHit[], into: Set<number>[]) => {
    const fresh = hits.filter((h) => !summarised.has(h.appNo));
    for (const h of hits) for (const f of into) f.add(h.appNo);
    for (const h of fresh) summarised.add(h.appNo);
    for (const r of engine.briefs(fresh)) out.set(r.application_number, r);
  };
  const variants = new Map<string, string[]>();
  const searchAll = (each: (side: CandidateSide) => Search[]) => {
    const shared = new Map<string, { s: Search; at: number[] }>();
    sides.forEach((side, i) => {
      for (const s of each(side)) {
        const key = `${s.mode} ${s.want} ${s.text}`;
        const x = shared.get(key) ?? { s, at: [] };
        shared.set(key, x);
        if (!x.at.includes(i)) x.at.push(i);
      }
    });
    for (const { s, at } of shared.values()) {
      const q = prepareQuery(s.text, s.mode);
      if (!q.words.length) continue;
      const hits = sharedSearch(
        engine,
        q,
        at.map((i) => sides[i].classes),
        s.want,
      );
      at.forEach((i, k) => keep(hits[k], [found[i]]));
    }
  };
  const n = form.words.length;
  // The whole mark in every class is the same search for every side.
  const anyClass = prepareQuery(form.normalised, 'SMART');
  searchAll((side) => {
    const f = side.form;
    const s: Search[] = [{ text: f.normalised, want: CANDIDATES.whole, mode: 'SMART' }];
    // A mark in an Indic script is searched as the English words it spells too (src/threats/readings.ts).
    if (f.readAs) s.push({ text: f.readAs, want: CANDIDATES.whole, mode: 'SMART' });
    if (f.readAs && n > 1) for (const r of f.readings ?? []) if (r) s.push({ text: r[0].text, want: CANDIDATES.perWord, mode: 'SMART' });
    if (n > 1) {
      // A number is searched alone too: it is often what tells 9 SWEETS or 21 NO. 1 from the trade's others.
      for (const { w } of mostDistinctive(f, CANDIDATES.words, true)) s.push({ text: w, want: CANDIDATES.perWord, mode: 'SMART' });
    }
    if (n >= 3) {
      s.push({ text: f.words.slice(1).join(' '), want: CANDIDATES.perPiece, mode: 'SMART' });
      s.push({ text: f.words.slice(0, -1).join(' '), want: CANDIDATES.perPiece, mode: 'SMART' });
    }
    for (const piece of pieces(engine, f.words)) s.push({ text: piece, want: CANDIDATES.perPiece, mode: 'SMART' });
    for (const v of variantForms(engine, f, false, variants)) s.push({ text: v, want: CANDIDATES.perVariant, mode: 'EXACT' });
    return s;
  });
  // The first page only (no counts): a common name's search over the whole register stops once it is full.
  if (anyClass.words.length)
    keep(engine.searchEach(anyClass, [{ classes: null, status: null }], CANDIDATES.anyClass, false)[0].hits, found);

  const mine = new Map<string, number>();
  sides.forEach((side, i) => {
    const f = side.form;
    mine.clear();
    f.words.forEach((w, j) => mine.set(w, (mine.get(w) ?? 0) + f.weights[j]));
    const ranking: HolderRanking = { words: mine, total: f.weights.reduce((a, b) => a + b, 0), weight: side.weight, ...context };
    const classes = classMask(side.classes);
    const seen = found[i];
    for (const w of new Set(mostDistinctive(f, CANDIDATES.words).map((x) => x.w))) {
      keep(holdersBy(engine, w, classes, CANDIDATES.dominated, CANDIDATES.dominatedLimit, ranking, seen), [seen]);
    }
  });

  if (!form.readings) keep(indicSpellings(engine, form, sides), found);

  const english = form.words.map((w, i) => form.meanings[i] ?? w);
  searchAll((side) => {
    const f = side.form;
    const s: Search[] = [];
    f.words.forEach((w, i) => {
      if (f.weights[i] < CANDIDATES.minWeight) return;
      for (const e of equivalents(w).slice(0, CANDIDATES.equivalents)) {
        s.push({ text: e, want: CANDIDATES.perPiece, mode: 'SMART' });
        // The mark with the word translated, as a copy would say it (QUEEN EXPORTS → RANI EXPORTS): the word
        // alone has hundreds of holders in a class at scale, and the copy is not among the shortest of them.
        if (n > 1) s.push({ text: withWord(f.words, i, e), want: CANDIDATES.perVariant, mode: 'EXACT' });
      }
    });
    if (n > 1 && english.some((w, i) => w !== f.words[i])) s.push({ text: english.join(' '), want: CANDIDATES.perPiece, mode: 'SMART' });
    for (const far of variantForms(engine, f, true, variants)) s.push({ text: far, want: CANDIDATES.perVariant, mode: 'EXACT' });
    return s;
  });
  return out;
}

/**
 * Step 11: the register's marks written in an Indic script that spell the proposal's most distinctive words (SUNRISE:
 * सनराइज, romanised SANRAIJ). Their romanisations are walked back from the English words (src/search/loanwords.ts) and
 * their holders read (a romanisation more than perVariant marks hold is left to search); of those only the Indic marks
 * are kept, the Latin respellings being the other steps' to find.
 */
function indicSpellings(engine: RegisterView, form: MarkForm, sides: CandidateSide[]): IndexHit[] {
  const lexicon = lexiconOf(engine);
  const classes = classMask(sides.flatMap((s) => s.classes));
  const out: IndexHit[] = [];
  for (const { w } of mostDistinctive(form, CANDIDATES.indicWords)) {
    for (const spelling of romanisedOf(w, lexicon, CANDIDATES.indicSpellings)) {
      // Read off the word's postings: an Indic romanisation, or a register respelling, is held by few marks.
      const hits = holdersOf(engine, spelling, classes, CANDIDATES.perVariant);
      const rows = engine.briefs(hits);
      hits.forEach((h, i) => {
        if (hasIndic(rows[i].word_mark)) out.push(h);
      });
    }
  }
  return out;
}

/**
 * A search made for several sides at once: the engine searches the query once over all their classes and
 * answers each side as a search of its classes alone would (src/search/filterSplit.ts, partial matching's
 * bound kept per side); the facet counts are not made, since nothing here reads them.
 */
function sharedSearch(engine: RegisterView, q: PreparedQuery, groups: number[][], want: number): IndexHit[][] {
  const filters = groups.map((classes) => ({ classes: classMask(classes), status: null }));
  return engine.searchEach(q, filters, want, false).map((r) => r.hits);
}

/**
 * The mark with one of its most distinctive words replaced by a spelling variant or sound-alike of the
 * register (RAZA → RAJA, SHREEZI DAIRY → SHREEJI DAIRY). Search finds such variants only after every
 * mark holding or starting with the mark itself, so a common mark's whole-mark search can be full before
 * its closest respellings; searched as marks of their own, their nearest forms come first. With `far`,
 * the respellings two edits away of the rare words among them (step 9). A word's respellings are kept in
 * `memo` for the other sides.
 */
function variantForms(engine: RegisterView, form: MarkForm, far: boolean, memo: Map<string, string[]>): string[] {
  const out: string[] = [];
  const [min, max] = CANDIDATES.farLengths;
  for (const { w, i } of mostDistinctive(form, CANDIDATES.variantWords)) {
    if (far && (w.length < min || w.length > max || engine.holders(w) > CANDIDATES.farHolders)) continue;
    const key = `${far} ${w}`;
    let variants = memo.get(key);
    if (!variants) {
      variants = far ? farWords(engine, w, CANDIDATES.variantsPerWord) : relatedWords(engine, w, CANDIDATES.variantsPerWord);
      memo.set(key, variants);
    }
    for (const v of variants) out.push(withWord(form.words, i, v));
  }
  return out;
}

/** The mark's words with word i replaced by `w`, as one text. */
const withWord = (words: string[], i: number, w: string) => [...words.slice(0, i), w, ...words.slice(i + 1)].join(' ');

/**
 * The mark's `max` heaviest words of three characters or more (and numbers, when `numbers`), heaviest
 * first, with their positions; words lighter than `minWeight` only when the mark is that one word (it
 * is then the whole mark).
 */
function mostDistinctive(form: MarkForm, max: number, numbers = false): { w: string; i: number }[] {
  return form.words
    .map((w, i) => ({ w, i, weight: form.weights[i] }))
    .filter((x) => (x.w.length >= 3 || (numbers && /^\d+$/.test(x.w))) && (x.weight >= CANDIDATES.minWeight || form.words.length === 1))
    .sort((a, b) => b.weight - a.weight)
    .slice(0, max);
}

/** The longest words of the register a word of the mark starts or ends with, as spelled or romanised. */
function pieces(engine: RegisterView, words: string[]): string[] {
  const found = new Set<string>();
  const min = CANDIDATES.pieceLength;
  for (const w of words) {
    for (const form of new Set([w, romanise(w)])) {
      for (let cut = Math.min(3, form.length); cut <= form.length - min; cut++) {
        for (const piece of [form.slice(cut), form.slice(0, form.length - cut)]) {
          if (piece.length >= min && !words.includes(piece) && engine.holders(piece) > 0) found.add(piece);
        }
      }
    }
  }
  return [...found].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, CANDIDATES.pieces);
}
