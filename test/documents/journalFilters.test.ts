import { expect } from 'chai';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks, type MarkSpec } from '../helpers/marks.ts';

// A journal's marks filtered by the fields they carry, as word-mark search filters: class_number and
// classes, status (labels and the groups live, pending, dead), tm_type, filing_mode, state and the
// application date; values in any case, unknown ones a 400 naming the parameter.

const MARKS: MarkSpec[] = [
  { app: '7100001', mark: 'ALPHA', cls: 30, status: 'Advertised', type: 'WORD', state: 'MAHARASHTRA', date: '2021-03-01' },
  { app: '7100002', mark: 'BETA', cls: 29, status: 'Advertised', type: 'DEVICE', state: 'KERALA', mode: 'PHYSICAL', date: '2022-06-15' },
  { app: '7100003', mark: 'GAMMA', cls: 43, status: 'Opposed', type: 'WORD', state: 'KERALA', date: '2023-01-10' },
  { app: '7100004', mark: 'DELTA', cls: 30, status: 'Registered', type: 'WORD', state: 'DELHI', date: '2020-12-31' },
  { app: '7100005', mark: 'EPSILON', cls: 9, status: 'Refused', type: 'DEVICE', state: null, mode: null, date: '2023-05-05' },
  { app: '7100006', mark: 'ZETA', cls: 30, status: 'Withdrawn', type: 'WORD', state: 'DELHI', date: '2021-08-20' },
];
// A mark of another journal that every filter here would keep: it must never be listed.
const ELSEWHERE: MarkSpec = { app: '7100099', mark: 'OTHER', cls: 30, status: 'Advertised', type: 'WORD', date: '2021-03-01' };

type Listing = { count: number; results: { application_number: string; class_number: number; status: string }[] };

describe('journal marks filtered', () => {
  let t: TestApp;
  const list = async (query: string) => {
    const res = await t.get(`/v1/journals/31/trademarks/?${query}`);
    expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(200);
    return res.body as Listing;
  };
  const apps = async (query: string) => {
    const body = await list(query);
    return body.results.map((r) => r.application_number);
  };

  before(async () => {
    t = await createTestApp();
    await t.deps.db('journals').insert([
      { id: 31, journal_number: '3101', publication_date: '2024-06-03' },
      { id: 32, journal_number: '3102', publication_date: '2024-06-10' },
    ]);
    await insertMarks(t.deps.db, [...MARKS, ELSEWHERE]);
    await t.deps
      .db('trademarks')
      .whereIn(
        'application_number',
        MARKS.map((m) => m.app),
      )
      .update({ journal_id: 31 });
    await t.deps.db('trademarks').where({ application_number: ELSEWHERE.app }).update({ journal_id: 32 });
    // The register's values (which a filter may name) are read from the search index: let it see these marks.
    await t.deps.search.sync();
  });
  after(async () => t.close());

  it('lists every mark of the journal, counted, without filters', async () => {
    const body = await list('');
    expect(body.count).to.equal(6);
    expect(body.results.map((r) => r.application_number)).to.deep.equal(MARKS.map((m) => m.app));
  });

  it('keeps the marks of class_number and classes together, and counts only those', async () => {
    expect(await apps('class_number=30')).to.deep.equal(['7100001', '7100004', '7100006']);
    expect(await apps('classes=29,43')).to.deep.equal(['7100002', '7100003']);
    const both = await list('class_number=9&classes=43,%2029');
    expect(both.results.map((r) => r.application_number)).to.deep.equal(['7100002', '7100003', '7100005']);
    expect(both.count).to.equal(3);
    expect(await apps('classes=1')).to.deep.equal([]);
  });

  it('keeps status labels in any case and the groups live, pending and dead', async () => {
    expect(await apps('status=advertised')).to.deep.equal(['7100001', '7100002']);
    expect(await apps('status=OPPOSED,Registered')).to.deep.equal(['7100003', '7100004']);
    expect(await apps('status=live')).to.deep.equal(['7100004']);
    expect(await apps('status=pending')).to.deep.equal(['7100001', '7100002', '7100003']);
    const dead = await list('status=Dead');
    expect(dead.results.map((r) => r.status)).to.deep.equal(['Refused', 'Withdrawn']);
    expect(dead.count).to.equal(2);
    expect(await apps('status=dead,Registered')).to.deep.equal(['7100004', '7100005', '7100006']);
  });

  it('keeps tm_type, filing_mode and state in any case, and every filter together', async () => {
    expect(await apps('tm_type=device')).to.deep.equal(['7100002', '7100005']);
    expect(await apps('filing_mode=physical')).to.deep.equal(['7100002']);
    expect(await apps('state=kerala,Delhi')).to.deep.equal(['7100002', '7100003', '7100004', '7100006']);
    const all = await list('class_number=30&status=live,dead&tm_type=WORD&state=delhi&filing_mode=E-FILING');
    expect(all.results.map((r) => r.application_number)).to.deep.equal(['7100004', '7100006']);
    expect(all.count).to.equal(2);
  });

  it('keeps application dates in the range, both ends inclusive, either form of date', async () => {
    expect(await apps('application_date_from=2021-03-01&application_date_to=2022-06-15')).to.deep.equal(['7100001', '7100002', '7100006']);
    expect(await apps('application_date_to=31/12/2020')).to.deep.equal(['7100004']);
    expect(await apps('application_date_from=2023-01-11')).to.deep.equal(['7100005']);
  });

  it('pages through the filtered marks with the filtered count', async () => {
    const page = await list('status=pending&limit=2&offset=1');
    expect(page).to.include({ count: 3, limit: 2, offset: 1 });
    expect(page.results.map((r) => r.application_number)).to.deep.equal(['7100002', '7100003']);
  });

  it('answers a value the register does not have, or a wrong form, with a 400 naming the parameter', async () => {
    for (const [query, parameter, says] of [
      ['status=Sleeping', 'status', /unknown status "Sleeping".*Registered.*or a group: live, pending, dead/],
      ['tm_type=HOLOGRAM', 'tm_type', /unknown tm_type "HOLOGRAM"; tm_type is one of: .*DEVICE.*WORD/],
      ['filing_mode=FAX', 'filing_mode', /unknown filing_mode/],
      ['state=ATLANTIS', 'state', /unknown state/],
      ['class_number=46', 'class_number', /between 1 and 45/],
      ['classes=30,x', 'classes', /comma/],
      ['classes=30,50', 'classes', /between 1 and 45/],
      ['status=,', 'status', /at least one value/],
      ['application_date_from=2021-02-30', 'application_date_from', /must be a date/],
      ['application_date_from=2022-01-01&application_date_to=2021-01-01', 'application_date_to', /before application_date_from/],
      ['clas_number=30', 'clas_number', /./],
    ] as const) {
      const res = await t.get(`/v1/journals/31/trademarks/?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.code, query).to.equal('validation_error');
      expect(
        res.body.details.map((d: { parameter: string }) => d.parameter),
        query,
      ).to.deep.equal([parameter]);
      expect(res.body.details[0].message, query).to.match(says);
    }
  });

  it('still answers an unknown journal with 404 when its filters are valid', async () => {
    expect((await t.get('/v1/journals/999/trademarks/?status=live')).status).to.equal(404);
  });
});
