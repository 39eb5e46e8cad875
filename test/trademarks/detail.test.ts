import { expect } from 'chai';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { seedRegistry } from '../helpers/seed.ts';

describe('GET /v1/trademarks/{app_no}/', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await seedRegistry(t.deps.db);
    await t.deps.store.put('logos/4000003.png', Buffer.from('png-bytes'));
  });
  after(async () => t.close());

  it('returns the summary fields in contract formats plus every linked table', async () => {
    const res = await t.get('/v1/trademarks/4000001/');
    expect(res.status).to.equal(200);
    const b = res.body;
    expect(b).to.include({
      application_number: '4000001',
      word_mark: 'SUNRISE FOODS',
      class_number: 30,
      status: 'Registered',
      application_date: '2019-04-12',
      expire_at: '12/04/2029',
      proprietor_name: 'SUNRISE AGRO PRIVATE LIMITED',
      state: 'MAHARASHTRA',
      tm_type: 'WORD',
      filing_mode: 'E-FILING',
      alert: 'Reply pending',
      slug: 'sunrise-foods-4000001',
    });
    expect(b.journal).to.deep.equal({ id: 7, journal_number: '2101', publication_date: '2024-05-06' });
    expect(b.status_history.map((h: { new_status: string }) => h.new_status)).to.deep.equal(['New Application', 'Registered']);
    expect(b.status_history[1].changed_at).to.equal('2020-01-10T09:00:00Z');
    expect(b.proprietors[0].name).to.equal('SUNRISE AGRO PRIVATE LIMITED');
    expect(b.attorneys[0].agent_code).to.equal('AG-1001');
    expect(b.oppositions[0]).to.deep.include({ opposition_number: 'OPP-900001', decision: 'Rejected', decision_date: '2020-01-05' });
    expect(b.oppositions[0].opponent).to.deep.equal({ name: 'SUNSHINE FOODS LTD', address: 'Chennai' });
    expect(b.hearings[0]).to.include({ virtual_room_link: 'https://vc.example.in/r/61', time_slot: '10:30-11:00' });
    expect(b.documents.map((d: { id: number }) => d.id)).to.deep.equal([71, 72]);
    expect(b.exam_reports[0].cited_application_numbers).to.deep.equal(['4000002', '9999999']);
    expect(b.omitted_categories).to.deep.equal([]);
    expect(b.logo).to.equal(null);
  });

  it('gives a device mark an empty word mark and a signed logo link that serves the file', async () => {
    const res = await t.get('/v1/trademarks/4000003/');
    expect(res.status).to.equal(200);
    expect(res.body.word_mark).to.equal('');
    expect(res.body.expire_at).to.equal(null);
    expect(res.body.status_history).to.deep.equal([]);
    expect(res.body.logo.expires_in).to.equal('30 minutes');
    const u = new URL(res.body.logo.url);
    const file = await t.get(u.pathname + u.search);
    expect(file.status).to.equal(200);
    expect(file.headers['content-type']).to.equal('image/png');
    expect(file.body.toString()).to.equal('png-bytes');
  });

  it('leaves out the linked tables whose categories the plan lacks, and names them', async () => {
    const res = await (await t.without('cat_oppositions', 'cat_documents', 'cat_opp_docs')).get('/v1/trademarks/4000001/');
    expect(res.status).to.equal(200);
    expect(res.body).to.not.have.property('oppositions');
    expect(res.body).to.not.have.property('documents');
    expect(res.body.status_history).to.have.length(2);
    expect(res.body.omitted_categories).to.deep.equal(['cat_oppositions', 'cat_documents', 'cat_opp_docs']);
  });

  it('lists opposition filings among the documents only with cat_opp_docs, and names it when it is missing', async () => {
    const pro = await t.client({
      categories: [
        'cat_status_history',
        'cat_proprietor',
        'cat_journal',
        'cat_alert_changes',
        'cat_attorney',
        'cat_oppositions',
        'cat_hearings',
        'cat_documents',
        'cat_exam_reports',
      ],
    });
    const res = await pro.get('/v1/trademarks/4000001/');
    expect(res.body.documents.map((d: { id: number }) => d.id)).to.deep.equal([71]);
    expect(res.body.omitted_categories).to.deep.equal(['cat_opp_docs']);
    // Opposition filings are cat_opp_docs data, whichever other category the plan has.
    const oppOnly = await (await t.without('cat_documents')).get('/v1/trademarks/4000001/');
    expect(oppOnly.body.documents.map((d: { id: number; opposition_id: number }) => [d.id, d.opposition_id])).to.deep.equal([[72, 51]]);
    expect(oppOnly.body.omitted_categories).to.deep.equal(['cat_documents']);
  });

  it('answers an unknown application number with 404 not_found', async () => {
    const res = await t.get('/v1/trademarks/1234/');
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('not_found');
  });

  it('refuses an application number that is not digits with 400 naming app_no', async () => {
    const res = await t.get('/v1/trademarks/abc/');
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('validation_error');
    expect(res.body.details[0].parameter).to.equal('app_no');
  });
});
