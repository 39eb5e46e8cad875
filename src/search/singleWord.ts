import { splits } from './compounds.ts';
import type { MarkIndex } from './markIndex.ts';
import { maxEdits } from './normalise.ts';
import type { PreparedQuery } from './query.ts';
import { editsOf, related } from './related.ts';
import type { SearchScratch } from './scratch.ts';
import { admitRuns, soundRunsOf, takeRuns, typingLastWord } from './steps.ts';
import {
  missSteps,
  S_ALL_WORDS,
  S_COMPOUND,
  S_EXACT,
  S_LONGER_WORD,
  S_NEAR,
  S_PHONETIC,
  S_PREFIX,
  S_SPELLING,
  S_SUBSTRING,
  S_SUBSTRING_CROSS,
  S_SUFFIX,
  S_WORD,
  slotOf,
  triples,
} from './strategies.ts';

/** A one-word mark that sounds like a query word of this many letters or more, within this many edits, is near. */
const NEAR_SOUND_FROM = 4;
const NEAR_SOUND_EDITS = 2;

const nearSound = (w: string, word: string, dist: number, digits: boolean) =>
  !digits && w.length >= NEAR_SOUND_FROM && editsOf(dist) <= NEAR_SOUND_EDITS && Math.abs(word.length - w.length) <= 1;

/**
 * SMART for a one-word query, strategy by strategy, strongest first: every step pours whole posting
 * lists into the search's seen-bitmap, so a mark is admitted once, by its strongest strategy. Queries
 * of one or two characters stop after whole words.
 */
export function singleWord(ix: MarkIndex, s: SearchScratch, q: PreparedQuery): void {
  const w = q.words[0];
  const v = ix.vocab;
  const d = ix.d;
  const id = v.id(w);
  if (id >= 0) s.takeWord(ix.only, id, 0, w.length);
  s.close(S_EXACT);
  // Words with the prefix are one range of the sorted vocabulary, and so are their first-word postings.
  const [lo, hi] = v.prefixRange(w);
  const short = q.normalised.length <= 2;
  if (short) s.take(ix.first, d.firstOffsets[lo], d.firstOffsets[hi], 0);
  else {
    // A mark is a prefix match when its first word is the query or the query a letter or two longer, as
    // far as spelling reaches (SUNRISES; none up to three letters, where one more is mostly another word:
    // POPE, AIRY); a longer word the query only starts (AIRTEL, LINUXMINT for LINUX) is another word,
    // and comes after the marks holding the query whole (LION AIR): see longer_word.
    const reach = w.length + maxEdits(w.length);
    for (let k = lo; k < hi; k++) if (v.words.lengthOf(k) <= reach) s.takeWord(ix.first, k, 0);
  }
  // Typed without the space: JOYALU → JOY ALUKKAS, KINGFI → KING FISHER.
  if (w.length >= 4) {
    for (let i = 2; i <= w.length - 2; i++) {
      const head = v.id(w.slice(0, i));
      if (head >= 0) typingLastWord(ix, s, [w.slice(0, i), w.slice(i)], [head, -1], true);
    }
  }
  s.close(S_PREFIX);
  if (id >= 0) s.takeWord(ix.post, id, 0);
  s.close(S_WORD);
  if (short) return;
  s.take(ix.first, d.firstOffsets[lo], d.firstOffsets[hi], 0);
  s.close(S_LONGER_WORD);
  // A search that wants pages only stops once they are full (SearchScratch.pagesFull): common words fill
  // them with their own marks, and their variants, pieces and sound-alikes are the most costly steps.
  if (s.pagesFull()) return;
  // Marks that are one word, a spelling variant of the query's: compared as wholes, they are closer
  // than a word the query ends or sits inside. A variant holding the query (ASUNRISE) stays a
  // suffix or substring match, where the contract's users look for it.
  // The query word's letter triples, against each relative's (Related.shared).
  const mine = triples(w);
  const digits = /\d/.test(w);
  for (const r of related(v, w, false)) {
    if (r.level > 2) break;
    const word = v.words.at(r.id);
    // So is a one-word sound-alike within two edits and a letter of the query's length (PLEX for PLEKS,
    // KWALITY for QUALITY): a conflict by ear, which any mark that only holds a variant of the query word
    // among other words had buried. Not for numbers, whose sound-alikes are other numbers spelled out
    // (9TO6 for 9TO9).
    if (r.level === 2 && !nearSound(w, word, r.dist, digits)) continue;
    if (!word.includes(w)) s.takeWord(ix.only, r.id, r.dist, slotOf(missSteps(r.shared, mine.size, r.size), word.length));
  }
  s.close(S_NEAR);
  if (s.pagesFull()) return;

  for (const parts of splits(v, w, [w])) admitRuns(ix, s, parts);
  s.close(S_COMPOUND);
  s.close(S_ALL_WORDS);
  // A word whose postings were all poured already cannot add anything: the query word (all its marks
  // are in after the word step), then every word poured whole by a step below.
  const done = new Set<number>([id]);
  const last = ix.last;
  for (const word of v.withSuffix(w)) if (!done.has(word)) s.takeWord(last, word, 0);
  s.close(S_SUFFIX);
  if (s.pagesFull()) return;
  const post = ix.post;
  for (const word of v.containing(w)) {
    if (done.has(word)) continue;
    done.add(word);
    s.takeWord(post, word, 0);
  }
  s.close(S_SUBSTRING);
  s.close(S_SUBSTRING_CROSS);
  if (s.pagesFull()) return;
  // Variants and sound-alikes come best first (spelling before phonetic, closer before farther), so a
  // mark's first admission is its best. Runs of words that sound like the query (BIKANER VALA for
  // BIKANERWALLA) are spelling variants when spelled within reach, sound-alikes otherwise.
  const runs = w.length >= 4 ? soundRunsOf(ix, s, w, mine) : null;
  const max = maxEdits(w.length);
  let spellingDone = false;
  const closeSpelling = () => {
    if (runs) takeRuns(ix, s, runs, max, false, mine);
    s.close(S_SPELLING);
    spellingDone = true;
  };
  for (const r of related(v, w, false)) {
    if (r.level === 2 && !spellingDone) closeSpelling();
    if (!done.has(r.id)) s.takeWord(post, r.id, r.dist, 0, missSteps(r.shared, mine.size, r.size));
  }
  if (!spellingDone) closeSpelling();
  if (runs) takeRuns(ix, s, runs, max, true, mine);
  s.close(S_PHONETIC);
}
