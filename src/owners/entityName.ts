import { createHash } from 'node:crypto';
import { hasIndic } from '../search/loanwords.ts';
import { normaliseMark, romanise } from '../search/normalise.ts';
import { romaniseIndic } from '../search/scripts.ts';

// Proprietor names as owners (docs/owners.md): the rules by which two names on the register are one owner. A name is
// read into parts (a trading-as form has a person and a trade name; a "formerly" form an old name beside the new), each
// part a key once the ways of writing it are folded away, with the kind of legal person it is (a company, an LLP, or
// a firm or person), and for a person the title's gender and the parent named after S/O, D/O or W/O.

/** A name's part: its key, the kind of legal person, and what tells two people of one name apart. */
export interface OwnerPart {
  role: 'whole' | 'person' | 'trade' | 'former';
  key: string;
  /** The key's consonants, for a name written in an Indic script (read against Latin spellings by sound). */
  skeleton: string;
  legal: 'company' | 'llp' | 'other';
  gender: 'm' | 'f' | null;
  parent: string | null;
}

// Person first, then the trade name; or the trade name first, then its proprietor.
const PROP = '(?:SOLE\\s+)?PROP(?:RIETO?R(?:IX)?|RIETRESS|RAITAR)?\\.?';
const PERSON_FIRST = new RegExp(
  '\\s*,?\\s*\\b(?:TRADING\\s+(?:AS|UNDER\\s+THE\\s+(?:NAME|STYLE)(?:\\s+AND\\s+STYLE)?(?:\\s+OF)?)|' +
    'T\\s*\\/\\s*A|D\\s*\\/\\s*B\\s*\\/\\s*A|' +
    `DOING\\s+BUSINESS\\s+AS|${PROP}\\s*(?:OF\\b|,|:))\\s*|\\s*,\\s*${PROP}\\s+`,
  'i',
);
const TRADE_FIRST = new RegExp(
  `\\s*(?:[(,]\\s*${PROP}\\s+|[(,]?\\s*\\b(?:A\\s+)?PROPRIETORSHIP\\s+(?:FIRM\\s+|CONCERN\\s+)?OF\\b)\\s*`,
  'i',
);
const FORMERLY = /\s*\(?\s*\b(?:FORMERLY|EARLIER|PREVIOUSLY)(?:\s+KNOWN\s+AS)?\b[\s:]*/i;
const PARENT = /\b(?:S|D|W)\s*\/\s*O\b\.?|\b(?:SON|DAUGHTER|WIFE)\s+OF\b/i;
// A descriptor after the name: ", A PARTNERSHIP FIRM", "(A REGISTERED PUBLIC TRUST)", "(REGD.)", "(GCL)".
const DESCRIPTOR = new RegExp(
  '\\s*(?:,\\s*(?:A|AN)\\s+(?:PARTNERSHIP|PROPRIETORSHIP|SOCIETY|TRUST|FIRM|COMPANY|REGISTERED|HINDU)\\b.*$|' +
    '\\(\\s*(?:A\\s+|AN\\s+)?(?:REGD|REGISTERED|PARTNERSHIP|PROPRIETORSHIP|SOCIETY|TRUST|FIRM)\\b[^()]*\\)\\s*$)',
  'i',
);
/** A trailing bracket that is the name's own initials: GHARDA CHEMICALS LIMITED (GCL). A place in brackets stays. */
const INITIALS = /\s*\(\s*([A-Z]{2,8})\s*\)\s*$/i;
const TITLES = new Set(['LATE', 'MR', 'SHRI', 'SH', 'SRI', 'SHREE', 'DR', 'SMT', 'SHRIMATI', 'THIRU', 'JANAB']);

const MALE = new Set(['MR', 'SHRI', 'SH', 'SRI', 'SHREE', 'THIRU', 'JANAB']);
const FEMALE = new Set(['MRS', 'MS', 'SMT', 'SHRIMATI', 'SHRIMTI', 'KUMARI', 'KU', 'KM', 'MISS', 'TMT', 'SELVI', 'SUSHRI']);
const NEUTRAL = new Set(['DR', 'ADV', 'PROF']);
const FIRM_PREFIX = new Set(['M S', 'MS', 'MESSRS', 'MESSERS', 'MESARS', 'MESSERSA', 'MESARSA', 'THE']);

// Abbreviations the register writes for the same word, and Devanagari loanwords as romanised.
const WORDS: Record<string, string> = {
  INDS: 'INDUSTRIES',
  IND: 'INDUSTRIES',
  CORPN: 'CORPORATION',
  CORP: 'CORPORATION',
  BROS: 'BROTHERS',
  BRO: 'BROTHERS',
  TRDG: 'TRADING',
  MFG: 'MANUFACTURING',
  MFRS: 'MANUFACTURERS',
  ENGG: 'ENGINEERING',
  INTL: 'INTERNATIONAL',
  ASSOC: 'ASSOCIATES',
  ENTP: 'ENTERPRISES',
  ENTS: 'ENTERPRISES',
  MOHD: 'MOHAMMAD',
  MOHAMMED: 'MOHAMMAD',
  MUHAMMAD: 'MOHAMMAD',
  MUHAMMED: 'MOHAMMAD',
  COMPANY: 'CO',
  COOP: 'COOPERATIVE',
  END: 'AND',
};
const PAIRS: Record<string, string> = { 'CO OP': 'COOPERATIVE', 'CO OPERATIVE': 'COOPERATIVE', 'PRA LI': 'PRIVATE LIMITED' };
const COMPANY = new Set(['LIMITED', 'LTD', 'PRIVATE', 'PVT', 'P', 'OPC', 'INC', 'PLC', 'INCORPORATED', 'PRAIVET', 'LIMITEDA', 'LI']);
const LLP = new Set(['LLP', 'ELAELPI']);
const ROLES = new Set(['PROPRIETOR', 'PROP', 'PARTNER', 'PROPRAITAR']);
// Words only a business is named with: a name without one (and without a legal form) is a person's, whose title can go.
const BUSINESS = new Set([
  'TRADER',
  'TRADERS',
  'TRADING',
  'FOOD',
  'FOODS',
  'DAIRY',
  'JEWELERS',
  'JEWELLERS',
  'JEWELS',
  'INDUSTRIES',
  'ENTERPRISE',
  'ENTERPRISES',
  'SWEETS',
  'TEXTILE',
  'TEXTILES',
  'STORE',
  'STORES',
  'SONS',
  'BROTHERS',
  'CO',
  'AGENCY',
  'AGENCIES',
  'EXPORT',
  'EXPORTS',
  'IMPORT',
  'IMPORTS',
  'PRODUCTS',
  'CHEMICAL',
  'CHEMICALS',
  'MILL',
  'MILLS',
  'WORKS',
  'CORPORATION',
  'GROUP',
  'ASSOCIATES',
  'INTERNATIONAL',
  'INDIA',
  'SPICES',
  'MASALA',
  'MASALAS',
  'SAREES',
  'MART',
  'EMPORIUM',
  'CENTRE',
  'CENTER',
  'HOUSE',
  'BHAVAN',
  'BHAWAN',
  'BHANDAR',
  'TRUST',
  'SOCIETY',
  'SAMITI',
  'FEDERATION',
  'UNION',
  'LABORATORIES',
  'LABS',
  'HERBAL',
  'HERBALS',
  'AYURVED',
  'AYURVEDA',
  'SNACKS',
  'AGRO',
  'AGRI',
  'GARMENTS',
  'FABRIC',
  'FABRICS',
  'FASHION',
  'FASHIONS',
  'CREATIONS',
  'SOLUTIONS',
  'TECHNOLOGY',
  'TECHNOLOGIES',
  'SYSTEMS',
  'SERVICES',
  'HOTEL',
  'HOTELS',
  'RESTAURANT',
  'CAFE',
  'BAKERS',
  'BAKERY',
  'PERFUMES',
  'COSMETICS',
  'GEMS',
  'MOTORS',
  'AUTO',
  'STEEL',
  'STEELS',
  'ELECTRICALS',
  'ELECTRONICS',
  'PLASTICS',
  'PRINTERS',
  'DAWAKHANA',
  'OIL',
  'OILS',
  'TEA',
  'RICE',
  'FLOUR',
  'MILK',
  'PRAKASHAN',
  'SEEDS',
  'FERTILISERS',
  'FERTILIZERS',
  'TREDARSA',
  'SVITSA',
  'JVELARSA',
  'PHUDSA',
  'SANS',
  'TEKSATAILSA',
  'SNAIKSA',
]);
const isBusiness = (w: string) => BUSINESS.has(w) || w.startsWith('PHARMA');

const fold = (w: string) => romanise(w);
/** Consonants only, doubled ones once, X as KS, Y and H as vowels: a Devanagari spelling and a Latin one meet here. */
const skeletonOf = (key: string) =>
  fold(key)
    .replace(/X/g, 'KS')
    .replace(/[AEIOUYH]/g, '')
    .replace(/(.)\1+/g, '$1');

/** Initials run together: A B C, A.B.C. and ABC are one word (and L.L.P. is LLP). */
function joinInitials(words: string[]): string[] {
  const out: string[] = [];
  let run = false;
  for (const w of words) {
    const single = w.length === 1 && /[A-Z]/.test(w);
    if (single && run) out[out.length - 1] += w;
    else out.push(w);
    run = single;
  }
  return out;
}

function partOf(text: string, role: OwnerPart['role']): OwnerPart | null {
  const parentAt = PARENT.exec(text);
  // The parent's name without LATE or a title: S/O LATE SH. HARBANS SINGH is SON OF HARBANS SINGH.
  const parentWords = parentAt
    ? normaliseMark(text.slice(parentAt.index + parentAt[0].length))
        .split(' ')
        .filter(Boolean)
    : [];
  while (parentWords.length > 1 && TITLES.has(parentWords[0])) parentWords.shift();
  const parent = parentWords.length ? parentWords.map(fold).join('') : null;
  let name = (parentAt ? text.slice(0, parentAt.index) : text).replace(/\(\s*HUF\s*\)/gi, ' HUF');
  for (let d = DESCRIPTOR.exec(name); d && d.index > 0; d = DESCRIPTOR.exec(name)) name = name.slice(0, d.index);
  const initials = INITIALS.exec(name);
  if (initials && initials.index > 0) {
    const firsts = normaliseMark(name.slice(0, initials.index))
      .split(' ')
      .map((w) => w[0])
      .join('');
    if (firsts.startsWith(initials[1].toUpperCase())) name = name.slice(0, initials.index);
  }
  // M/S before the initials are run together (M/S S.K. JEWELLERS is not MSSK).
  name = name.replace(/^\s*(?:M\s*\/\s*S\b\.?|MESS?E?RS\b\.?)\s*/i, '');
  let words = normaliseMark(name.replace(/&/g, ' AND ')).split(' ').filter(Boolean);
  for (let i = 0; i + 1 < words.length; i++) {
    const two = PAIRS[`${words[i]} ${words[i + 1]}`];
    if (two) words.splice(i, 2, ...two.split(' '));
  }
  words = joinInitials(words.map((w) => WORDS[w] ?? w));
  // Legal forms and roles at the end; LIMITED LIABILITY PARTNERSHIP is an LLP.
  let legal: OwnerPart['legal'] = 'other';
  const tail = words.slice(-3).join(' ');
  if (tail === 'LIMITED LIABILITY PARTNERSHIP') {
    words = words.slice(0, -3);
    legal = 'llp';
  }
  while (words.length > 1) {
    const last = words[words.length - 1];
    if (LLP.has(last)) legal = 'llp';
    else if (COMPANY.has(last)) legal = legal === 'llp' ? 'llp' : 'company';
    else if (!ROLES.has(last)) break;
    words.pop();
  }
  // At the start: M/S, MESSRS, THE; and a person's titles, which say the person's gender.
  let gender: OwnerPart['gender'] = null;
  const person = legal === 'other' && !words.some(isBusiness);
  for (;;) {
    const two = `${words[0]} ${words[1]}`;
    if (words.length > 2 && FIRM_PREFIX.has(two)) words = words.slice(2);
    else if (words.length > 1 && FIRM_PREFIX.has(words[0])) words = words.slice(1);
    else if (words.length > 1 && person && (MALE.has(words[0]) || FEMALE.has(words[0]) || NEUTRAL.has(words[0]))) {
      if (!NEUTRAL.has(words[0])) gender = MALE.has(words[0]) ? 'm' : 'f';
      words = words.slice(1);
    } else break;
  }
  const joined = words;
  for (let i = joined.length - 1; i > 0; i--) if (joined[i] === 'CO' && joined[i - 1] === 'AND') joined.splice(i - 1, 1);
  const key = joined.map(fold).join('');
  if (!key) return null;
  return { role, key, skeleton: skeletonOf(joined.join('')), legal, gender, parent };
}

/** A proprietor name read into its parts (one, or two for a trading-as or formerly form). */
export function ownerParts(name: string): OwnerPart[] {
  const indic = hasIndic(name);
  const text = indic ? romaniseIndic(name) : name;
  const parts: OwnerPart[] = [];
  const push = (t: string, role: OwnerPart['role']) => {
    const p = partOf(t, role);
    if (p) parts.push(p);
  };
  const former = FORMERLY.exec(text);
  const current = former && former.index > 0 ? text.slice(0, former.index) : text;
  if (former && former.index > 0) push(text.slice(former.index + former[0].length).replace(/\)\s*$/, ''), 'former');
  const forward = PERSON_FIRST.exec(current);
  const reverse = forward ? null : TRADE_FIRST.exec(current);
  if (forward && forward.index > 0) {
    push(current.slice(0, forward.index), 'person');
    push(current.slice(forward.index + forward[0].length), 'trade');
  } else if (reverse && reverse.index > 0) {
    push(current.slice(0, reverse.index), 'trade');
    push(current.slice(reverse.index + reverse[0].length).replace(/\)\s*$/, ''), 'person');
  } else push(current, 'whole');
  return parts;
}

const compatible = (x: OwnerPart, y: OwnerPart, bySound: boolean) =>
  (bySound ? x.skeleton === y.skeleton : x.key === y.key) &&
  x.legal === y.legal &&
  (x.gender === null || y.gender === null || x.gender === y.gender) &&
  (x.parent === null || y.parent === null || x.parent === y.parent);

/**
 * Whether two proprietor names are one owner: when both name a person trading under a name, the persons decide (two
 * people trading as one name are two owners); otherwise any two parts alike (a trade name alone is its proprietor's).
 * A name in an Indic script is compared with the other by the consonants of its reading.
 */
export function sameOwner(a: string, b: string): boolean {
  const pa = ownerParts(a);
  const pb = ownerParts(b);
  const bySound = hasIndic(a) !== hasIndic(b);
  const persons = (ps: OwnerPart[]) => ps.filter((p) => p.role === 'person');
  if (persons(pa).length && persons(pb).length) return persons(pa).some((x) => persons(pb).some((y) => compatible(x, y, bySound)));
  return pa.some((x) => pb.some((y) => compatible(x, y, bySound)));
}

/** The keys a name is grouped by: each part's key with its kind of legal person. */
export const ownerKeys = (name: string): string[] => [...new Set(ownerParts(name).map((p) => `${p.key}|${p.legal}`))];

/** An entity's id from the key it is named by: the same key always gives the same id. */
export const entityIdOf = (key: string): string => `own_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
