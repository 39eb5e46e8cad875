import { type Lexicon, readingsOf } from '../search/loanwords.ts';
import { DESCRIPTIVE, FOOD, FOOD_DESCRIPTIVE, LAUDATORY } from '../threats/descriptive.ts';

// Words that tell a buyer about the goods, not about who makes them (docs/clearance.md, *Registrability*): words
// of praise (s.9(1)(b): BEST, SUPER, SHUDH), words that describe the goods' kind, quality, purpose or quantity
// (s.9(1)(b): FRESH, ORGANIC, HERBAL, TAZA), the goods' own common names (s.9(1)(c): RICE in class 30, SOAP in
// class 3, from the Nice items of the class and the Hindi names Indian labels use) and places of origin
// (s.9(1)(b): KERALA, DARJEELING, BIKANERI). A mark made only of such words is likely to be refused as not
// distinctive; one distinctive word among them (SUNRISE BASMATI RICE) lifts the objection, though the plain words
// may have to be disclaimed (s.17). Lists written by hand from the Act's categories and Indian trade usage.

/** Phrases read as one word: "NO. 1" is NO 1, GHAR KA "homemade" (and the places of more than one word, added below). */
const PHRASES: [string, PlainKind][] = [
  ['NO 1', 'laudatory'],
  ['NUMBER ONE', 'laudatory'],
  ['NO ONE', 'laudatory'],
  ['GHAR KA', 'descriptive'],
  ['GHAR KE', 'descriptive'],
  ['NEW DELHI', 'geographical'],
];

/** Goods the Nice items name only as a kind (fresh fruit, vegetables), by their own names. */
// biome-ignore format: a table
const MORE_GOODS: [string, number[]][] = [
  ['APPLE MANGO BANANA ORANGE GRAPES GUAVA PAPAYA PINEAPPLE POTATO ONION TOMATO COCONUT LEMON', [31]],
  ['BASMATI', [30]], ['MOBILE PHONE PHONES', [9]], ['FASHION', [25]],
];

/** Indian names of goods, with the classes they are the goods of (the Nice items are English). */
// biome-ignore format: a table
const HINDI_GOODS: [string, number[]][] = [
  ['CHAWAL CHAVAL', [30]], ['CHAI CHAY CHAAY CHAYE', [30]], ['ATTA AATA', [30]], ['MASALA MASALE', [30]], ['NAMKEEN NAMKIN', [30]],
  ['MITHAI', [30]], ['BHUJIA BHUJIYA', [30]], ['PAPAD', [30]], ['LADDU LADOO', [30]], ['HALWA', [30]], ['BESAN', [30]],
  ['DAL DAAL', [30, 31]], ['DOODH DUDH', [29]], ['GHEE GHI', [29]], ['DAHI', [29]], ['PANEER', [29]], ['MAKHAN', [29]],
  ['LASSI', [29, 32]], ['ACHAR ACHAAR', [29, 30]], ['TEL TAIL', [29, 3, 4]], ['PANI PAANI', [32]], ['SHARBAT', [32]],
  ['AGARBATTI AGARBATI DHOOP', [3]], ['SABUN SAABUN', [3]], ['SINDOOR KAJAL', [3]], ['CHURAN CHURNA', [5]],
  ['HALDI', [30]], ['SAREE SARI SAREES', [25]],
  ['KURTA KURTI', [25]], ['JUTTI JOOTI JUTI CHAPPAL', [25]], ['KAPDA', [24]], ['BIDI BEEDI', [34]],
];

/** States (data/reference/india_states.csv gives the names), their other spellings, cities, regions and countries. */
const PLACES = `DILLI DEHLI PANJAB KERALAM ORISSA BENGAL BANGLA GUJRAT MAHARASHTRA KARNATAK TAMILNADU UTTARANCHAL KASHMIR
  MUMBAI BOMBAY DELHI KOLKATA CALCUTTA CHENNAI MADRAS BENGALURU BANGALORE HYDERABAD AHMEDABAD AMDAVAD PUNE POONA SURAT
  JAIPUR LUCKNOW KANPUR NAGPUR INDORE BHOPAL PATNA AGRA VARANASI BANARAS BENARES KASHI MATHURA AMRITSAR LUDHIANA
  CHANDIGARH MYSORE MYSURU MANGALORE COCHIN KOCHI MADURAI KANCHIPURAM KANJEEVARAM COIMBATORE BIKANER JODHPUR UDAIPUR
  AJMER HARIDWAR RISHIKESH DARJEELING ASSAM NILGIRI NILGIRIS COORG KODAGU MALABAR DECCAN KUTCH KACHCHH KONKAN
  BIHAR SHIMLA OOTY MUNNAR KANNAUJ MORADABAD ALIGARH FIROZABAD SALEM TIRUPUR BHAGALPUR MURSHIDABAD
  INDIA BHARAT HINDUSTAN HIND NEPAL CHINA JAPAN AMERICA USA ENGLAND LONDON PARIS SWISS SWITZERLAND DUBAI ARABIA
  CEYLON TIBET`;

/** How far an Indic spelling may be read to meet a listed word: the plainest changes only (SUPAR SUPER, BESTA BEST). */
const READ_CHANGES = 1.2;

/** Words of a mark that say nothing at all: they neither make it distinctive nor describe anything. */
const EMPTY = new Set('THE OF AND N S A AN PVT LTD LIMITED PRIVATE CO COMPANY BRAND BRANDS WALA WALE WALI KI KE KA'.split(' '));

/** Joins, copulas and words of the Nice items' own wording that are not names of goods. */
const NOT_GOODS = new Set(
  `FOR OF AND WITH WITHOUT IN ON OR THE BASED MADE BEING NOT USE USED PURPOSES PURPOSE PREPARATIONS PREPARATION
  PRODUCTS PRODUCT PARTS FITTINGS OTHER THAN CLASSES GOODS SERVICES SERVICE NAMELY INCLUDING ITS THEIR SUCH AS
  ARTICLES MATERIALS MATERIAL SUBSTANCES SUBSTANCE`.split(/\s+/),
);

export type PlainKind = 'laudatory' | 'descriptive' | 'generic' | 'geographical';

/** A word met, its kind, and the list's own spelling of it. */
export interface PlainWord {
  kind: PlainKind;
  listed: string;
  /** For a name of goods: the class whose goods it names. */
  cls?: number;
}

const words = (s: string) => s.trim().split(/\s+/);

/** The keys a listed word is met by: itself and, as an Indic spelling romanised, with the vowel a consonant carries at its end. */
function keysOf(w: string, fold: (w: string) => string): string[] {
  const k = fold(w);
  return /[^AEIOU]$/.test(k) ? [k, `${k}A`] : [k];
}

export class PlainWords {
  private readonly byKey = new Map<string, PlainWord & { classes: Set<number> | null }>();
  private readonly generic = new Map<number, Map<string, string>>();
  private readonly phrases: [string, PlainKind][] = [...PHRASES];
  private prefixSet: Set<string> | null = null;

  /**
   * `states` are the names of the states and union territories (data/reference/india_states.csv), `items` the
   * Nice items by class; `fold` folds a word as the register's romanisation does (src/search/normalise.ts).
   */
  constructor(
    states: string[],
    items: { class_number: number; item: string }[],
    private readonly fold: (w: string) => string,
  ) {
    const add = (w: string, kind: PlainKind, classes: number[] | null = null) => {
      for (const k of keysOf(w, fold)) if (!this.byKey.has(k)) this.byKey.set(k, { kind, listed: w, classes: classes && new Set(classes) });
    };
    for (const w of words(LAUDATORY)) add(w, 'laudatory');
    for (const w of words(DESCRIPTIVE)) add(w, 'descriptive');
    for (const w of words(FOOD_DESCRIPTIVE)) add(w, 'descriptive', FOOD);
    for (const p of [
      ...states.map((s) =>
        s
          .toUpperCase()
          .replace(/[^A-Z ]/g, ' ')
          .trim(),
      ),
      ...words(PLACES),
    ]) {
      const joined = p.replace(/\s+/g, '');
      if (p.includes(' ')) this.phrases.push([p.replace(/\s+/g, ' '), 'geographical']);
      add(joined, 'geographical');
      // Their adjectives: KASHMIRI, BIKANERI, PUNJABI.
      if (!/[AEIOU]$/.test(joined)) add(`${joined}I`, 'geographical');
    }
    // An item's name is its head word, the last before a comma or a preposition: "golden syrup" names syrup, not
    // something golden, and "tea-based beverages" beverages.
    for (const { class_number, item } of items) {
      const named = item
        .toLowerCase()
        .split(/[,;([]| for | of | with | in | against /)[0]
        .toUpperCase()
        .split(/[^A-Z]+/)
        .filter((w) => w.length >= 3 && !NOT_GOODS.has(w));
      const head = named.at(-1);
      if (head) this.addGoods(class_number, head);
    }
    for (const [names, classes] of [...HINDI_GOODS, ...MORE_GOODS])
      for (const w of words(names)) for (const c of classes) this.addGoods(c, w);
  }

  private addGoods(cls: number, w: string) {
    let m = this.generic.get(cls);
    if (!m) this.generic.set(cls, (m = new Map()));
    // A name of goods is met in the singular and the plural (BISCUIT, BISCUITS; SHOES, SHOE).
    const forms = [w, w.endsWith('S') ? w.slice(0, -1) : `${w}S`, w.endsWith('ES') ? w.slice(0, -2) : `${w}ES`];
    for (const f of forms) for (const k of keysOf(f, this.fold)) if (!m.has(k)) m.set(k, w);
  }

  /**
   * The plain words a mark consists of, in the classes it is proposed for, when every word of it is plain (or says
   * nothing); null when any word is not, whatever the others.
   */
  consistsOf(markWords: string[], classes: number[], indic = false): PlainWord[] | null {
    const ws = joinPhrases(markWords, this.phrases);
    const out: PlainWord[] = [];
    for (const w of ws) {
      if (typeof w !== 'string') {
        out.push(w);
        continue;
      }
      if (EMPTY.has(w)) continue;
      const met = this.meet(w, classes, indic);
      if (!met) return null;
      out.push(met);
    }
    return out.length ? out : null;
  }

  /** A word's plain meaning: praise, description and places first (the Nice items' wording holds some: "instant coffee"). */
  private meet(w: string, classes: number[], indic: boolean): PlainWord | null {
    const direct = this.meetKey(this.fold(w), classes);
    if (direct || !indic) return direct;
    // A word written in an Indic script may spell an English one (सुपर SUPAR: SUPER).
    for (const r of readingsOf(w, this.lexicon(classes), READ_CHANGES)) {
      const met = this.meetKey(this.fold(r), classes);
      if (met) return met;
    }
    return null;
  }

  private meetKey(k: string, classes: number[]): PlainWord | null {
    const listed = this.byKey.get(k);
    if (listed && (!listed.classes || classes.some((c) => listed.classes!.has(c)))) return { kind: listed.kind, listed: listed.listed };
    for (const c of classes) {
      const goods = this.generic.get(c)?.get(k);
      if (goods) return { kind: 'generic', listed: goods, cls: c };
    }
    return null;
  }

  /** The lists' own words as a lexicon to read an Indic spelling against (src/search/loanwords.ts). */
  private lexicon(classes: number[]): Lexicon {
    const has = (w: string) => this.meetKey(this.fold(w), classes) !== null;
    const prefixes = this.prefixes;
    return { hasPrefix: (p) => prefixes.has(p), holders: (w) => (has(w) ? 1 : 0) };
  }

  private get prefixes(): Set<string> {
    if (!this.prefixSet) {
      this.prefixSet = new Set();
      const all = [...this.byKey.values()].map((x) => x.listed.toUpperCase());
      for (const m of this.generic.values()) all.push(...m.values());
      for (const w of all) for (let i = 1; i <= w.length + 1; i++) this.prefixSet.add(`${w}E`.slice(0, i));
    }
    return this.prefixSet;
  }
}

/** The words with the listed phrases (NO 1, GHAR KA) met as one. */
function joinPhrases(ws: string[], phrases: [string, PlainKind][]): (string | PlainWord)[] {
  const out: (string | PlainWord)[] = [];
  for (let i = 0; i < ws.length; i++) {
    const p = phrases.find(([ph]) => {
      const parts = ph.split(' ');
      return parts.every((x, j) => ws[i + j] === x);
    });
    if (p) {
      out.push({ kind: p[1], listed: p[0] });
      i += p[0].split(' ').length - 1;
    } else out.push(ws[i]);
  }
  return out;
}
