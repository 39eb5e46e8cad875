import { expect } from 'chai';
import type { WatchProbe } from '../../src/watches/repository.ts';
import { WatchIndex } from '../../src/watches/watchIndex.ts';

// The watch index: a new mark meets only the watches of its trade that share a key with its words
// (spelt, sounded, translated, run together), or every logo watch of its trade when it has a logo.

const watch = (id: string, word_mark: string | null, classes: number[], logo = false): WatchProbe => ({
  id,
  account_id: 'a',
  webhook_id: 'h',
  word_mark,
  logo: logo ? { model: 'm', dims: 2, vector: '[1,0]' } : null,
  classes,
  min_risk: 'Medium',
});

const WATCHES = [
  watch('sunrise', 'SUNRISE FOODS', [30]),
  watch('royal', 'ROYAL STAR', [9]),
  watch('moon', 'MOONBEAM', [30]),
  watch('suraj', 'SURAJ', [29]),
  watch('logo', null, [32], true),
];

// FOODS is common in food: the weight a register would give it keeps it from keying SUNRISE FOODS.
const index = new WatchIndex(WATCHES, () => (w) => (w === 'FOODS' ? 0.1 : 0.9));
const met = (word_mark: string, class_number: number, has_logo = false) =>
  [...index.candidates({ word_mark, class_number, has_logo })].map((w) => w.id).sort();

describe('similarity watches: the watch index', () => {
  it('meets the watches of the mark’s trade sharing a spelt or sounded word', () => {
    expect(met('SUNRISE', 30)).to.deep.equal(['sunrise']);
    expect(met('SUNRYSE TEA', 31)).to.deep.equal(['sunrise']);
    // Run together it is SUNRISE; its SUN is SURAJ in Hindi.
    expect(met('SUN RISE', 43)).to.deep.equal(['sunrise', 'suraj']);
    expect(met('ROYALE STARS', 9)).to.deep.equal(['royal']);
  });

  it('meets a watch through a translation', () => {
    expect(met('SUN', 30)).to.deep.equal(['suraj']);
  });

  it('leaves out the watches of other trades and of other words, and keys no common word', () => {
    expect(met('SUNRISE', 9)).to.deep.equal([]);
    expect(met('ROYAL STAR', 30)).to.deep.equal([]);
    expect(met('BLUEBERRY', 30)).to.deep.equal([]);
    expect(met('FRESH FOODS', 30)).to.deep.equal([]);
  });

  it('meets every logo watch of its trade when the mark has a logo', () => {
    expect(met('BLUEBERRY', 29, true)).to.deep.equal(['logo']);
    expect(met('BLUEBERRY', 9, true)).to.deep.equal([]);
  });
});
