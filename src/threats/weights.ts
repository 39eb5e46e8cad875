import { classMask } from '../search/service.ts';
import type { RegisterView } from '../search/view.ts';
import type { WeightOf } from './compare.ts';
import { descriptiveCap, mayBeCapped } from './descriptive.ts';
import { type HolderWeights, marksIn } from './holders.ts';
import { PARAMS, type ScoreParams, weightFor } from './score.ts';

// How heavy a word is in a comparison, from the register the search index holds.

/**
 * Word weights from the register the engine holds, counted in the given classes (the mark's own and
 * cognate ones): a word many marks of that trade hold (ATTA, RICE in food) weighs little there, and
 * so does a word that describes that trade's goods or services (src/threats/descriptive.ts) however few
 * marks hold it. Memoised while the register's indexes stay the same (the calibration's other parameters
 * for one call): an analysis weighs the words of a thousand candidates, and the next one mostly the same.
 */
export function engineWeights(engine: RegisterView, classes: number[] | null, p: ScoreParams = PARAMS): WeightOf {
  const mask = classes ? classMask(classes) : null;
  const marks = marksIn(engine, mask);
  const cap = descriptiveCap(classes);
  const memo = p === PARAMS ? keptWeights(engine, classes) : new Map<string, number>();
  return (w) => {
    let x = memo.get(w);
    if (x === undefined) {
      x = cap(w, weightFor(w, engine.holders(w, mask), marks, p));
      if (memo.size >= KEPT_WEIGHTS) memo.clear();
      memo.set(w, x);
    }
    return x;
  };
}

// Weights by the register's indexes (a word's holders, and the marks of a trade, change only with them:
// the last index is a new object whenever the base or the index of recent changes is replaced), then
// by the classes weighed in. Emptied when full, like the words' infos (src/threats/similarity.ts).
const KEPT_WEIGHTS = 200_000;
const KEPT_CLASS_SETS = 64;
const kept = new WeakMap<object, Map<string, Map<string, number>>>();

function keptWeights(engine: RegisterView, classes: number[] | null): Map<string, number> {
  const views = engine.views;
  const at = views[views.length - 1];
  if (!at) return new Map();
  let byClasses = kept.get(at);
  if (!byClasses) kept.set(at, (byClasses = new Map()));
  const key = classes ? classes.join(',') : '*';
  let memo = byClasses.get(key);
  if (!memo) {
    // Clearances ask for a few class groups, but a caller may name any set of classes: bounded too.
    if (byClasses.size >= KEPT_CLASS_SETS) byClasses.clear();
    byClasses.set(key, (memo = new Map()));
  }
  return memo;
}

/**
 * A word's weight from its holders in every class, capped for the trade's descriptive words: cheap
 * enough to weigh every word of ten thousand holders of a word, close enough to rank them.
 */
export function roughWeights(engine: RegisterView, classes: number[]): HolderWeights {
  const marks = marksIn(engine, null);
  return { key: ROUGH, plain: (w, holders) => weightFor(w, holders, marks), capped: mayBeCapped, cap: descriptiveCap(classes) };
}

/** The key of roughWeights' plain part: weightFor with the calibration, the same for every trade and mark. */
const ROUGH = {};
