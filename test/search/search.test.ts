import { expect } from 'chai';
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks, type MarkSpec, SEARCH_RESULT_FIELDS } from '../helpers/marks.ts';

const MARKS: MarkSpec[] = [
  { app: '5000001', mark: 'SUNRISE', cls: 30 },
  { app: '5000002', mark: 'Sunrise Foods', cls: 30, status: 'Objected' },
  { app: '5000003', mark: 'SUNRISEFOODS', cls: 29 },
  { app: '5000004', mark: 'GOLDEN SUNRISE', cls: 43, state: 'DELHI' },
  { app: '5000005', mark: 'SUNRIZE', cls: 30, mode: 'MUMBAI' },
  { app: '5000006', mark: 'NEW SUNRISES', cls: 31, type: 'COMPOSITE' },
  { app: '5000007', mark: 'SUN RISE', cls: 30, state: null },
  { app: '5000008', mark: 'SHREE GANESH', cls: 30 },
  { app: '5000009', mark: 'SRI GANESH', cls: 30 },
  { app: '5000010', mark: 'KINGFISHER', cls: 32 },
  { app: '5000011', mark: 'LEVA', cls: 9 },
  { app: '5000012', mark: 'LEICA', cls: 9 },
  { app: '5000013', mark: 'LIA', cls: 9 },
  { app: '5000014', mark: 'SAI BOLA', cls: 29 },
  { app: '5000015', mark: 'SAI GOLA', cls: 29 },
  { app: '5000016', mark: 'SAI CHOLA', cls: 29 },
  { app: '5000017', mark: 'S K TRADERS', cls: 35 },
  { app: '5000018', mark: 'SAAI S TRADERS', cls: 35 },
  { app: '5000019', mark: 'S K D GARMENTS', cls: 25 },
  { app: '5000020', mark: 'MJ TEXTILES', cls: 24 },
  { app: '5000021', mark: 'HOUSE LOTUS', cls: 3 },
  { app: '5000022', mark: 'HOUSE OF LOTUS', cls: 3 },
  { app: '5000023', mark: 'PHOOL MAHAL', cls: 20 },
  { app: '5000024', mark: 'FOOL MAHAL', cls: 20 },
  ...Array.from({ length: 25 }, (_, i) => ({
    app: String(5000100 + i),
    mark: `SUNRISE ${String.fromCharCode(65 + i)}`,
    cls: 30 + (i % 3),
  })),
];

describe('GET /v1/trademarks/ (word-mark search)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await insertMarks(t.deps.db, MARKS);
  });
  after(async () => t.close());

  const search = (qs: string) => t.get(`/v1/trademarks/?${qs}`);

  it("answers the contract's envelope, results with score and strategy, groups of single-entry objects", async () => {
    const res = await search('word_mark=sunrise&limit=5');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal([
      'query',
      'match_type',
      'count',
      'limit',
      'offset',
      'response_ms',
      'from_cache',
      'results',
      'groups',
      'next_cursor',
    ]);
    expect(res.body).to.include({ query: 'sunrise', match_type: 'SMART', limit: 5, offset: 0 });
    expect(res.body.results).to.have.length(5);
    expect(res.body.results[0]).to.include({ application_number: '5000001', word_mark: 'SUNRISE', strategy: 'exact', score: 100 });
    expect(res.body.results[0]).to.have.keys(...SEARCH_RESULT_FIELDS);
    expect(Object.keys(res.body.groups)).to.deep.equal(['status', 'tm_type', 'filing_mode', 'state', 'class_number']);
    for (const bucket of Object.values(res.body.groups) as Record<string, number>[][]) {
      for (const entry of bucket) expect(Object.keys(entry)).to.have.length(1);
    }
  });

  it('counts every match in count and groups, checked against SQL over the full result list', async () => {
    const all: { application_number: string }[] = [];
    let res = await search('word_mark=sunrise&limit=10');
    all.push(...res.body.results);
    while (res.body.next_cursor) {
      res = await search(`word_mark=sunrise&limit=10&cursor=${res.body.next_cursor}`);
      all.push(...res.body.results);
    }
    expect(all).to.have.length(res.body.count);
    const apps = all.map((r) => r.application_number);
    expect(new Set(apps).size).to.equal(apps.length);
    for (const [facet, column] of [
      ['status', 'status'],
      ['tm_type', 'tm_type'],
      ['filing_mode', 'filing_mode'],
      ['state', 'state'],
      ['class_number', 'class_number'],
    ]) {
      const sql = await t.deps.db.raw(
        `select ${column}::text as k, count(*)::int as n from trademarks
         where application_number = any(?) and ${column} is not null group by 1`,
        [apps],
      );
      const expected = Object.fromEntries(sql.rows.map((r: { k: string; n: number }) => [r.k, r.n]));
      const got = Object.assign({}, ...res.body.groups[facet]);
      expect(got, facet).to.deep.equal(expected);
    }
  });

  it('pages with offset and with the cursor alike, and says when there is no next page', async () => {
    const whole = (await search('word_mark=sunrise&limit=100')).body;
    const byOffset = (await search('word_mark=sunrise&limit=7&offset=7')).body.results.map(
      (r: { application_number: string }) => r.application_number,
    );
    expect(byOffset).to.deep.equal(whole.results.slice(7, 14).map((r: { application_number: string }) => r.application_number));
    const first = (await search('word_mark=sunrise&limit=7')).body;
    const second = (await search(`word_mark=sunrise&limit=7&cursor=${first.next_cursor}`)).body;
    expect(second.results.map((r: { application_number: string }) => r.application_number)).to.deep.equal(byOffset);
    expect(whole.next_cursor).to.equal(null);
    const lastPage = (await search(`word_mark=sunrise&limit=100&offset=${whole.count - 1}`)).body;
    expect(lastPage.results).to.have.length(1);
    expect(lastPage.next_cursor).to.equal(null);
  });

  it('filters by class_number, classes (together: either) and status in any case', async () => {
    const classes = (r: { body: { results: { class_number: number }[] } }) =>
      [...new Set(r.body.results.map((x) => x.class_number))].sort();
    expect(classes(await search('word_mark=sunrise&class_number=29&limit=100'))).to.deep.equal([29]);
    expect(classes(await search('word_mark=sunrise&classes=29,%2043&limit=100'))).to.deep.equal([29, 43]);
    expect(classes(await search('word_mark=sunrise&classes=43&class_number=29&limit=100'))).to.deep.equal([29, 43]);
    const objected = await search('word_mark=sunrise&status=objected');
    expect(objected.body.results.map((r: { application_number: string }) => r.application_number)).to.deep.equal(['5000002']);
    expect(objected.body.groups.status).to.deep.equal([{ Objected: 1 }]);
  });

  it('EXACT matches the whole mark ignoring case and runs of whitespace', async () => {
    const res = await search('word_mark=sunrise%20%20%20FOODS&match_type=exact');
    expect(res.body.match_type).to.equal('EXACT');
    expect(res.body.results.map((r: { application_number: string }) => r.application_number)).to.deep.equal(['5000002']);
    expect((await search('word_mark=SUNRIS&match_type=EXACT')).body.count).to.equal(0);
  });

  it('finds compounds, spelling variants and sound-alikes, each named', async () => {
    const strategy = async (q: string, app: string) =>
      (await search(`word_mark=${q}&limit=100`)).body.results.find((r: { application_number: string }) => r.application_number === app)
        ?.strategy;
    expect(await strategy('SUNRISEFOODS', '5000002')).to.equal('compound');
    expect(await strategy('SUNRISE', '5000007')).to.equal('compound');
    expect(await strategy('SUNRISE', '5000005')).to.equal('near');
    expect(await strategy('SHRI%20GANESH', '5000009')).to.equal('spelling');
    expect(await strategy('SHREE%20GANESH', '5000009')).to.equal('phonetic');
  });

  it('ranks near marks equally far by the letter triples they keep, and scores never rise down the list', async () => {
    // LEIA: LIA sounds alike (half a step closer); LEICA and LEVA are one edit each, LEICA keeps more of
    // LEIA's triples though it is longer.
    const { results } = (await search('word_mark=LEIA')).body as { results: { word_mark: string; strategy: string; score: number }[] };
    const near = results.filter((r) => r.strategy === 'near').map((r) => r.word_mark);
    expect(near).to.deep.equal(['LIA', 'LEICA', 'LEVA']);
    for (let i = 1; i < results.length; i++) expect(results[i].score).to.be.at.most(results[i - 1].score);
  });

  it('ranks spelling matches equally far by the letter triples of the whole mark they keep', async () => {
    // SAI COLA: SAI GOLA sounds alike (half a step closer); SAI BOLA is a letter off, as is SAI CHOLA, which
    // the query dropped a letter of and so keeps more of its triples, though it is longer.
    const { results } = (await search('word_mark=SAI COLA')).body as { results: { word_mark: string; strategy: string; score: number }[] };
    const spelling = results.filter((r) => r.strategy === 'spelling').map((r) => r.word_mark);
    expect(spelling.slice(0, 3)).to.deep.equal(['SAI GOLA', 'SAI CHOLA', 'SAI BOLA']);
    for (let i = 1; i < results.length; i++) expect(results[i].score).to.be.at.most(results[i - 1].score);
  });

  it('finds initials written the other way as compounds: spelled out or run together', async () => {
    const strategyOf = async (q: string, mark: string) => {
      const { results } = (await search(`word_mark=${q}`)).body as { results: { word_mark: string; strategy: string }[] };
      return results.find((r) => r.word_mark === mark)?.strategy;
    };
    expect(await strategyOf('SK D GARMENTS', 'S K D GARMENTS')).to.equal('compound');
    expect(await strategyOf('M J TEXTILES', 'MJ TEXTILES')).to.equal('compound');
  });

  it('ranks the query but its leading article before the query without its connecting words', async () => {
    const { results } = (await search('word_mark=THE HOUSE OF LOTUS')).body as { results: { word_mark: string; strategy: string }[] };
    const all = results.filter((r) => r.strategy === 'all_words').map((r) => r.word_mark);
    expect(all).to.deep.equal(['HOUSE OF LOTUS', 'HOUSE LOTUS']);
  });

  it('lists every mark it counts when marks hold runs of words that sound the same, spelled apart', async () => {
    // FOOL MAHAL holds a run that sounds like PHOOL MAHAL's: the runs are looked up together, and the
    // share of letter triples counted on one must not place the other outside every page.
    const res = await search('word_mark=PHOOL MAHAL&limit=100');
    const marks = (res.body.results as { word_mark: string }[]).map((r) => r.word_mark);
    expect(marks).to.include('FOOL MAHAL');
    expect(marks).to.have.length(res.body.count);
  });

  it('does not take a single letter for a sound-alike of a longer word', async () => {
    // S's sound code is SAI's, but S is an initial ("ess"): S K TRADERS holds nothing like SAI.
    const { results } = (await search('word_mark=SAI S')).body as { results: { word_mark: string; strategy: string }[] };
    const strategies = Object.fromEntries(results.map((r) => [r.word_mark, r.strategy]));
    expect(strategies['SAAI S TRADERS']).to.equal('phonetic');
    expect(strategies['S K TRADERS']).to.not.be.oneOf(['spelling', 'phonetic']);
  });

  for (const [qs, parameter] of [
    ['word_mark=', 'word_mark'],
    ['word_mark=%20%20', 'word_mark'],
    ['word_mark=%21%21', 'word_mark'],
    ['limit=1', 'word_mark'],
    ['word_mark=a&limit=0', 'limit'],
    ['word_mark=a&limit=101', 'limit'],
    ['word_mark=a&match_type=FUZZY', 'match_type'],
    ['word_mark=a&class_number=46', 'class_number'],
    ['word_mark=a&class_number=x', 'class_number'],
    ['word_mark=a&classes=1,46', 'classes'],
    ['word_mark=a&classes=1;2', 'classes'],
    ['word_mark=a&offset=10001', 'offset'],
    ['word_mark=a&offset=-1', 'offset'],
    ['word_mark=a&status=Registerd', 'status'],
    ['word_mark=a&cursor=abc', 'cursor'],
    ['word_mark=a&cursor=abc&offset=5', 'cursor'],
  ] as const) {
    it(`answers 400 naming ${parameter} for ${qs}`, async () => {
      const res = await search(qs);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.code).to.equal('validation_error');
      expect(res.body.details.map((d: { parameter: string }) => d.parameter)).to.include(parameter);
    });
  }

  it('refuses a cursor of another search', async () => {
    const first = (await search('word_mark=sunrise&limit=2')).body;
    const res = await search(`word_mark=golden&limit=2&cursor=${first.next_cursor}`);
    expect(res.status).to.equal(400);
    expect(res.body.details[0].message).to.contain('another search');
  });

  it('answers a repeated search from the cache, until the register changes', async () => {
    const q = 'word_mark=kingfisher&limit=3';
    expect((await search(q)).body.from_cache).to.equal(false);
    const again = (await search(q)).body;
    expect(again.from_cache).to.equal(true);
    expect(again.count).to.equal(1);
    await insertMarks(t.deps.db, [{ app: '5000999', mark: 'KINGFISHER BLUE' }]);
    let after = again;
    for (let i = 0; i < 100 && after.count === 1; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = (await search(q)).body;
    }
    expect(after.count).to.equal(2);
    expect(after.from_cache).to.equal(false);
  });

  it('makes a changed mark searchable under its new words without a restart', async () => {
    await t.deps.db('trademarks').where({ application_number: '5000010' }).update({ word_mark: 'QUEENFISHER' });
    let res: { count: number; results: object[] } = { count: 0, results: [] };
    for (let i = 0; i < 100; i++) {
      res = (await search('word_mark=queenfisher')).body;
      if (res.count > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(res.results[0]).to.include({ application_number: '5000010', strategy: 'exact' });
    expect((await search('word_mark=kingfisher&match_type=EXACT')).body.count).to.equal(0);
  });

  it('charges one api_calls per search and needs a key', async () => {
    const c = await t.client();
    await c.get('/v1/trademarks/?word_mark=sunrise');
    await c.get('/v1/trademarks/?word_mark=');
    expect(await t.used(c.account.accountId, 'api_calls')).to.equal(1);
    expect((await request(t.app).get('/v1/trademarks/?word_mark=sunrise')).status).to.equal(401);
  });
});

describe('GET /public/v1/trademarks/search/', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ PUBLIC_SEARCH_PER_HOUR: '3' });
    await insertMarks(t.deps.db, MARKS);
  });
  after(async () => t.close());

  it("needs no key, answers at most 10 results with the contract's seven fields, and limits searches per address", async () => {
    const res = await request(t.app).get('/public/v1/trademarks/search/?word_mark=sunrise');
    expect(res.status).to.equal(200);
    expect(res.body.count).to.be.greaterThan(10);
    expect(res.body.results).to.have.length(10);
    expect(res.body.results[0]).to.have.keys(
      'application_number',
      'word_mark',
      'class_number',
      'status',
      'application_date',
      'state',
      'tm_type',
    );
    expect((await request(t.app).get('/public/v1/trademarks/search/?word_mark=')).status).to.equal(400);
    await request(t.app).get('/public/v1/trademarks/search/?word_mark=golden');
    const limited = await request(t.app).get('/public/v1/trademarks/search/?word_mark=sunrise');
    expect(limited.status).to.equal(429);
    expect(limited.body.code).to.equal('public_search_limited');
    expect(Number(limited.headers['retry-after'])).to.be.greaterThan(0);
  });
});
