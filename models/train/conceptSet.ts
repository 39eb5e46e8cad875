import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { catalogue } from '../../src/ingest/generator/catalogue.ts';
import { ICON_SETS, iconNamesOf, iconSvg, SET_BY_PREFIX } from '../../src/ingest/generator/iconSets.ts';

// The npm icon sets as a concept data set (issue 22, item 2). Concepts and their icons come from the
// demo register's concept catalogue (data/icons/catalogue.json: icons grouped by the concept their name
// names, synonyms included, src/ingest/generator/concepts.ts), so training and the demo agree on what
// "the same concept" is. Held out, never read by training:
//   - whole sets: HELD_OUT_SETS (one line-drawing set, one colour emoji set), every icon of them;
//   - whole concepts: a fifth of the concepts (by a hash of the name), every icon of them in every set;
//   - any icon whose name carries a word of a held-out concept (a "cat-outline" the catalogue left out
//     must not teach the held-out cat), which is also kept out of the distractors, where it could be an
//     unlabelled true match.
// A tenth of the concepts validate (choose the checkpoint). Icons of no concept are split too: a quarter
// of those of training sets are learnt as copies (each its own identity), the rest are distractors.

export const CONCEPT_SEED = 20261126;
export const HELD_OUT_SETS = ['tabler', 'fluent-emoji-flat'] as const;
export type ConceptSplit = 'train' | 'val' | 'test';

export interface SetIcon {
  /** `set:name`, as the catalogue keys it. */
  key: string;
  set: string;
  colour: boolean;
  /** The catalogue concept, or null. */
  concept: string | null;
  /**
   * train: learnt (a concept icon with its concept, else a copy identity); val: validates (concept icons
   * of val concepts); test: concept icons of test concepts (the benchmark's queries and positives);
   * distractor: never learnt, the benchmark's other logos; excluded: ambiguous, used nowhere.
   */
  role: 'train' | 'val' | 'test' | 'distractor' | 'excluded';
}

const h100 = (s: string) => parseInt(createHash('sha256').update(`${CONCEPT_SEED}:${s}`).digest('hex').slice(0, 8), 16) % 100;

export function conceptSplit(name: string): ConceptSplit {
  const h = h100(name);
  return h < 20 ? 'test' : h < 30 ? 'val' : 'train';
}

/** Every icon of the catalogue's npm sets with its concept and role; deterministic. */
export function conceptIcons(): SetIcon[] {
  const cat = catalogue();
  const conceptOf = new Map<string, string>();
  for (const c of cat.concepts) for (const k of c.icons) conceptOf.set(k, c.name);
  // Words of held-out (val and test) concepts: an icon named with one is not a clean negative.
  const heldWords = new Set(cat.concepts.filter((c) => conceptSplit(c.name) !== 'train').flatMap((c) => c.words));
  const out: SetIcon[] = [];
  for (const set of ICON_SETS) {
    const colour = SET_BY_PREFIX.get(set.prefix)?.style === 'colour';
    const heldSet = (HELD_OUT_SETS as readonly string[]).includes(set.prefix);
    for (const name of iconNamesOf(set.prefix)) {
      if (name.includes('skin-tone')) continue;
      const key = `${set.prefix}:${name}`;
      const concept = conceptOf.get(key) ?? null;
      let role: SetIcon['role'];
      if (concept) {
        const s = conceptSplit(concept);
        role = s !== 'train' ? s : heldSet ? 'excluded' : 'train';
      } else if (name.split('-').some((w) => heldWords.has(w))) role = 'excluded';
      else role = !heldSet && h100(key) < 25 ? 'train' : 'distractor';
      out.push({ key, set: set.prefix, colour, concept, role });
    }
  }
  return out;
}

/**
 * The icon drawn `size` px square: alpha and ink grey (0 black .. 255 white; a monochrome icon is all
 * black, an emoji keeps the grey of its colours), as the sidecar would see it drawn on white.
 */
export async function iconLayers(icon: SetIcon, size: number): Promise<{ alpha: Uint8Array; ink: Uint8Array }> {
  const { data } = await sharp(iconSvg(icon.key, size))
    .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const alpha = new Uint8Array(size * size);
  const ink = new Uint8Array(size * size);
  for (let p = 0; p < size * size; p++) {
    alpha[p] = data[p * 4 + 3];
    ink[p] = icon.colour ? Math.round(0.299 * data[p * 4] + 0.587 * data[p * 4 + 1] + 0.114 * data[p * 4 + 2]) : 0;
  }
  return { alpha, ink };
}

/** The icon on white, as a PNG (what the benchmark indexes and asks with). */
export async function renderSetIcon(icon: SetIcon, size: number): Promise<Buffer> {
  return sharp(iconSvg(icon.key, size))
    .resize(size, size, { fit: 'contain', background: { r: 255, g: 255, b: 255, alpha: 1 } })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer();
}
