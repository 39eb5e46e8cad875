import { expect } from 'chai';
import request from 'supertest';
import { CATEGORIES } from '../../src/accounts/access.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ManualClock } from '../helpers/clock.ts';
import { binary } from '../helpers/http.ts';
import { seedRegistry } from '../helpers/seed.ts';

/** The path and query of a link, for supertest against the app. */
const local = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe('documents and journal links', () => {
  let t: TestApp;
  const clock = new ManualClock(Date.UTC(2026, 10, 24, 10, 0, 0, 500));
  const exam = Buffer.concat([Buffer.from('%PDF-1.4\nexamination report\n'), Buffer.alloc(40_000, 0x41)]);
  const notice = Buffer.from('%PDF-1.4\nnotice of opposition\n');
  const reply = Buffer.from('%PDF-1.4\nreply\n');
  const journal = Buffer.from('%PDF-1.4\ntrade marks journal 2101\n');

  before(async () => {
    t = await createTestApp({}, { clock });
    await seedRegistry(t.deps.db);
    await t.deps.db('documents').insert({
      id: 73,
      application_number: '4000001',
      opposition_id: null,
      name: 'Reply to "Examination" Report',
      document_type: 'Reply to Examination Report',
      upload_date: '2019-06-20',
      object_key: 'blobs/doc73.pdf',
      size_bytes: reply.length,
    });
    await t.deps.store.put('blobs/doc71.pdf', exam);
    await t.deps.store.put('blobs/doc72.pdf', notice);
    await t.deps.store.put('blobs/doc73.pdf', reply);
    await t.deps.store.put('journals/2101.pdf', journal);
  });
  after(async () => t.close());

  it("lists a mark's documents with 30-minute links whose bytes are the stored file's", async () => {
    const res = await t.get('/v1/trademarks/4000001/documents/');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ application_number: '4000001', count: 2 });
    const [first, second] = res.body.documents;
    expect(first).to.include({
      id: 71,
      name: 'Examination Report',
      document_type: 'Examination Report',
      upload_date: '2019-06-01',
      url_expires_in: '30 minutes',
    });
    expect(second.id).to.equal(73);
    // Exactly 30 minutes from the (whole second of the) clock's now.
    expect(first.url_expires_at).to.equal(new Date(Math.floor(clock.now() / 1000) * 1000 + 30 * 60_000).toISOString());
    const file = await request(t.app).get(local(first.presigned_url)).buffer(true).parse(binary);
    expect(file.status).to.equal(200);
    expect(Buffer.compare(file.body as Buffer, exam)).to.equal(0);
    expect(file.headers['content-type']).to.equal('application/pdf');
    expect(file.headers['content-length']).to.equal(String(exam.length));
    expect(file.headers['content-disposition']).to.equal('inline; filename="4000001 Examination Report 71.pdf"');
    const part = await request(t.app).get(local(first.presigned_url)).set('Range', 'bytes=9-26').buffer(true).parse(binary);
    expect(part.status).to.equal(206);
    expect(part.headers['content-range']).to.equal(`bytes 9-26/${exam.length}`);
    expect((part.body as Buffer).toString()).to.equal('examination report');
    // A name with quotes is offered under a header-safe name.
    const named = await request(t.app).get(local(second.presigned_url));
    expect(named.headers['content-disposition']).to.equal('inline; filename="4000001 Reply to Examination Report 73.pdf"');
  });

  it('lists opposition filings under opp-docs only, with their opposition', async () => {
    const res = await t.get('/v1/trademarks/4000001/opp-docs/');
    expect(res.status).to.equal(200);
    expect(res.body.count).to.equal(1);
    expect(res.body.documents[0]).to.include({ id: 72, opposition_id: 51, opposition_number: 'OPP-900001', name: 'Notice of Opposition' });
    const file = await request(t.app).get(local(res.body.documents[0].presigned_url));
    expect(file.status).to.equal(200);
    expect(file.headers['content-length']).to.equal(String(notice.length));
  });

  it('gates listings by category: cat_documents, cat_opp_docs', async () => {
    const noDocs = await t.without('cat_documents');
    const noOpp = await t.without('cat_opp_docs');
    for (const [c, path, category] of [
      [noDocs, '/v1/trademarks/4000001/documents/', 'cat_documents'],
      [noOpp, '/v1/trademarks/4000001/opp-docs/', 'cat_opp_docs'],
    ] as const) {
      const res = await c.get(path);
      expect(res.status, path).to.equal(403);
      expect(res.body).to.include({ code: 'category_not_on_plan' });
      expect(res.body.details).to.include({ category });
    }
    expect((await noOpp.get('/v1/trademarks/4000001/documents/')).status).to.equal(200);
    expect((await noDocs.get('/v1/trademarks/4000001/opp-docs/')).status).to.equal(200);
  });

  it('answers 404 for an unknown mark and an empty list for a mark without documents, at no doc_views cost', async () => {
    const c = await t.client();
    expect((await c.get('/v1/trademarks/9999999/documents/')).status).to.equal(404);
    const empty = await c.get('/v1/trademarks/4000002/documents/');
    expect(empty.status).to.equal(200);
    expect(empty.body).to.deep.equal({ application_number: '4000002', count: 0, documents: [] });
    expect(await t.used(c.account.accountId, 'doc_views')).to.equal(0);
    expect(await t.used(c.account.accountId, 'api_calls')).to.equal(1);
  });

  it("hands out one document's link by id, gated by the document's category; 404 unknown, 400 not an id", async () => {
    const res = await t.get('/v1/documents/71/url/');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ document_id: 71, expires_in: '30 minutes' });
    expect(res.body.expires_at).to.equal(new Date(Math.floor(clock.now() / 1000) * 1000 + 30 * 60_000).toISOString());
    expect((await request(t.app).get(local(res.body.presigned_url))).status).to.equal(200);

    const noOpp = await t.without('cat_opp_docs');
    const refused = await noOpp.get('/v1/documents/72/url/');
    expect(refused.status).to.equal(403);
    expect(refused.body.details).to.include({ category: 'cat_opp_docs' });
    expect((await noOpp.get('/v1/documents/71/url/')).status).to.equal(200);
    const noDocs = await t.without('cat_documents');
    expect((await noDocs.get('/v1/documents/71/url/')).body.details).to.include({ category: 'cat_documents' });
    expect((await noDocs.get('/v1/documents/72/url/')).status).to.equal(200);

    expect((await t.get('/v1/documents/999/url/')).status).to.equal(404);
    for (const bad of ['x', '0', '1.5', '0x10']) {
      const r = await t.get(`/v1/documents/${bad}/url/`);
      expect(r.status, bad).to.equal(400);
      expect(r.body.details[0].parameter).to.equal('doc_id');
    }
  });

  it('links to a journal PDF for any active plan; 404 for an unknown journal or one without a PDF', async () => {
    const basic = await t.client({ categories: ['cat_status_history'] });
    const res = await basic.get('/v1/journals/7/download/');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ journal_id: 7, journal_number: '2101', expires_in: '30 minutes' });
    const file = await request(t.app).get(local(res.body.presigned_url)).buffer(true).parse(binary);
    expect(file.status).to.equal(200);
    expect(Buffer.compare(file.body as Buffer, journal)).to.equal(0);
    expect(file.headers['content-disposition']).to.equal('inline; filename="Trade Marks Journal 2101.pdf"');
    const none = await basic.get('/v1/journals/8/download/');
    expect(none.status).to.equal(404);
    expect(none.body.error).to.contain('no PDF');
    expect((await basic.get('/v1/journals/999/download/')).status).to.equal(404);
    expect(await t.used(basic.account.accountId, 'doc_views')).to.equal(1);
  });

  it('expires a link exactly 30 minutes after it was handed out', async () => {
    const { body } = await t.get('/v1/documents/71/url/');
    const start = clock.now();
    const expiresAt = Date.parse(body.expires_at);
    clock.advance(expiresAt - start - 1);
    expect((await request(t.app).get(local(body.presigned_url))).status).to.equal(200);
    clock.advance(1);
    const late = await request(t.app).get(local(body.presigned_url));
    expect(late.status).to.equal(403);
    expect(late.body.code).to.equal('url_expired');
    expect(late.headers['content-type']).to.match(/^application\/json/);
    // A fresh link works again.
    const again = await t.get('/v1/documents/71/url/');
    expect((await request(t.app).get(local(again.body.presigned_url))).status).to.equal(200);
  });

  it('refuses a tampered or unsigned link with 403 JSON', async () => {
    const { body } = await t.get('/v1/documents/71/url/');
    const p = local(body.presigned_url);
    const sig = new URL(body.presigned_url).searchParams.get('sig')!;
    const other = (await t.client()).account.accountId;
    const variants = {
      path: p.replace('doc71.pdf', 'doc73.pdf'),
      expiry: p.replace(/exp=(\d+)/, (_m, e) => `exp=${Number(e) + 3600}`),
      signature: p.replace(`sig=${sig}`, `sig=${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`),
      account: p.replace(/acct=[^&]+/, `acct=${other}`),
      filename: p.replace(/fn=[^&]+/, 'fn=invoice.pdf'),
      unsigned: p.split('?')[0],
      'no signature': p.replace(/&?sig=[^&]+/, ''),
    };
    for (const [what, v] of Object.entries(variants)) {
      const res = await request(t.app).get(v);
      expect(res.status, what).to.equal(403);
      expect(res.body.code, what).to.equal('signature_invalid');
      expect(res.headers['content-disposition'], what).to.equal(undefined);
    }
  });

  it('refuses everything at once when the plan becomes inactive, links already handed out included', async () => {
    const c = await t.client();
    const { body } = await c.get('/v1/documents/71/url/');
    const journalLink = (await c.get('/v1/journals/7/download/')).body.presigned_url;
    expect((await request(t.app).get(local(body.presigned_url))).status).to.equal(200);

    await t.deps.db('subscriptions').where({ account_id: c.account.accountId }).update({ status: 'inactive' });
    await t.synced();
    const url = await c.get('/v1/documents/71/url/');
    expect(url.status).to.equal(403);
    expect(url.body.code).to.equal('subscription_inactive');
    expect(url.body.error)
      .to.match(/session has expired/)
      .and.match(/reopen the document/);
    for (const path of ['/v1/trademarks/4000001/documents/', '/v1/trademarks/4000001/opp-docs/', '/v1/journals/7/download/']) {
      const res = await c.get(path);
      expect(res.status, path).to.equal(403);
      expect(res.body.code, path).to.equal('subscription_inactive');
    }
    for (const link of [body.presigned_url, journalLink]) {
      const res = await request(t.app).get(local(link));
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('subscription_inactive');
      expect(res.body.error).to.match(/reopen the document/);
    }
    expect(await t.used(c.account.accountId, 'doc_views')).to.equal(2);

    // Active again: the same link works for what is left of its 30 minutes.
    await t.deps.db('subscriptions').where({ account_id: c.account.accountId }).update({ status: 'active' });
    await t.synced();
    expect((await request(t.app).get(local(body.presigned_url))).status).to.equal(200);
  });

  it('refuses a link whose subscription ran out by time, though the account was just seen active', async () => {
    // Time passes for both sides without anyone waiting: the app's clock is moved, and the database is told the
    // subscription has ended without its change being announced (as the passing of time is not).
    clock.advance(Math.max(0, Date.now() - clock.now()));
    const c = await t.client();
    const { body } = await c.get('/v1/documents/71/url/');
    await t.deps
      .db('subscriptions')
      .where({ account_id: c.account.accountId })
      .update({ expires_at: t.deps.db.raw("now() + interval '30 seconds'") });
    await t.synced();
    expect((await request(t.app).get(local(body.presigned_url))).status).to.equal(200);
    await t.deps.db.transaction(async (trx) => {
      await trx.raw(`set local session_replication_role = replica`);
      await trx('subscriptions')
        .where({ account_id: c.account.accountId })
        .update({ expires_at: trx.raw("now() - interval '1 second'") });
    });
    // Still within the 30 s the cache was told the subscription had: the plan is not read again yet.
    expect((await request(t.app).get(local(body.presigned_url))).status).to.equal(200);
    // Past its end (though not past the cache's one-minute safety net), it is read again, and the link refused.
    clock.advance(31_000);
    const res = await request(t.app).get(local(body.presigned_url));
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal('subscription_inactive');
  });

  it('counts one doc_views per link, in listings too, and refuses a listing whole when credits are short', async () => {
    const c = await t.client({ quotas: { doc_views: 4 } });
    expect((await c.get('/v1/documents/71/url/')).status).to.equal(200);
    expect(await t.used(c.account.accountId, 'doc_views')).to.equal(1);
    expect((await c.get('/v1/trademarks/4000001/documents/')).status).to.equal(200);
    expect(await t.used(c.account.accountId, 'doc_views')).to.equal(3);
    // One left, two needed: nothing handed out, nothing charged.
    const short = await c.get('/v1/trademarks/4000001/documents/');
    expect(short.status).to.equal(429);
    expect(short.body.code).to.equal('quota_exceeded');
    expect(short.body.details).to.include({ resource: 'doc_views', needed: 2, remaining: 1, limit: 4 });
    expect(short.headers['retry-after']).to.match(/^\d+$/);
    expect(await t.used(c.account.accountId, 'doc_views')).to.equal(3);
    expect((await c.get('/v1/journals/7/download/')).status).to.equal(200);
    expect((await c.get('/v1/documents/73/url/')).status).to.equal(429);
    expect(await t.used(c.account.accountId, 'doc_views')).to.equal(4);
    // Refusals (404, 403) cost nothing either.
    expect((await c.get('/v1/documents/999/url/')).status).to.equal(404);
    expect(await t.used(c.account.accountId, 'doc_views')).to.equal(4);
  });

  it('documents every endpoint in the OpenAPI document', () => {
    const paths = (t.openapi as { paths: Record<string, unknown> }).paths;
    for (const p of [
      '/v1/trademarks/{app_no}/documents/',
      '/v1/trademarks/{app_no}/opp-docs/',
      '/v1/documents/{doc_id}/url/',
      '/v1/journals/{journal_id}/download/',
    ]) {
      expect(paths, p).to.have.property(p);
    }
    expect(CATEGORIES).to.include('cat_opp_docs');
  });
});
