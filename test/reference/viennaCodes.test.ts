import { expect } from 'chai';
import { viennaForm, viennaTable } from '../../src/reference/vienna.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectBadParam } from '../helpers/http.ts';

// The Vienna classification as shipped (data/reference/vienna_codes.csv), read once for the importer and
// the logo search filter, and served by GET /v1/reference/vienna-codes/ from the table the loader fills.

type Row = { code: string; level: string; category: string; division: string | null; description: string | null };

describe('Vienna codes', () => {
  describe('the shipped table', () => {
    it('reads every form the file and the register use, printed with two digits a part', () => {
      for (const form of ['03.01.01', '3.1.1', '030101', ' 3.01.1 ']) expect(viennaForm(form), form).to.equal('03.01.01');
      expect(viennaForm('0301')).to.equal('03.01');
      expect(viennaForm('3')).to.equal('03');
      for (const bad of ['301', '03.01.01.01', '3.1.100', 'A1', '', '03-01-01']) expect(viennaForm(bad), bad).to.equal(null);
    });

    it('knows the codes of categories 01-29 and not EUIPO 98/99', () => {
      const t = viennaTable();
      expect(t.codes).to.have.length(2014);
      expect(t.known('3.1.1')).to.equal('03.01.01');
      expect(t.get('03.01.01')).to.deep.equal({
        code: '03.01.01',
        level: 'section',
        category: '03',
        division: '03.01',
        description: 'Lions',
      });
      expect(t.known('28.11')).to.equal('28.11');
      expect(t.known('98.02')).to.equal(null);
      expect(t.known('99')).to.equal(null);
      expect(t.known('03.01.03')).to.equal(null);
    });

    it('gives a code and every code below it', () => {
      const t = viennaTable();
      expect(t.below('03.01.01')).to.deep.equal(['03.01.01']);
      const div = t.below('03.01');
      expect(div[0]).to.equal('03.01');
      expect(div).to.include.members(['03.01.01', '03.01.02', '03.01.28']);
      expect(div.every((c) => c === '03.01' || c.startsWith('03.01.'))).to.equal(true);
      const cat = t.below('03');
      expect(cat).to.include.members(['03', '03.01', '03.07', '03.07.05']);
      expect(cat.some((c) => c.startsWith('04'))).to.equal(false);
    });
  });

  describe('GET /v1/reference/vienna-codes/', () => {
    const path = '/v1/reference/vienna-codes/';
    let t: TestApp;
    before(async () => {
      t = await createTestApp();
    });
    after(async () => t?.close());

    it('lists the classification in order, a code before those below it, with a coverage note', async () => {
      const res = await t.get(path);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ count: 2014, limit: 100, offset: 0 });
      const codes = res.body.results.map((r: Row) => r.code);
      expect(codes.slice(0, 3)).to.deep.equal(['01', '01.01', '01.01.01']);
      expect(res.body.results[0]).to.deep.equal({
        code: '01',
        level: 'category',
        category: '01',
        division: null,
        description: 'CELESTIAL BODIES; NATURAL PHENOMENA; GEOGRAPHICAL MAPS',
      });
      expect(res.body.coverage).to.contain('EUIPO');
    });

    it('narrows to a code and its branch, in any accepted form, and by level and description', async () => {
      const lions = await t.get(path).query({ code: '3.1' });
      expect(lions.status).to.equal(200);
      expect(lions.body.count).to.equal(viennaTable().below('03.01').length);
      expect(lions.body.results.every((r: Row) => r.code === '03.01' || r.code.startsWith('03.01.'))).to.equal(true);
      const one = await t.get(path).query({ code: '030101' });
      expect(one.body.results).to.deep.equal([viennaTable().get('03.01.01')]);
      const cats = await t.get(path).query({ level: 'category', limit: 50 });
      expect(cats.body.count).to.equal(29);
      expect(cats.body.results.every((r: Row) => r.level === 'category' && r.division === null)).to.equal(true);
      const suns = await t.get(path).query({ q: 'sun rising', code: '01' });
      expect(suns.body.results.map((r: Row) => r.code)).to.deep.equal(['01.03.01']);
      const page = await t.get(path).query({ code: '03', level: 'section', limit: 2, offset: 1 });
      expect(page.body.results.map((r: Row) => r.code)).to.deep.equal(['03.01.02', '03.01.04']);
    });

    it('answers an unknown or malformed code, and a bad level, with a 400 naming it', async () => {
      for (const code of ['03.01.03', '98.02', 'lion', '3.1.100']) {
        const res = await t.get(path).query({ code });
        expectBadParam(res, 'code');
      }
      expect((await t.get(path).query({ code: '99.1' })).body.details[0].message).to.contain('unknown Vienna code "99.1"');
      expectBadParam(await t.get(path).query({ level: 'group' }), 'level');
      expectBadParam(await t.get(path).query({ limit: 1001 }), 'limit');
    });
  });
});
