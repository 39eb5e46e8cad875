import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { IndexBuilder } from '../../src/search/build.ts';
import { SearchEngine } from '../../src/search/engine.ts';
import { exactKey, normaliseMark } from '../../src/search/normalise.ts';
import { prepareQuery } from '../../src/search/query.ts';
import { loadSnapshot, saveSnapshot } from '../../src/search/snapshot.ts';
import { STRATEGIES } from '../../src/search/strategies.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks } from '../helpers/marks.ts';

// Marks and queries in other scripts (docs/search.md, "Other scripts"): Indic scripts romanised,
// Greek and Cyrillic look-alikes folded to Latin, Greek and Cyrillic words transliterated, Æ Œ Ø Ł
// spelled in Latin letters, and EXACT comparing accents folded.

describe('search across scripts', () => {
  describe('normalisation', () => {
    it('romanises Devanagari as the register writes Hindi marks: vowels a consonant carries, dropped where Hindi drops them', () => {
      const cases: [string, string][] = [
        ['श्री गणेश', 'SHRI GANESH'],
        ['हल्दीराम', 'HALDIRAM'],
        ['बीकानेरवाला', 'BIKANERVALA'],
        ['नमकीन', 'NAMKIN'],
        ['भारत', 'BHARAT'],
        ['राजकमल', 'RAJKAMAL'],
        ['पतंजलि', 'PATANJALI'],
        ['कृष्णा', 'KRISHNA'],
        ['लक्ष्मी', 'LAKSHMI'],
        ['सूर्य', 'SURYA'],
        ['अंबिका', 'AMBIKA'],
        ['संगम', 'SANGAM'],
        ['ज्ञान', 'GYAN'],
        ['रूह अफ़ज़ा', 'RUH AFZA'],
        ['घड़ी', 'GHADI'],
        ['फूल महल', 'PHUL MAHAL'],
        ['७८६ बीड़ी', '786 BIDI'],
        ['ॐ साई', 'OM SAI'],
        ['शक्ति-भोग।', 'SHAKTI BHOG'],
      ];
      for (const [mark, latin] of cases) expect(normaliseMark(mark), mark).to.equal(latin);
    });

    it('romanises the other Indic scripts with the same table', () => {
      expect(normaliseMark('শ্রী গণেশ')).to.equal('SHRI GANESH'); // Bengali
      expect(normaliseMark('ਸ੍ਰੀ ਗਣੇਸ਼')).to.equal('SRI GANESH'); // Gurmukhi
      expect(normaliseMark('ਪੱਕਾ')).to.equal('PAKKA');
      expect(normaliseMark('અમૂલ')).to.equal('AMUL'); // Gujarati
      expect(normaliseMark('ଅମୁଲ')).to.equal('AMUL'); // Odia
      expect(normaliseMark('சக்தி')).to.equal('SAKTI'); // Tamil
      expect(normaliseMark('అమూల్')).to.equal('AMUL'); // Telugu
      expect(normaliseMark('ಅಮೂಲ್')).to.equal('AMUL'); // Kannada
      expect(normaliseMark('അമുൽ')).to.equal('AMUL'); // Malayalam, with a chillu
    });

    it('spells Æ, Œ, Ø, Ł and the other Latin letters Unicode does not decompose in plain letters', () => {
      expect(normaliseMark('Æble Œuvre Øresund Łódź')).to.equal('AEBLE OEUVRE ORESUND LODZ');
      expect(normaliseMark('smørrebrød')).to.equal('SMORREBROD');
      expect(normaliseMark('Straße')).to.equal('STRASSE');
      expect(normaliseMark('Þór Đurđa')).to.equal('THOR DURDA');
    });

    it('reads Greek and Cyrillic letters that look Latin as those letters, in marks and queries alike', () => {
      expect(normaliseMark('МОВВI')).to.equal('MOBBI'); // Cyrillic М О В В, Latin I
      expect(normaliseMark('NОКIА')).to.equal('NOKIA'); // Cyrillic О and А
      expect(normaliseMark('СОСА')).to.equal('COCA'); // every letter Cyrillic, every one looks Latin
      expect(normaliseMark('ТОУОТА')).to.equal('TOYOTA');
      expect(normaliseMark('ΚΙΑ')).to.equal('KIA'); // Greek
      expect(normaliseMark('рерsі')).to.equal('PEPSI'); // lower case
      expect(prepareQuery('МОВВI', 'SMART').normalised).to.equal('MOBBI');
    });

    it('transliterates Greek and Cyrillic words', () => {
      expect(normaliseMark('ΑΘΗΝΑ')).to.equal('ATHINA');
      expect(normaliseMark('Αθήνα')).to.equal('ATHINA');
      expect(normaliseMark('ΟΛΥΜΠΟΣ')).to.equal('OLYMPOS');
      expect(normaliseMark('ВОДКА')).to.equal('VODKA');
      expect(normaliseMark('Чайка')).to.equal('CHAIKA');
      expect(normaliseMark('Щука')).to.equal('SHCHUKA');
      expect(normaliseMark('МОЛОКО ЗОЛОТО')).to.equal('MOLOKO ZOLOTO');
    });

    it('keys EXACT with accents and look-alikes folded, punctuation kept, other scripts as written', () => {
      expect(exactKey('Café')).to.equal(exactKey('CAFE'));
      expect(exactKey('NESTLÉ')).to.equal('NESTLE');
      expect(exactKey('Smørrebrød')).to.equal('SMORREBROD');
      expect(exactKey('МОВВI')).to.equal('MOBBI');
      expect(exactKey('Café-Noir')).to.not.equal(exactKey('Cafe Noir'));
      expect(exactKey('श्री  गणेश')).to.equal('श्री गणेश');
      expect(exactKey('श्री गणेश')).to.not.equal(exactKey('SHRI GANESH'));
      expect(exactKey('श्री गणेश')).to.not.equal(exactKey('श्रि गणेश'));
      expect(exactKey('водка')).to.equal('ВОДКА');
    });

    it('gives marks with equal EXACT keys equal normalised forms (EXACT looks marks up by the normalised words)', () => {
      const texts = [
        'Café Noir',
        'CAFÉ-NOIR',
        'Æble',
        'Smørrebrød',
        'Straße',
        'МОВВI',
        'мовві',
        'NОКIА',
        'СОСА-СОЛА',
        'ΑΘΗΝΑ',
        'Αθήνα',
        'Чайка',
        'ЁЛКА',
        'श्री गणेश',
        'फ़्रेश',
        'क़िला',
        'ਸ਼ੇਰ',
        'শ্রী গণেশ',
        'ﬁne ﬂour',
        '７ＵＰ',
      ];
      for (const t of texts) expect(normaliseMark(exactKey(t)), t).to.equal(normaliseMark(t));
      // A precomposed nukta letter and its decomposed spelling are one mark.
      expect(normaliseMark('\u095b')).to.equal(normaliseMark('\u091c\u093c'));
      expect(exactKey('\u095b')).to.equal(exactKey('\u091c\u093c'));
    });
  });

  describe('the index', () => {
    const MARKS: [number, string][] = [
      [1, 'SHREE GANESH'],
      [2, 'श्री गणेश'],
      [3, 'HALDIRAM'],
      [4, 'हल्दीराम नमकीन'],
      [5, 'MOBBI'],
      [6, 'МОВВI'],
      [7, 'CAFÉ NOIR'],
      [8, 'CAFE NOIR'],
      [9, 'Café-Noir'],
      [10, 'ΑΘΗΝΑ'],
      [11, 'SMØRREBRØD'],
      [12, 'SRI GANESH'],
      [13, 'ВОДКА'],
    ];
    const build = () => {
      const b = new IndexBuilder();
      for (const [appNo, wordMark] of MARKS) {
        b.add({ appNo, wordMark, cls: 30, status: 'Registered', tmType: 'WORD', filingMode: 'E-FILING', state: 'DELHI' });
      }
      return b.finish();
    };
    const engine = new SearchEngine(build(), 0);
    const find = (q: string, mode: 'SMART' | 'EXACT' = 'SMART') =>
      engine.search(prepareQuery(q, mode), { classes: null, status: null }, 100, null).hits.map((h) => h.appNo);
    const strategyOf = (q: string, appNo: number) =>
      STRATEGIES[
        engine.search(prepareQuery(q, 'SMART'), { classes: null, status: null }, 100, null).hits.find((h) => h.appNo === appNo)!.strategy
      ];

    it('finds a Latin mark by a Devanagari query and a Devanagari mark by a Latin query, sound-alikes included', () => {
      expect(find('श्री गणेश')).to.include.members([1, 2, 12]);
      expect(strategyOf('श्री गणेश', 2)).to.equal('exact');
      expect(find('SHRI GANESH')).to.include.members([1, 2, 12]);
      expect(find('SRI GANESH')).to.include.members([1, 2, 12]);
      expect(find('SHREE GANESH').slice(0, 3)).to.include.members([1, 2, 12]);
      expect(find('HALDIRAM NAMKEEN')).to.include(4);
      expect(find('हल्दीराम')).to.include.members([3, 4]);
    });

    it('finds a look-alike disguise by the Latin mark, and the Latin mark by the disguise', () => {
      expect(find('MOBBI')).to.include.members([5, 6]);
      expect(find('МОВВI')).to.include.members([5, 6]);
      expect(strategyOf('MOBBI', 6)).to.equal('exact');
    });

    it('finds Greek and Cyrillic words by their transliteration, and letters like Ø by plain ones', () => {
      expect(find('ATHINA')).to.include(10);
      expect(find('ATHENA')).to.include(10);
      expect(find('VODKA')).to.include(13);
      expect(find('SMORREBROD')).to.include(11);
    });

    it('compares EXACT with accents and look-alikes folded: CAFE finds CAFÉ, MOBBI finds МОВВI, punctuation still counts', () => {
      expect(find('cafe noir', 'EXACT')).to.deep.equal([7, 8]);
      expect(find('Café Noir', 'EXACT')).to.deep.equal([7, 8]);
      expect(find('CAFE-NOIR', 'EXACT')).to.deep.equal([9]);
      expect(find('MOBBI', 'EXACT')).to.deep.equal([5, 6]);
      expect(find('Smorrebrod', 'EXACT')).to.deep.equal([11]);
      expect(find('श्री गणेश', 'EXACT')).to.deep.equal([2]);
      expect(find('SHRI GANESH', 'EXACT')).to.deep.equal([]);
    });

    it('refuses a snapshot written before this normalisation, so the index is built anew', async () => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-scripts-')), 'index.snapshot');
      try {
        saveSnapshot(file, build(), 0, 'test');
        expect(await loadSnapshot(file)).to.not.equal(null);
        const bytes = fs.readFileSync(file);
        bytes.write('NSHIDX08', 0, 'latin1');
        fs.writeFileSync(file, bytes);
        expect(await loadSnapshot(file)).to.equal(null);
      } finally {
        fs.rmSync(path.dirname(file), { recursive: true, force: true });
      }
    });
  });

  describe('the API', function () {
    this.timeout(60_000);
    let t: TestApp;
    before(async () => {
      t = await createTestApp();
      await insertMarks(t.deps.db, [
        { app: '7100001', mark: 'श्री गणेश', cls: 30 },
        { app: '7100002', mark: 'SHREE GANESH', cls: 30 },
        { app: '7100003', mark: 'МОВВI', cls: 9 },
        { app: '7100004', mark: 'Café Noir', cls: 30 },
      ]);
    });
    after(async () => t.close());
    const search = async (q: string, mode = 'SMART') =>
      (await t.get(`/v1/trademarks/?word_mark=${encodeURIComponent(q)}&match_type=${mode}`)).body.results as {
        application_number: string;
        word_mark: string;
      }[];

    it('answers a Latin query with the Devanagari mark as registered, and the reverse', async () => {
      const latin = await search('shri ganesh');
      expect(latin.map((r) => r.application_number)).to.include.members(['7100001', '7100002']);
      expect(latin.find((r) => r.application_number === '7100001')!.word_mark).to.equal('श्री गणेश');
      expect((await search('श्री गणेश')).map((r) => r.application_number)).to.include.members(['7100001', '7100002']);
    });

    it('answers MOBBI with the disguised МОВВI, and EXACT cafe noir with Café Noir', async () => {
      expect((await search('MOBBI')).map((r) => r.word_mark)).to.deep.equal(['МОВВI']);
      expect((await search('cafe noir', 'EXACT')).map((r) => r.application_number)).to.deep.equal(['7100004']);
    });
  });
});
