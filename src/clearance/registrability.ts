import { type Clock, Expiring } from '../clock.ts';
import { boundedDistance } from '../search/editDistance.ts';
import { hasIndic, writtenWords } from '../search/loanwords.ts';
import { normaliseMark, romanise, wordsOf } from '../search/normalise.ts';
import { type PlainKind, PlainWords } from './plainWords.ts';

// What an examiner asks before looking at the register (issue 41, docs/clearance.md *Registrability*): is the
// proposal a well-known mark (s.11(2)), an international non-proprietary name (s.13(b)), a name or emblem whose use
// a statute prohibits (s.9(2)(d))? Each ground met is said with the provision, the listed name as the list spells
// it, and a sentence a client understands. Grounds are warnings, not refusals: the Registrar decides.

export const GROUND_KINDS = ['well_known', 'inn', 'prohibited', 'descriptive', 'laudatory', 'generic', 'geographical'] as const;
export type GroundKind = (typeof GROUND_KINDS)[number];

export interface Ground {
  ground: GroundKind;
  basis: string;
  matched: string;
  reason: string;
}

export interface Registrability {
  verdict: 'no_objection_found' | 'objection_likely';
  grounds: Ground[];
}

/** The reference lists the grounds come from (data/reference/, loaded into PostgreSQL at start). */
export interface GroundLists {
  wellKnown: { mark: string; proprietor: string | null }[];
  prohibited: { subject: string; legal_basis: string; terms: string[] }[];
  inn: string[];
  stems: string[];
  /** Names of India's states and union territories. */
  states: string[];
  /** The Nice items of every class (the goods' common names). */
  items: { class_number: number; item: string }[];
}

/** The pharmaceutical class: where an INN stem, WHO's guidance for naming substances, is raised. */
const PHARMA_CLASSES = new Set([5]);
/** Entries of the well-known list that are devices, not words: met by logo search, not here. */
const DEVICE = /\b(LOGO|PATTERN|MONOGRAM|STYLISED|STYLIZED|DEVICE)\b/;
/** Plural and possessive endings a respelling adds to a mark (HALDIRAMS, MAGGIES). */
const ENDINGS = ['S', 'ES'];

interface Name {
  listed: string;
  words: string[];
  key: string;
}

const nameOf = (listed: string): Name | null => {
  const words = wordsOf(normaliseMark(listed));
  return words.length ? { listed, words, key: words.join('') } : null;
};

/** Every run of consecutive words of a proposal, joined: "TATA FRESH TEA" → TATA, TATAFRESH, …, TEA. */
function runs(words: string[], longest = 4): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++)
    for (let j = i + 1; j <= Math.min(words.length, i + longest); j++) out.push(words.slice(i, j).join(''));
  return out;
}

/** Whether a proposal's joined words meet a listed name: the name itself, with an ending, or respelt by one letter. */
function meets(run: string, key: string): boolean {
  if (run === key) return true;
  // Short names (TAJ, DHL, TATA) are met only as they are: one letter more or less makes another word.
  if (key.length < 5) return false;
  if (ENDINGS.some((e) => run === key + e)) return true;
  return boundedDistance(run, key, 1) <= 1;
}

/**
 * Whether a word of the proposal (romanised) is a listed word (romanised, once): as the register romanises both
 * (BAPU, बापू), with the vowel an Indic spelling adds at the end (ASHOKA, ASHOK), or, from five letters, respelt by one
 * letter (JAYATE, JAYTE).
 */
function sameWord(a: string, b: string): boolean {
  if (a === b || a === `${b}A` || b === `${a}A`) return true;
  return b.length >= 5 && boundedDistance(a, b, 1) <= 1;
}

export class Grounds {
  private readonly wellKnown: (Name & { proprietor: string | null })[];
  private readonly prohibited: { subject: string; basis: string; terms: (Name & { folded: string[] })[] }[];
  private readonly inn: Map<string, string>;
  private readonly innByLength: string[];
  private readonly stems: { stem: string; listed: string }[];
  private readonly plain: PlainWords;

  constructor(lists: GroundLists) {
    this.wellKnown = lists.wellKnown.flatMap((w) =>
      DEVICE.test(w.mark.toUpperCase())
        ? []
        : w.mark
            .split(/\s+&\s+/)
            .map(nameOf)
            .filter((n): n is Name => n !== null)
            .map((n) => ({ ...n, listed: w.mark, proprietor: w.proprietor })),
    );
    this.prohibited = lists.prohibited.map((p) => ({
      subject: p.subject,
      basis: p.legal_basis,
      terms: p.terms
        .map(nameOf)
        .filter((n): n is Name => n !== null)
        .map((n) => ({ ...n, folded: n.words.map(romanise) })),
    }));
    // Keyed as the register romanises (PH as F): an INN written in Devanagari (इबुप्रोफेन IBUPROPHEN) meets its name.
    this.inn = new Map(lists.inn.map((n) => [romanise(normaliseMark(n).replace(/ /g, '')), n]));
    this.innByLength = [...this.inn.keys()].filter((k) => k.length >= 7);
    this.stems = lists.stems
      .filter((s) => /^-[a-z]+$/.test(s.trim()) && s.trim().length >= 6)
      .map((s) => ({ stem: romanise(s.trim().slice(1).toUpperCase()), listed: s.trim() }));
    this.plain = new PlainWords(lists.states, lists.items, romanise);
  }

  /** The grounds a proposed word mark meets in the classes it is proposed for. */
  assess(text: string | null, classes: number[]): Registrability {
    const words = text ? wordsOf(normaliseMark(text)) : [];
    const grounds = words.length
      ? [
          ...this.wellKnownGrounds(words),
          ...this.innGrounds(words, classes, (text && writtenWords(text, words.length)) || words),
          ...this.prohibitedGrounds(words),
          ...this.plainGrounds(words, classes, text !== null && hasIndic(text)),
        ]
      : [];
    return { verdict: grounds.length ? 'objection_likely' : 'no_objection_found', grounds };
  }

  private wellKnownGrounds(words: string[]): Ground[] {
    const all = runs(words);
    const seen = new Set<string>();
    const out: Ground[] = [];
    for (const w of this.wellKnown) {
      if (seen.has(w.listed) || !all.some((r) => meets(r, w.key))) continue;
      seen.add(w.listed);
      out.push({
        ground: 'well_known',
        basis: 'Trade Marks Act 1999, s.11(2)',
        matched: w.listed,
        reason:
          `${w.listed} is on the Registry's list of well-known marks${w.proprietor ? ` (${w.proprietor})` : ''}: it is protected in ` +
          'every class, so a mark like it is likely to be refused whatever the goods, and its owner may oppose.',
      });
    }
    return out;
  }

  /** `shown`: the words as the proposal writes them, for the reasons. */
  private innGrounds(words: string[], classes: number[], shown: string[]): Ground[] {
    const out: Ground[] = [];
    const seen = new Set<string>();
    const add = (listed: string, reason: string, basis = 'Trade Marks Act 1999, s.13(b)') => {
      if (seen.has(listed)) return;
      seen.add(listed);
      out.push({ ground: 'inn', basis, matched: listed, reason });
    };
    for (const [i, written] of words.entries()) {
      if (written.length < 5) continue;
      const word = romanise(written);
      const as = shown[i];
      const exact = this.inn.get(word);
      if (exact) {
        add(exact, `${exact} is an international non-proprietary name (INN) for a medicine: no one may register it as a trade mark.`);
        continue;
      }
      const near = this.innByLength.find(
        (k) => (k.length >= 8 && boundedDistance(word, k, 1) <= 1) || (word.length > k.length && word.includes(k)),
      );
      if (near) {
        const listed = this.inn.get(near)!;
        add(listed, `${as} is, or holds, ${listed}, an international non-proprietary name (INN) for a medicine: it cannot be registered.`);
        continue;
      }
      if (!classes.some((c) => PHARMA_CLASSES.has(c))) continue;
      const stem = this.stems.find((s) => word.length >= s.stem.length + 2 && word.endsWith(s.stem));
      if (stem)
        add(
          stem.listed,
          `${as} ends in ${stem.listed}, a stem the WHO keeps for naming a kind of medicine: in class 5 an objection is likely.`,
          'WHO INN stem guidance, applied under the Trade Marks Act 1999, s.13(b) (unsure: stems are not listed in the Act)',
        );
    }
    return out;
  }

  /** The plain-word grounds (s.9(1)): one per plain word, and only when the mark is made of nothing else. */
  private plainGrounds(words: string[], classes: number[], indic: boolean): Ground[] {
    const met = this.plain.consistsOf(words, classes, indic);
    if (!met) return [];
    const seen = new Set<string>();
    return met.flatMap((m) => {
      const key = `${m.kind} ${m.listed}`;
      if (seen.has(key)) return [];
      seen.add(key);
      const p = PLAIN[m.kind];
      return [{ ground: m.kind, basis: p.basis, matched: m.listed, reason: p.reason(m.listed, m.cls) + PLAIN_TAIL }];
    });
  }

  private prohibitedGrounds(words: string[]): Ground[] {
    const out: Ground[] = [];
    const folded = words.map(romanise);
    const joined = runs(words);
    for (const p of this.prohibited) {
      const term = p.terms.find(
        (t) =>
          folded.some((_, i) => t.folded.every((w, j) => i + j < folded.length && sameWord(folded[i + j], w))) ||
          (t.words.length > 1 && t.key.length >= 8 && joined.includes(t.key)),
      );
      if (!term) continue;
      out.push({
        ground: 'prohibited',
        basis: `${p.basis}, read with the Trade Marks Act 1999, s.9(2)(d)`,
        matched: term.listed,
        reason: `${term.listed} names ${p.subject}, whose use in a mark the law prohibits: the mark cannot be registered with it.`,
      });
    }
    return out;
  }
}

const PLAIN: Record<PlainKind, { basis: string; reason: (w: string, cls?: number) => string }> = {
  laudatory: {
    basis: 'Trade Marks Act 1999, s.9(1)(b)',
    reason: (w) => `${w} praises the goods rather than saying whose they are`,
  },
  descriptive: {
    basis: 'Trade Marks Act 1999, s.9(1)(b)',
    reason: (w) => `${w} describes the goods (their kind, quality, purpose or quantity)`,
  },
  generic: {
    basis: 'Trade Marks Act 1999, s.9(1)(c)',
    reason: (w, cls) => `${w} is what the goods or services of class ${cls} are commonly called`,
  },
  geographical: {
    basis: 'Trade Marks Act 1999, s.9(1)(b)',
    reason: (w) => `${w} names a place, which tells where goods come from, not whose they are`,
  },
};

/** What every plain-word ground adds: why the mark as a whole is at risk, and what may still save it. */
const PLAIN_TAIL =
  ': the mark is made only of such words, so it is likely to be refused as not distinctive ' +
  'unless it is shown to be known as yours (s.9(1) proviso).';

/**
 * The grounds as the reference lists stand, prepared once and read again at most every ten minutes (the lists
 * change only when a start reloads data/reference/): a clearance costs no query for them.
 */
export const groundsOf = (load: () => Promise<GroundLists>, clock?: Clock): Expiring<Grounds> =>
  new Expiring(async () => new Grounds(await load()), 600_000, clock);

/** The clearance's overall risk: its riskiest conflict's level, raised to High by a well-known mark; null when neither. */
export function overallRisk(risks: { High: number; Medium: number; Low: number }, r: Registrability): 'High' | 'Medium' | 'Low' | null {
  if (r.grounds.some((g) => g.ground === 'well_known') || risks.High > 0) return 'High';
  return risks.Medium > 0 ? 'Medium' : risks.Low > 0 ? 'Low' : null;
}
