import { expect } from 'chai';
import { LABELLED_PAIRS } from '../../bench/threats/labelledPairs.ts';
import { Marks } from '../../src/ingest/generator/marks.ts';
import { normaliseMark, wordsOf } from '../../src/search/normalise.ts';
import { compareMarks, markForm } from '../../src/threats/compare.ts';
import { PARAMS, scorePair, weightFor } from '../../src/threats/score.ts';

// The hand-labelled real brand pairs (bench/threats/labelledPairs.ts), scored by the endpoint's code
// with word weights from a generated register of 30,000 marks (as the endpoint takes them from the
// register it serves). Translations count like every other kind; the Hindi and English words of the
// labelled translation pairs are all in the list of meanings (src/threats/translations.ts), so for
// them this checks the scoring of a translation, not the list's coverage (docs/threats.md).

describe('threats: hand-labelled real brand pairs', () => {
  it('keeps High+Medium precision and recall at the calibrated level', () => {
    const generated = new Marks(8, 30_000);
    const holders = new Map<string, number>();
    for (let i = 0; i < generated.n; i++) {
      for (const w of new Set(wordsOf(normaliseMark(generated.core(i).word)))) holders.set(w, (holders.get(w) ?? 0) + 1);
    }
    const weightOf = (w: string) => weightFor(w, holders.get(w) ?? 0, generated.n);
    const scored = LABELLED_PAIRS.map((p) => ({
      p,
      s: scorePair(compareMarks(markForm(p.a, weightOf), markForm(p.b, weightOf)), null, { relation: 'same', live: true, later: false })
        .overall,
    }));
    const flagged = (x: { s: number }) => x.s >= PARAMS.thresholds.medium;
    const tp = scored.filter((x) => x.p.confusing && flagged(x)).length;
    const fp = scored.filter((x) => !x.p.confusing && flagged(x)).length;
    const scorable = scored.filter((x) => x.p.confusing);
    const wrong = scored.filter((x) => flagged(x) !== x.p.confusing).map((x) => `${x.p.a}/${x.p.b} ${x.s}`);
    const precision = tp / (tp + fp);
    const recall = scorable.filter(flagged).length / scorable.length;
    expect(LABELLED_PAIRS.length).to.be.at.least(300);
    // Measured 0.883 once the set grew from 150 to 375 pairs (issue 21): negatives sharing only a common word
    // (BLUE BIRD/BLUE MOUNTAIN, CITY PRIDE/CITY LIGHTS) scored Medium with these weights. With the rule on marks
    // sharing only common words (src/threats/score.ts sharedCommon, chosen on the dev half): 0.922.
    expect(precision, `wrong: ${wrong.join(', ')}`).to.be.at.least(0.9);
    expect(recall, `wrong: ${wrong.join(', ')}`).to.be.at.least(0.95);
  });
});
