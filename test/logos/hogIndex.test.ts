import { expect } from 'chai';
import { HOG_INDEX_DIMS, projectHog } from '../../src/logos/hogIndex.ts';

// The HOG vectors' projection concept search finds candidates by (src/logos/hogIndex.ts): the same for a vector every
// time, unit length, and keeping cosines near what they were, so that the nearest HOG vectors are the projection's too.

/** A HOG-like vector: 900 non-negative numbers, unit length, drawn from a seed. */
function hogLike(seed: number): number[] {
  let s = seed;
  const v = Array.from({ length: 900 }, () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) / 2 ** 24;
  });
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}
const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0) / (Math.hypot(...a) * Math.hypot(...b));

describe('the HOG index: a projection of the HOG vectors', () => {
  it('is the same for a vector every time, unit length, of 256 numbers', () => {
    const v = hogLike(1);
    const p = projectHog(v);
    expect(p).to.have.length(256);
    expect(Math.hypot(...p)).to.be.closeTo(1, 1e-9);
    expect(projectHog(v)).to.deep.equal(p);
    expect(projectHog(new Array(900).fill(0))).to.deep.equal(new Array(HOG_INDEX_DIMS).fill(0));
  });

  it('keeps cosines between HOG vectors near what they were, and the nearer of two nearer', () => {
    const base = hogLike(7);
    // Vectors at every distance from the base: the base with more and more of another mixed in.
    const others = Array.from({ length: 20 }, (_, k) => {
      const o = hogLike(100 + k);
      const t = k / 20;
      return base.map((x, i) => (1 - t) * x + t * o[i]);
    });
    const pb = projectHog(base);
    for (const o of others) expect(Math.abs(cos(projectHog(o), pb) - cos(o, base))).to.be.below(0.08);
    // The order of nearness is kept where the cosines stand apart.
    const order = (f: (o: number[]) => number) =>
      others
        .map((o, k) => [f(o), k] as const)
        .sort((a, b) => b[0] - a[0])
        .map(([, k]) => k);
    expect(order((o) => cos(projectHog(o), pb)).slice(0, 5)).to.deep.equal(order((o) => cos(o, base)).slice(0, 5));
  });
});
