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

  it('compares, and finds within, an entry as its string would, without making it', () => {
    // ASCII (the vocabulary's words, compared as bytes) and not (compared as strings), against probes of every kind:
    // equal, shorter, longer, a prefix, a suffix, inside, absent, empty, and in another script.
    const ascii = ['', 'A', 'AB', 'ABC', 'ABCA', 'BC', 'SUNRISE', 'SUNRISES', 'ZEE5', '786'];
    const mixed = [...ascii, 'सनराइज', 'ÉCLAT', 'ஸ்ரீ', '𝐀B'];
    const probes = [
      '',
      'A',
      'B',
      'AB',
      'ABC',
      'ABCAB',
      'BC',
      'CA',
      'SUN',
      'RISE',
      'ISES',
      'SUNRISE',
      'SUNRISF',
      'Z',
      '78',
      '86',
      'सन',
      'राइज',
      'É',
      'B𝐀',
    ];
    const reverse = (x: string) => x.split('').reverse().join('');
    const sign = (x: number) => Math.sign(x);
    for (const words of [ascii, mixed]) {
      const list = TextList.of(words);
      words.forEach((w, i) => {
        expect(list.lengthOf(i), w).to.equal(w.length);
        for (const p of probes) {
          const what = `${w} / ${p}`;
          expect(sign(list.compareAt(i, p)), what).to.equal(w < p ? -1 : w > p ? 1 : 0);
          const rw = reverse(w);
          const rp = reverse(p);
          expect(sign(list.compareReversedAt(i, rp)), what).to.equal(rw < rp ? -1 : rw > rp ? 1 : 0);
          expect(list.startsWithAt(i, p), what).to.equal(w.startsWith(p));
          expect(list.endsWithAt(i, p), what).to.equal(w.endsWith(p));
          expect(list.includesAt(i, p), what).to.equal(w.includes(p));
        }
      });
    }
  });
});
