import { distanceFrom } from './editDistance.ts';
import { maxEdits, romanise } from './normalise.ts';
import { STOP_WORDS } from './stopWords.ts';
import { shared, triples } from './strategies.ts';
import type { Vocabulary } from './vocabulary.ts';

/**
 * A word of the register a query word may match: itself (level 0), a spelling variant (1) or a
 * sound-alike (2). `dist` orders matches of a level: twice the spelling distance (numbers measured
 * as words, so 9 and NINE are 0 apart), plus one for a spelling variant that does not also sound
 * alike (TATA: TAATA before TAKA), and one for a connecting word met by another word (THEE as THE).
 */
export interface Related {
  id: number;
  level: number;
  dist: number;
  /** The word's letter triples (pg_trgm's), and how many of them the query word has too: see missSteps. */
  size: number;
  shared: number;
}

/** The spelling distance of a fuzzy match's `dist` (for scores). */
export const editsOf = (dist: number) => dist >> 1;

/**
 * The words a query word matches, best first (by level, then dist). Spelling variants and
 * sound-alikes only for words of three characters or more (variants from four: see maxEdits) or
 * holding a digit; the word itself only when `withSelf`.
 */
export function related(v: Vocabulary, w: string, withSelf: boolean): Related[] {
  let memo = memos.get(v);
  if (!memo) memos.set(v, (memo = new Map()));
  const key = withSelf ? w : ` ${w}`;
  const kept = memo.get(key);
  if (kept) {
    // Most recently used last: the first entry is the one to evict.
    memo.delete(key);
    memo.set(key, kept);
    return unpack(kept);
  }
  const found = find(v, w, withSelf);
  if (memo.size >= MEMO_WORDS) memo.delete(memo.keys().next().value!);
  memo.set(key, pack(found));
  return found;
}

// Finding a common word's relatives reads thousands of candidate words (SHREE: about 3 ms), and the
// same words recur across queries (SHREE, SHREE SAI, ROYAL SHREE): the last MEMO_WORDS words' relatives
// are kept per vocabulary (a vocabulary never changes; a rebuilt index has a new one), packed three numbers
// a relative: as objects, the 300,000 relatives of 4,096 words held 20 MiB of every API process's heap at 7.7M
// marks, and unpacking a word's list again costs a fraction of finding it.
const MEMO_WORDS = 4096;
const memos = new WeakMap<Vocabulary, Map<string, Uint32Array>>();

function pack(rel: readonly Related[]): Uint32Array {
  const out = new Uint32Array(3 * rel.length);
  rel.forEach((r, i) => {
    out[3 * i] = r.id;
    out[3 * i + 1] = (r.level << 24) | r.dist;
    out[3 * i + 2] = (r.size << 16) | r.shared;
  });
  return out;
}

function unpack(p: Uint32Array): Related[] {
  const out: Related[] = new Array(p.length / 3);
  for (let i = 0; i < out.length; i++) {
    const ld = p[3 * i + 1];
    const x = p[3 * i + 2];
    out[i] = { id: p[3 * i], level: ld >>> 24, dist: ld & 0xffffff, size: x >>> 16, shared: x & 0xffff };
  }
  return out;
}

function find(v: Vocabulary, w: string, withSelf: boolean): Related[] {
  const out = new Map<number, Related>();
  const self = v.id(w);
  const mine = triples(w);
  // A connecting word (THE, OF, KA) is no evidence of the word a searcher typed for something else: KING THEE
  // is nearer KING THREE than THE KING, though THEE sounds like THE and is one letter from either.
  const stopFor = STOP_WORDS.has(w) ? 0 : 1;
  const add = (id: number, level: number, dist: number) => {
    const x = shared(mine, v.words.at(id));
    const connecting = id !== self && STOP_WORDS.has(v.words.at(id)) ? stopFor : 0;
    out.set(id, { id, level, dist: dist + connecting, size: x >>> 16, shared: x & 0xffff });
  };
  if (withSelf && self >= 0) add(self, 0, 0);
  // Numbers sound like their words however short they are: 4 SEASONS and FOUR SEASONS, 7 UP and SEVEN UP.
  if (w.length >= 3 || /\d/.test(w)) {
    const alike = v.soundAlikes(w);
    for (const [id, d] of v.variants(w, maxEdits(w.length))) if (!out.has(id)) add(id, 1, 2 * d + (alike.has(id) ? 0 : 1));
    // Digits against number words are compared as words (9 and NINE are 0 apart); other words as spelled.
    const digits = /\d/.test(w);
    let fromRomanised: ((b: string, max: number) => number) | null = null;
    const fromWord = distanceFrom(w);
    for (const id of alike) {
      if (id === self || out.has(id)) continue;
      const x = v.words.at(id);
      // A single letter is an initial, said by its name (S is "ess"): it sounds like no longer word,
      // though its code is SAI's. Counted as one, every mark with an initial S matched SAI.
      if (x.length === 1 && w.length > 1 && !digits && !/\d/.test(x)) continue;
      const d = digits || /\d/.test(x) ? (fromRomanised ??= distanceFrom(romanise(w)))(romanise(x), 3) : fromWord(x, 3);
      add(id, 2, 2 * d);
    }
  }
  return [...out.values()].sort((a, b) => a.level - b.level || a.dist - b.dist);
}
