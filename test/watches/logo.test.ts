import { expect } from 'chai';
import { type ImageServer, startImageServer } from '../helpers/imageServer.ts';
import { addLogos, createLogoApp, drawLogo, indexPending, type LogoTestApp } from '../helpers/logos.ts';
import { type Owner, owner } from '../webhooks/support.ts';

// A watch of a logo: fetched once at creation through the guarded fetch and embedded by the real
// sidecar; a new filing whose logo looks like it fires the watch, one whose logo does not, does not.

describe('similarity watches: logos', function () {
  this.timeout(90_000);
  let t: LogoTestApp;
  let server: ImageServer;
  let o: Owner;
  let hook: string;

  before(async () => {
    // A recoloured copy of a logo that will be filed under another name.
    const copy = await drawLogo({ slug: 'docker', size: 140, ink: [200, 30, 30] });
    server = await startImageServer({
      '/copy.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(copy),
      '/page.html': (res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><p>not a logo</p>'),
    });
    t = await createLogoApp({
      IMAGE_FETCH_TEST_ALLOW: server.hostPort,
      IMAGE_FETCH_TEST_CA: server.caFile,
      WEBHOOK_ALLOW_ADDRESSES: '127.0.0.1',
    });
    o = await owner(t.app);
    const h = await o.post('/user/v1/webhooks/').send({ url: 'https://127.0.0.1:9/hook', monitored_applications: [], events: ['*'] });
    expect(h.status, JSON.stringify(h.body)).to.equal(201);
    hook = h.body.id;
  });
  after(async () => {
    await t?.close();
    await server?.close();
  });

  it('fetches and embeds the logo once, at creation, and refuses what is not an image', async () => {
    const res = await o.post('/user/v1/watches/').send({ logo_url: `${server.origin}/copy.png`, classes: [29], webhook_id: hook });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.word_mark).to.equal(null);
    expect(res.body.logo).to.deep.equal({ url: `${server.origin}/copy.png`, model: t.sidecar.model.model });
    expect(server.seen.filter((p) => p === '/copy.png')).to.have.length(1);
    const bad = await o.post('/user/v1/watches/').send({ logo_url: `${server.origin}/page.html`, classes: [29], webhook_id: hook });
    expect(bad.status, JSON.stringify(bad.body)).to.equal(400);
    expect(bad.body.code).to.equal('not_an_image');
    expect((await o.get('/user/v1/watches/')).body.count).to.equal(1);
  });

  it('fires on a new filing whose logo looks like the watched one, not on another logo', async () => {
    const { db } = t.app.deps;
    const [watch] = (await o.get('/user/v1/watches/')).body.watches;
    await addLogos(t.app, [
      { app: '5300001', mark: 'ORCHID', draw: { slug: 'docker' } },
      { app: '5300002', mark: 'ZEBRA', draw: { slug: 'github' } },
    ]);
    await db('trademarks').whereIn('application_number', ['5300001', '5300002']).update({ class_number: 29 });
    expect(await indexPending(t)).to.deep.equal({ done: 2, failed: 0 });
    // The two marks as a delta import records its new filings.
    const [{ id: runId }] = await db('import_runs').insert({ source: 'test', finished_at: db.fn.now() }).returning('id');
    await db('import_new_marks').insert(['5300001', '5300002'].map((a) => ({ import_run_id: runId, application_number: a })));
    expect(await t.app.deps.services.watchMatcher.matchRun(runId)).to.deep.equal({ marks: 2, hits: 1 });
    const [row] = await db('outbox').where({ event: 'trademark.similar_filed' });
    expect(row).to.include({ application_number: '5300001', webhook_id: hook });
    expect(row.new_value).to.include({ watch_id: watch.id, matching_criteria: 'visual' });
    expect(row.new_value.visual_similarity_percentage).to.be.greaterThan(0);
    expect(
      row.new_value.reasons.some((r: string) => /^logo [01]\.\d\d alike$/.test(r)),
      row.new_value.reasons.join('; '),
    ).to.equal(true);
  });
});
