import { expect } from 'chai';
import { CLASS_GROUPS, classRelation, relatedClasses } from '../../src/threats/classes.ts';
import { compareMarks, markForm } from '../../src/threats/compare.ts';
import { descriptiveWords } from '../../src/threats/descriptive.ts';
import { PARAMS, riskOf, scorePair, visualScale, weightFor } from '../../src/threats/score.ts';
import {
  editSimilarity,
  firstSyllable,
  jaroWinkler,
  orthographic,
  phonetic,
  soundex,
  soundOf,
  spokenForm,
  trigramSimilarity,
} from '../../src/threats/similarity.ts';

const same = () => 1;
const cmp = (a: string, b: string) => compareMarks(markForm(a, same), markForm(b, same));

describe('threats: similarity measures', () => {
  it('Soundex codes as the standard defines them (H and W do not separate, vowels do)', () => {
    expect(['ROBERT', 'RUPERT', 'ASHCRAFT', 'TYMCZAK', 'PFISTER', 'A', ''].map(soundex)).to.deep.equal([
      'R163',
      'R163',
      'A261',
      'T522',
      'P236',
      'A000',
      '',
    ]);
  });

  it('Jaro-Winkler, edit and trigram similarity: 1 for the same word, known values, lower for farther words', () => {
    expect(jaroWinkler('MARTHA', 'MARHTA')).to.be.closeTo(0.961, 0.001);
    expect(jaroWinkler('DIXON', 'DICKSONX')).to.be.closeTo(0.813, 0.001);
    expect(editSimilarity('NIKE', 'NIKE')).to.equal(1);
    expect(editSimilarity('NIKE', 'NIKEE')).to.equal(0.8);
    expect(trigramSimilarity('SUNRISE', 'SUNRISE')).to.equal(1);
    expect(trigramSimilarity('SUNRISE', 'SUNRIZE')).to.be.greaterThan(trigramSimilarity('SUNRISE', 'MOONLIGHT'));
    expect(firstSyllable('SUNRISE')).to.equal('SUN');
    expect(firstSyllable('ADIDAS')).to.equal('AD');
  });

  it('orthographic similarity is symmetric and ranks closer spellings higher', () => {
    for (const [a, b] of [
      ['NIKE', 'NIKEE'],
      ['HORLICKS', 'HORLIKS'],
      ['TATA', 'TAJ'],
    ])
      expect(orthographic(a, b)).to.equal(orthographic(b, a));
    expect(orthographic('HORLICKS', 'HORLIKS')).to.be.greaterThan(orthographic('HORLICKS', 'HARPIC'));
  });

  it('phonetic similarity folds Indian romanisation and numbers (SHREE/SRI, LAXMI/LAKSHMI, 4/FOUR) but not different words', () => {
    expect(phonetic(soundOf('SHREE'), soundOf('SRI'))).to.equal(1);
    expect(phonetic(soundOf('LAXMI'), soundOf('LAKSHMI'))).to.be.greaterThan(0.9);
    expect(phonetic(soundOf('4'), soundOf('FOUR'))).to.equal(1);
    expect(phonetic(soundOf('BADSHAH'), soundOf('FOODS'))).to.be.lessThan(0.6);
  });

  it('phonetic similarity keeps the vowels and voicing that sound codes drop (PRIDE/BHARAT share the code PRT)', () => {
    expect(soundOf('PRIDE').codes.some((c) => soundOf('BHARAT').codes.includes(c))).to.equal(true);
    expect(phonetic(soundOf('PRIDE'), soundOf('BHARAT'))).to.be.lessThan(0.6);
    expect(phonetic(soundOf('JAIDURGA'), soundOf('JAAITRECHH'))).to.be.lessThan(0.8);
    expect(spokenForm('SRIJI')).to.equal(soundOf('SHREEZI').spoken);
    expect(phonetic(soundOf('SHREEJI'), soundOf('SHREEZI'))).to.equal(1);
    expect(phonetic(soundOf('RAZA'), soundOf('RAJA'))).to.equal(1);
  });
});

describe('threats: comparing marks', () => {
  it('joined and split forms and punctuation compare as the same mark', () => {
    expect(cmp('SUNRISE FOODS', 'Sunrise-Foods')).to.deep.equal({ word: 1, phonetic: 1, exact: true, meaning: 0 });
    expect(cmp('SUN RISE', 'SUNRISE').exact).to.equal(true);
  });

  it('a shared distinctive word weighs more than a shared common one', () => {
    const weights = (w: string) => weightFor(w, w === 'FOODS' || w === 'ROYAL' ? 50_000 : 3, 1_000_000);
    const c = (a: string, b: string) => compareMarks(markForm(a, weights), markForm(b, weights)).word;
    expect(c('SUNRISE FOODS', 'SUNRISE')).to.be.greaterThan(0.8);
    expect(c('ROYAL CHALLENGE', 'ROYAL STAG')).to.be.lessThan(0.6);
  });

  it(
    'the words that describe a trade are its own: ' + 'REMEDIES in medicines, not in food; business words and THE, OF, AND in every trade',
    () => {
      expect(descriptiveWords([5]).has('REMEDIES')).to.equal(true);
      expect(descriptiveWords([29]).has('REMEDIES')).to.equal(false);
      expect(descriptiveWords([29]).has('FOODS')).to.equal(true);
      for (const c of [[1], [25], [45], null])
        for (const w of ['INDUSTRIES', 'THE', 'OF']) expect(descriptiveWords(c).has(w), w).to.equal(true);
    },
  );

  it('marks sharing only a common word, their own distinctive words unlike, stay below Medium; a shared distinctive word does not', () => {
    // BLUE common, yet heavier than BIRD and MOUNTAIN (as a small register weighs them); ZENTRIX coined; AGRO described.
    const weights = (w: string) => ({ BLUE: 0.7, BIRD: 0.5, MOUNTAIN: 0.5, BIRDY: 0.5, ZENTRIX: 0.95, AGRO: 0.1, SEEDS: 0.1 })[w] ?? 1;
    const st = { relation: 'same', live: true, later: false } as const;
    const score = (a: string, b: string) => scorePair(compareMarks(markForm(a, weights), markForm(b, weights)), null, st);
    const off = { ...PARAMS, sharedCommon: { ...PARAMS.sharedCommon, common: 0 } };
    const unruled = scorePair(compareMarks(markForm('BLUE BIRD', weights), markForm('BLUE MOUNTAIN', weights)), null, st, off);
    expect(unruled.risk, 'without the rule').to.not.equal('Low');
    expect(score('BLUE BIRD', 'BLUE MOUNTAIN').risk).to.equal('Low');
    expect(score('BLUE BIRD', 'BLUE BIRDY').risk).to.not.equal('Low');
    expect(score('ZENTRIX BIRD', 'ZENTRIX MOUNTAIN').risk).to.not.equal('Low');
    expect(score('BLUE BIRD AGRO', 'BLUE BIRD SEEDS').risk).to.not.equal('Low');
    expect(score('BLUE BIRD', 'BLUE').risk).to.not.equal('Low');
  });

  it('word weights fall with how many marks hold the word; short words and numbers weigh little', () => {
    expect(weightFor('ZEPHYRA', 1, 1_000_000)).to.be.greaterThan(weightFor('SHREE', 30_000, 1_000_000));
    expect(weightFor('AB', 1, 1_000_000)).to.be.lessThan(weightFor('ABC', 1, 1_000_000));
    expect(weightFor('786', 1, 1_000_000)).to.be.lessThan(weightFor('ABC', 1, 1_000_000));
  });
});

describe('threats: scores, classes and risk levels', () => {
  it('every Nice class is in exactly one group of the relatedness table', () => {
    const all = CLASS_GROUPS.flatMap((g) => g.classes).sort((a, b) => a - b);
    expect(all).to.deep.equal(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(classRelation(30, 30)).to.equal('same');
    expect(classRelation(30, 43)).to.equal('related');
    expect(classRelation(30, 9)).to.equal('unrelated');
    expect(relatedClasses(9)).to.deep.equal([9, 38, 42]);
  });

  it('the thresholds map overall scores to risk levels at their boundaries', () => {
    const { high, medium } = PARAMS.thresholds;
    expect(riskOf(high)).to.equal('High');
    expect(riskOf(high - 0.1)).to.equal('Medium');
    expect(riskOf(medium)).to.equal('Medium');
    expect(riskOf(medium - 0.1)).to.equal('Low');
    expect(riskOf(0)).to.equal('Low');
  });

  it('the overall score falls for a related or unrelated class, a dead mark and a later filing', () => {
    const c = { word: 0.9, phonetic: 0.9, exact: false, meaning: 0 };
    const base = scorePair(c, null, { relation: 'same', live: true, later: false }).overall;
    expect(base).to.equal(90);
    expect(scorePair(c, null, { relation: 'related', live: true, later: false }).overall).to.be.lessThan(base);
    expect(scorePair(c, null, { relation: 'unrelated', live: true, later: false }).overall).to.be.lessThan(
      scorePair(c, null, { relation: 'related', live: true, later: false }).overall,
    );
    expect(scorePair(c, null, { relation: 'same', live: false, later: false }).overall).to.be.lessThan(base);
    expect(scorePair(c, null, { relation: 'same', live: true, later: true }).overall).to.be.lessThan(base);
  });

  it('names the criterion: exact, word, or visual when the logos look more alike than the words read', () => {
    const st = { relation: 'same' as const, live: true, later: false };
    expect(scorePair({ word: 1, phonetic: 1, exact: true, meaning: 0 }, null, st).criterion).to.equal('exact');
    expect(scorePair({ word: 0.8, phonetic: 0.9, exact: false, meaning: 0 }, null, st).criterion).to.equal('word');
    expect(scorePair({ word: 0.3, phonetic: 0.3, exact: false, meaning: 0 }, 0.9, st).criterion).to.equal('visual');
  });

  it("a logo cosine lands on the text scale through the model's thresholds", () => {
    const t = { low: 0.5, medium: 0.7, high: 0.85 };
    expect(visualScale(0.5, t)).to.equal(0.5);
    expect(visualScale(0.85, t)).to.equal(0.85);
    expect(visualScale(1, t)).to.equal(1);
    expect(visualScale(0.6, t)).to.be.within(0.5, 0.7);
  });
});
