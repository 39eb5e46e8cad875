import { expect } from 'chai';
import { IndexBuilder, type MarkRow } from '../../src/search/build.ts';
import { SearchEngine } from '../../src/search/engine.ts';
import { type CandidateSide, wordCandidates } from '../../src/threats/candidates.ts';
import { relatedClasses } from '../../src/threats/classes.ts';
import { markForm } from '../../src/threats/compare.ts';
import { engineWeights, roughWeights } from '../../src/threats/weights.ts';

// Word candidates of a proposal screened in several class groups at once (src/threats/candidates.ts): the
// searches the groups share are made once over all their classes, and each group must still get exactly
// the candidates it gets screened alone, however its caps fill.

function row(appNo: number, wordMark: string, cls: number): MarkRow {
  return { appNo, wordMark, cls, status: 'Registered', tmType: 'WORD', filingMode: 'E-FILING', state: 'MAHARASHTRA' };
}

const CLASSES = [30, 9, 25, 35];
const WORDS = ['GOLD', 'ROYAL', 'FOODS', 'TECH', 'STAR', 'SUNRIZE', 'SUNRISES', 'SONRISE', 'RISE', 'SUN'];

/** A register where SUNRISE and its respellings are held hundreds of times in each group, more than any cap. */
function register(): SearchEngine {
  const b = new IndexBuilder();
  let n = 1000;
  for (let i = 0; i < 1600; i++) {
    const w = WORDS[i % WORDS.length];
    const other = WORDS[(i * 7 + 3) % WORDS.length];
    const text =
      i % 5 === 0 ? `SUNRISE ${w}` : i % 5 === 1 ? `${w} SUNRISE ${other}` : i % 5 === 2 ? `${w} ${other}` : `${w}${i % 3 ? '' : ' SUN'}`;
    b.add(row(n++, text, CLASSES[(i * 13) % CLASSES.length]));
  }
  for (const [text, cls] of [
    ['SUNRISE GOLD', 30],
    ['SUNRISEGOLD', 9],
    ['SUN RISE GOLD', 25],
    ['SUNRIZE GOLDEN', 35],
  ] as const) {
    b.add(row(n++, text, cls));
  }
  return new SearchEngine(b.finish(), 0);
}

function sidesOf(engine: SearchEngine, text: string, classes: number[]): CandidateSide[] {
  return classes.map((c) => {
    const related = relatedClasses(c);
    return { form: markForm(text, engineWeights(engine, related)), classes: related, weight: roughWeights(engine, related) };
  });
}

const context = { day: Number.POSITIVE_INFINITY, standing: () => 1 };
const apps = (m: Map<string, unknown>) => [...m.keys()].sort();

describe('threats: word candidates in several class groups', () => {
  it('finds for each group what it finds screened alone, with and without recent changes', () => {
    const engine = register();
    for (const text of ['SUNRISE GOLD', 'SUNRISE', 'ROYAL SUNRISE FOODS', 'SUNRIZE']) {
      const sides = sidesOf(engine, text, [30, 9, 25]);
      const alone = new Set(sides.flatMap((s) => apps(wordCandidates(engine, [s], context))));
      const together = apps(wordCandidates(engine, sides, context));
      expect(together, text).to.deep.equal([...alone].sort());
      expect(together.length, text).to.be.greaterThan(300);
    }
    engine.apply(
      [
        { seq: 1, appNo: 1000, row: row(1000, 'SUNRISE GOLDEN', 9) },
        { seq: 2, appNo: 1001, row: null },
        { seq: 3, appNo: 9000, row: row(9000, 'SUNRISE', 25) },
      ],
      3,
    );
    const sides = sidesOf(engine, 'SUNRISE GOLD', [30, 9, 25]);
    const alone = new Set(sides.flatMap((s) => apps(wordCandidates(engine, [s], context))));
    const together = apps(wordCandidates(engine, sides, context));
    expect(together).to.deep.equal([...alone].sort());
    expect(together).to.include('9000').and.include('1000').and.not.include('1001');
  });
});
