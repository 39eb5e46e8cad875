import { expect } from 'chai';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectBadParam } from '../helpers/http.ts';

describe('reference data endpoints', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  const get = (path: string) => t.get(path);

  describe('GET /v1/reference/well-known-marks/', () => {
    const path = '/v1/reference/well-known-marks/';

    it('lists all 44 marks alphabetically with a coverage note', async () => {
      const res = await get(path);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ count: 44, limit: 50, offset: 0 });
      expect(res.body.results).to.have.length(44);
      expect(res.body.results[0]).to.include({
        mark: "7 O'CLOCK",
        proprietor: 'Gillette U.K. Ltd., England',
        source_kind: 'registry_list',
        confidence: 'high',
      });
      expect(res.body.results[0]).to.have.keys('id', 'mark', 'proprietor', 'source_kind', 'date_or_journal', 'source_url', 'confidence');
      expect(res.body.coverage)
        .to.match(/partial/i)
        .and.contain('44');
    });

    it("finds 7 O'CLOCK case-insensitively, first", async () => {
      const res = await get(path).query({ q: "7 o'clock" });
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(1);
      expect(res.body.results[0].mark).to.equal("7 O'CLOCK");
    });

    it('matches the proprietor too, ranking a mark hit first', async () => {
      const res = await get(path).query({ q: 'gillette' });
      expect(res.body.results.map((r: { mark: string }) => r.mark)).to.deep.equal(['GILLETTE', "7 O'CLOCK"]);
      const lv = await get(path).query({ q: 'louis vuitton' });
      expect(lv.body.count).to.equal(4);
    });

    it('finds a misspelt mark by trigram similarity', async () => {
      const res = await get(path).query({ q: 'Maggie' });
      expect(res.body.results[0].mark).to.equal('MAGGI');
    });

    it('treats LIKE wildcards in q literally', async () => {
      const res = await get(path).query({ q: '%' });
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(0);
    });

    it('pages with limit and offset, keeping the total', async () => {
      const all = await get(path);
      const res = await get(path).query({ limit: 2, offset: 1 });
      expect(res.body).to.include({ count: 44, limit: 2, offset: 1 });
      expect(res.body.results).to.deep.equal(all.body.results.slice(1, 3));
      const past = await get(path).query({ offset: 500 });
      expect(past.body).to.include({ count: 44 });
      expect(past.body.results).to.deep.equal([]);
    });

    it('refuses bad limits, offsets and q with a 400 naming the parameter', async () => {
      expectBadParam(await get(path).query({ limit: 0 }), 'limit');
      expectBadParam(await get(path).query({ limit: 101 }), 'limit');
      expectBadParam(await get(path).query({ limit: 'ten' }), 'limit');
      expectBadParam(await get(path).query({ limit: 2.5 }), 'limit');
      expectBadParam(await get(path).query({ offset: -1 }), 'offset');
      expectBadParam(await get(path).query({ q: 'x'.repeat(201) }), 'q');
      expectBadParam(await get(`${path}?q=a&q=b`), 'q');
    });

    it('is 403 without cat_well_known', async () => {
      const res = await (await t.without('cat_well_known')).get(path);
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('category_not_on_plan');
      expect(res.body.details).to.include({ category: 'cat_well_known' });
      const other = await (await t.without('cat_prohibited')).get(path);
      expect(other.status).to.equal(200);
    });
  });

  describe('GET /v1/reference/prohibited-marks/', () => {
    const path = '/v1/reference/prohibited-marks/';

    it('lists the 12 entries with arrays of match terms and sources', async () => {
      const res = await get(path);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ count: 12, limit: 50, offset: 0 });
      const un = res.body.results.find((r: { id: string }) => r.id === 'EN-1');
      expect(un).to.deep.include({ subject: 'United Nations Organisation', kind: 'name_and_emblem', confidence: 'high' });
      expect(un.match_terms).to.deep.equal(['UN', 'UNO', 'United Nations']);
      expect(un.sources).to.have.length(2);
      expect(un.sources[1]).to.equal('https://doca.gov.in/anumati/Home');
      const statutory = res.body.results.find((r: { id: string }) => r.id === 'TMA-13-b');
      expect(statutory.match_terms).to.deep.equal([]);
      expect(res.body.coverage).to.match(/partial/i);
    });

    it('matches subject, description and match terms case-insensitively', async () => {
      const ids = async (q: string) => (await get(path).query({ q })).body.results.map((r: { id: string }) => r.id);
      expect(await ids('world health')).to.deep.equal(['EN-2']);
      expect(await ids('RED CRESCENT')).to.deep.equal(['GC-1']);
      expect(await ids('bapu')).to.deep.equal(['EN-6']);
      expect(await ids('satyameva')).to.deep.equal(['SE-1']);
    });

    it('finds an entry whose term appears as whole words in a candidate mark', async () => {
      const res = await get(path).query({ q: 'UNO Foods Pvt' });
      expect(res.body.results.map((r: { id: string }) => r.id)).to.deep.equal(['EN-1']);
      const none = await get(path).query({ q: 'funo' });
      expect(none.body.count).to.equal(0);
    });

    it('refuses bad paging with a 400 naming the parameter', async () => {
      expectBadParam(await get(path).query({ limit: 101 }), 'limit');
      expectBadParam(await get(path).query({ offset: 'x' }), 'offset');
    });

    it('is 403 without cat_prohibited', async () => {
      const res = await (await t.without('cat_prohibited')).get(path);
      expect(res.status).to.equal(403);
      expect(res.body.details.category).to.equal('cat_prohibited');
    });
  });

  describe('GET /v1/reference/non-proprietary-names/', () => {
    const path = '/v1/reference/non-proprietary-names/';

    it('finds paracetamol exactly, with its Latin and Russian names', async () => {
      const res = await get(path).query({ q: 'Paracetamol' });
      expect(res.status).to.equal(200);
      expect(res.body.results[0]).to.deep.equal({
        eaeu_code: '005325',
        inn_en: 'paracetamol',
        inn_la: 'paracetamolum',
        inn_ru: 'парацетамол',
        match: 'exact',
      });
      expect(res.body.coverage).to.contain('WHO');
    });

    it('ranks exact, then prefix, then substring, then similar spellings', async () => {
      const res = await get(path).query({ q: 'omeprazole' });
      const kinds = res.body.results.map((r: { match: string }) => r.match);
      expect(res.body.results[0].inn_en).to.equal('omeprazole');
      expect(kinds[0]).to.equal('exact');
      expect(res.body.results.map((r: { inn_en: string }) => r.inn_en)).to.include('esomeprazole');
      const order = ['exact', 'prefix', 'substring', 'similar'];
      const ranks = kinds.map((k: string) => order.indexOf(k));
      expect(ranks).to.deep.equal([...ranks].sort((a, b) => a - b));
      const prefix = await get(path).query({ q: 'abaca' });
      expect(prefix.body.results[0]).to.include({ inn_en: 'abacavir', match: 'prefix' });
    });

    it('finds a misspelt INN by trigram similarity', async () => {
      const res = await get(path).query({ q: 'paracetmol' });
      expect(res.body.results[0]).to.include({ inn_en: 'paracetamol', match: 'similar' });
    });

    it('reports the INN stems a candidate mark contains', async () => {
      const res = await get(path).query({ q: 'NEXAMAB' });
      const mab = res.body.matching_stems.find((s: { stem: string }) => s.stem === '-mab');
      expect(mab).to.deep.equal({ stem: '-mab', position: 'suffix', meanings: ['monoclonal antibodies'] });
      const ome = await get(path).query({ q: 'omeprazole' });
      expect(ome.body.matching_stems.map((s: { stem: string }) => s.stem)).to.include('-prazole');
      const phrase = await get(path).query({ q: 'Supermab tablets' });
      expect(phrase.body.matching_stems.map((s: { stem: string }) => s.stem)).to.include('-mab');
      const prefix = await get(path).query({ q: 'cefmax' });
      const cef = prefix.body.matching_stems.find((s: { stem: string }) => s.stem === 'cef-');
      expect(cef).to.include({ position: 'prefix' });
      expect(cef.meanings[0]).to.match(/cef/i);
      const plain = await get(path).query({ q: 'sunrise' });
      expect(plain.body.matching_stems).to.deep.equal([]);
    });

    it('lists all names alphabetically without q, and no stems', async () => {
      const res = await get(path);
      expect(res.body.count).to.equal(9347);
      expect(res.body.results).to.have.length(50);
      expect(res.body.results[0]).to.include({ inn_en: 'abacavir', match: null });
      expect(res.body.matching_stems).to.deep.equal([]);
    });

    it('refuses bad paging with a 400 naming the parameter', async () => {
      expectBadParam(await get(path).query({ limit: 101 }), 'limit');
      expectBadParam(await get(path).query({ limit: 0 }), 'limit');
      expectBadParam(await get(path).query({ offset: -5 }), 'offset');
    });

    it('is 403 without cat_inn_names', async () => {
      const res = await (await t.without('cat_inn_names')).get(path).query({ q: 'paracetamol' });
      expect(res.status).to.equal(403);
      expect(res.body.details.category).to.equal('cat_inn_names');
    });
  });

  describe('GET /v1/reference/stamp-duty/', () => {
    const path = '/v1/reference/stamp-duty/';

    it('gives Maharashtra its affidavit duty as a number', async () => {
      const res = await get(path).query({ state: 'Maharashtra' });
      expect(res.status).to.equal(200);
      expect(res.body.state).to.deep.equal({ iso_3166_2: 'IN-MH', code: 'MH', name: 'Maharashtra' });
      expect(res.body.count).to.equal(1);
      expect(res.body.results[0]).to.include({
        instrument: 'affidavit',
        state: 'Maharashtra',
        iso_3166_2: 'IN-MH',
        amount_inr: 100,
        basis: 'fixed',
      });
      expect(res.body.coverage).to.match(/partial/i);
    });

    it('accepts the state as any-case name, ISO code or short code', async () => {
      for (const state of ['maharashtra', 'IN-MH', 'in-mh', 'MH', 'mh', 'Mahārāshtra']) {
        const res = await get(path).query({ state });
        expect(res.body.state?.iso_3166_2, state).to.equal('IN-MH');
      }
    });

    it('filters by instrument, and keeps missing amounts as null', async () => {
      const poa = await get(path).query({ instrument: 'power_of_attorney' });
      expect(poa.body.count).to.equal(11);
      expect(poa.body.instrument).to.equal('power_of_attorney');
      const assam = poa.body.results.find((r: { iso_3166_2: string }) => r.iso_3166_2 === 'IN-AS');
      expect(assam).to.include({ amount_inr: null, basis: 'see schedule' });
      const ap = await get(path).query({ state: 'AP', instrument: 'power_of_attorney' });
      expect(ap.body.results.map((r: { amount_inr: number | null }) => r.amount_inr)).to.have.members([null, 20]);
    });

    it('lists all 39 rows without filters', async () => {
      const res = await get(path);
      expect(res.body).to.include({ count: 39, state: null, instrument: null });
    });

    it('answers a known state without data with no rows', async () => {
      const res = await get(path).query({ state: 'Sikkim' });
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(0);
      expect(res.body.state.iso_3166_2).to.equal('IN-SK');
    });

    it('refuses an unknown state or instrument with a 400 naming it', async () => {
      expectBadParam(await get(path).query({ state: 'Atlantis' }), 'state');
      expectBadParam(await get(path).query({ instrument: 'deed' }), 'instrument');
    });

    it('is 403 without cat_stamp_duty', async () => {
      const res = await (await t.without('cat_stamp_duty')).get(path).query({ state: 'MH' });
      expect(res.status).to.equal(403);
      expect(res.body.details.category).to.equal('cat_stamp_duty');
    });
  });

  it('refuses NUL in free text with a 400 naming the parameter, not a database error', async () => {
    for (const p of ['well-known-marks', 'prohibited-marks', 'non-proprietary-names']) {
      expectBadParam(await get(`/v1/reference/${p}/?q=a%00b`), 'q');
    }
    expectBadParam(await get('/v1/reference/stamp-duty/?state=a%00b'), 'state');
  });

  it('takes limit and offset as plain digits only: 0x7, " 7" and 7e0 are not 7', async () => {
    const path = '/v1/reference/well-known-marks/';
    for (const bad of ['0x7', '%207', '7e0', '7.0', '+7', '']) {
      expectBadParam(await get(`${path}?limit=${bad}`), 'limit');
      expectBadParam(await get(`${path}?offset=${bad}`), 'offset');
    }
    expectBadParam(await get(`${path}?limit=${'9'.repeat(30)}`), 'limit');
    const ok = await get(`${path}?limit=007&offset=01`);
    expect(ok.body).to.include({ limit: 7, offset: 1 });
  });

  it('documents the numeric parameters as integers with their defaults and ranges', () => {
    const doc = t.openapi as { paths: Record<string, { get: { parameters: { name: string; schema: object }[] } }> };
    const params = doc.paths['/v1/reference/well-known-marks/'].get.parameters;
    expect(params.find((p) => p.name === 'limit')!.schema).to.include({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
    expect(params.find((p) => p.name === 'offset')!.schema).to.include({ type: 'integer', minimum: 0, default: 0 });
  });

  it('describes every reference endpoint and shape in the OpenAPI document', async () => {
    const doc = t.openapi as {
      paths: Record<string, { get: { parameters?: { name: string }[] } }>;
      components: { schemas: Record<string, unknown> };
    };
    for (const p of ['well-known-marks', 'prohibited-marks', 'non-proprietary-names', 'stamp-duty']) {
      expect(doc.paths).to.have.property(`/v1/reference/${p}/`);
    }
    expect(doc.paths['/v1/reference/stamp-duty/'].get.parameters?.map((p) => p.name)).to.have.members(['state', 'instrument']);
    expect(doc.components.schemas).to.include.keys(
      'WellKnownMarkList',
      'ProhibitedMarkList',
      'NonProprietaryNameList',
      'InnStemMatch',
      'StampDutyList',
      'StampDuty',
    );
    // The nullable `state` must not make the shared component nullable.
    expect((doc.components.schemas.StateRef as { type: unknown }).type).to.equal('object');
  });
});
