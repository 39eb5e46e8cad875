import { expect } from 'chai';
import { TextList } from '../../src/search/textList.ts';

describe('a text list (strings kept as bytes, decoded when read)', () => {
  it('gives back each entry as written, in any script, and tells no entries from one empty one', () => {
    const words = ['AMUL', 'सनराइज', '', 'ÉCLAT', 'ZEE 5', 'ஸ்ரீ'];
    const list = TextList.of(words);
    expect(list.length).to.equal(words.length);
    expect(Array.from({ length: list.length }, (_, i) => list.at(i))).to.deep.equal(words);
    expect(TextList.of([]).length).to.equal(0);
    expect(TextList.of(['']).length).to.equal(1);
    expect(TextList.of(['']).at(0)).to.equal('');
    // From the bytes a snapshot holds, with their count.
    const again = new TextList(Buffer.from(list.bytes), words.length);
    expect(again.at(1)).to.equal('सनराइज');
  });

  it('refuses an entry with a newline, and bytes that do not hold the count given', () => {
    expect(() => TextList.of(['A\nB'])).to.throw(/newline/);
    expect(() => new TextList(Buffer.from('A\nB'), 3)).to.throw(/3 entries holds 2/);
    expect(() => new TextList(Buffer.from('A\nB\nC'), 2)).to.throw(/holds more/);
  });
});
