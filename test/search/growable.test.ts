import { expect } from 'chai';
import { Growable, SHRINK_AFTER_SEARCHES, searchBegun } from '../../src/search/gather.ts';

// A search's growable buffers are kept from search to search: they grow to what a search needs, keeping what is
// in them, and shrink back once searches have long needed far less, so that one large search does not leave
// every API process holding its buffers (docs/architecture.md, "One index per machine").

describe("a search's growable buffers", () => {
  it('grows to the room asked, keeping its contents', () => {
    const g = new Growable();
    g.room(3).set([7, 8, 9]);
    const a = g.room(100_000);
    expect(a.length).to.be.at.least(100_000);
    expect([...a.subarray(0, 3)]).to.deep.equal([7, 8, 9]);
  });

  it('shrinks after many searches asking for under a quarter of it, keeping the room asked and its contents', () => {
    const g = new Growable();
    g.room(1_000_000);
    const a = g.room(5000);
    for (let i = 0; i < 5000; i++) a[i] = i;
    // Asked many times within a search (once an entry, as some callers do), it does not shrink.
    for (let i = 0; i < 10_000; i++) expect(g.room(5000).length).to.be.at.least(1_000_000);
    for (let s = 0; s < SHRINK_AFTER_SEARCHES - 1; s++) {
      searchBegun();
      expect(g.room(5000).length).to.be.at.least(1_000_000);
    }
    searchBegun();
    const small = g.room(5000);
    expect(small.length).to.equal(10_000);
    for (let i = 0; i < 5000; i++) expect(small[i]).to.equal(i);
  });

  it('does not shrink while searches asking for a large part of it keep coming', () => {
    const g = new Growable();
    g.room(1_000_000);
    for (let s = 0; s < 3 * SHRINK_AFTER_SEARCHES; s++) {
      searchBegun();
      g.room(s % 50 === 0 ? 400_000 : 10);
    }
    expect(g.a.length).to.be.at.least(1_000_000);
  });
});
