import { expect } from 'chai';
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

describe('http skeleton', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  it('answers an unknown path with a 404 JSON error carrying the request id', async () => {
    const res = await request(t.app).get('/no/such/thing');
    expect(res.status).to.equal(404);
    expect(res.type).to.equal('application/json');
    expect(res.body.code).to.equal('not_found');
    expect(res.body.request_id).to.be.a('string').and.equal(res.headers['x-request-id']);
  });

  it('answers a method a path does not have with 405 and the methods it has in Allow, not 404', async () => {
    const patch = await request(t.app).patch('/v1/trademarks/4000001/').set('X-API-Key', t.account.key);
    expect(patch.status).to.equal(405);
    expect(patch.type).to.equal('application/json');
    expect(patch.headers.allow).to.equal('GET, HEAD');
    expect(patch.body).to.include({ code: 'method_not_allowed' });
    expect(patch.body.request_id).to.equal(patch.headers['x-request-id']);
    // Every method of the path, from each route its path matches.
    const hook = await request(t.app).patch('/user/v1/webhooks/8a3c0a4e-0f6e-4c43-9a43-3c1a9a2b0d11/');
    expect([hook.status, hook.headers.allow]).to.deep.equal([405, 'DELETE, GET, HEAD, PUT']);
    const bulk = await request(t.app).delete('/v1/trademarks/bulk/');
    expect([bulk.status, bulk.headers.allow]).to.deep.equal([405, 'GET, HEAD, POST']);
    // Paths served outside the declared endpoints too.
    const health = await request(t.app).put('/healthz').set('Content-Type', 'application/json').send('{}');
    expect([health.status, health.headers.allow, health.body.code]).to.deep.equal([405, 'GET, HEAD', 'method_not_allowed']);
    // A path that does not exist stays a 404, whatever the method.
    const none = await request(t.app).patch('/no/such/thing');
    expect([none.status, none.headers.allow, none.body.code]).to.deep.equal([404, undefined, 'not_found']);
  });

  it('keeps a sane caller request id and replaces an unsafe one', async () => {
    const kept = await request(t.app).get('/healthz').set('X-Request-Id', 'abc-123');
    expect(kept.headers['x-request-id']).to.equal('abc-123');
    const replaced = await request(t.app).get('/healthz').set('X-Request-Id', 'bad id <script>');
    expect(replaced.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
  });

  it('refuses malformed JSON with 400, not 500', async () => {
    const res = await request(t.app).post('/healthz').set('Content-Type', 'application/json').send('{"a":');
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('malformed_json');
  });

  it('refuses a non-JSON body with 415', async () => {
    const res = await request(t.app).post('/healthz').set('Content-Type', 'text/plain').send('hello');
    expect(res.status).to.equal(415);
    expect(res.body.code).to.equal('unsupported_media_type');
  });

  it('refuses an oversized body with 413', async () => {
    const big = JSON.stringify({ x: 'a'.repeat(1_200_000) });
    const res = await request(t.app).post('/healthz').set('Content-Type', 'application/json').send(big);
    expect(res.status).to.equal(413);
    expect(res.body.code).to.equal('payload_too_large');
  });

  it('serves the OpenAPI document with version 1.1.0 and a docs page', async () => {
    const doc = await request(t.app).get('/openapi.json');
    expect(doc.status).to.equal(200);
    expect(doc.body.info.version).to.equal('1.1.0');
    const page = await request(t.app).get('/docs');
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('swagger-ui-bundle.js');
    const init = await request(t.app).get('/docs/init.js');
    expect(init.text).to.contain("'/openapi.json'");
    const asset = await request(t.app).get('/docs/assets/swagger-ui-bundle.js');
    expect(asset.status).to.equal(200);
  });
});
