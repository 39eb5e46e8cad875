import type { Vocabulary } from './vocabulary.ts';
import { boundedDistance } from './editDistance.ts';
import { maxEdits } from './normalise.ts';

/** A word of the register a query word may match: itself (level 0), a spelling variant (1) or a sound-alike (2). */
export interface Related {
  id: number;
  level: number;
  dist: number;
}

/**
 * The words a query word matches, best first (by level, then spelling distance). Spelling variants
 * and sound-alikes only for words of three characters or more (variants from four: see maxEdits);
 * the word itself only when `withSelf`.
 */
export function related(v: Vocabulary, w: string, withSelf: boolean): Related[] {
  const out = new Map<number, Related>();
  const self = v.id(w);
  if (withSelf && self >= 0) out.set(self, { id: self, level: 0, dist: 0 });
  if (w.length >= 3) {
    for (const [id, dist] of v.variants(w, maxEdits(w.length))) if (!out.has(id)) out.set(id, { id, level: 1, dist });
    for (const id of v.soundAlikes(w)) {
      if (id === self || out.has(id)) continue;
      out.set(id, { id, level: 2, dist: boundedDistance(w, v.words[id], 3) });
    }
  }
  return [...out.values()].sort((a, b) => a.level - b.level || a.dist - b.dist);
}
