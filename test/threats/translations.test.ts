import { expect } from 'chai';
import { romanise } from '../../src/search/normalise.ts';
import { equivalents, listedMeanings, meaningOf } from '../../src/threats/translations.ts';

// The list's promise (src/threats/translations.ts): once folded as search folds words, a form means one
// thing only, and nothing a mark commonly holds for another reason, such as a number, reads as a listed word.
describe('translations list', () => {
  it('gives every folded form one meaning', () => {
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const line of listedMeanings()) {
      for (const w of line) {
        const r = romanise(w);
        const was = owner.get(r);
        if (was && was !== line[0]) clashes.push(`${w} (${line[0]}) folds to ${r} as ${was} does`);
        owner.set(r, line[0]);
      }
    }
    expect(clashes).to.deep.equal([]);
  });

  it('reads a number as the number it is or as nothing, never as a word folding like it', () => {
    const numbers: [string, string][] = [
      ['0', 'ZERO'],
      ['1', 'ONE'],
      ['2', 'TWO'],
      ['3', 'THREE'],
      ['4', 'FOUR'],
      ['5', 'FIVE'],
      ['6', 'SIX'],
      ['7', 'SEVEN'],
      ['8', 'EIGHT'],
      ['9', 'NINE'],
      ['10', 'TEN'],
    ];
    for (const [digits, word] of numbers) {
      for (const form of [digits, word]) {
        const m = meaningOf(form);
        if (m !== undefined) expect(m, form).to.equal(word);
      }
    }
    // THREE and 3 fold as TREE does: the tree is left out of the list rather than read into every 3.
    expect(equivalents('3')).to.deep.equal([]);
    expect(equivalents('THREE')).to.deep.equal([]);
    expect(equivalents('CHAR')).to.deep.equal(['FOUR']);
  });
});
