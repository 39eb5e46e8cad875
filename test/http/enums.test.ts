import { expect } from 'chai';
import request from 'supertest';
import { signupBody } from '../accounts/support.ts';
import type { TestApp } from '../helpers/app.ts';
import { importFixture, type Owner, owner, startApp } from '../webhooks/support.ts';

// A value of a closed list is read in any case and answered as the list spells it; the OpenAPI document
// lists the canonical spelling.

describe('enum values in any case', () => {
  let t: TestApp;
  let hooks: Owner;
  before(async () => {
    t = await startApp();
    await importFixture(t, 'baseline');
    hooks = await owner(t);
  });
  after(async () => t.close());

  const without = (body: Record<string, unknown>, ...keys: string[]) =>
    Object.fromEntries(Object.entries(body).filter(([k]) => !keys.includes(k)));

  it('query: risk_level, match_type, instrument, type and a delivery status', async () => {
    const canonical = await t.get('/v1/trademarks/4100001/threats/?risk_level=High');
    expect(canonical.status, JSON.stringify(canonical.body)).to.equal(200);
    for (const v of ['high', 'HIGH', 'hIgH']) {
      const res = await t.get(`/v1/trademarks/4100001/threats/?risk_level=${v}`);
      expect(res.status, `${v}: ${JSON.stringify(res.body)}`).to.equal(200);
      expect(without(res.body, 'from_cache')).to.deep.equal(without(canonical.body, 'from_cache'));
    }
    expect((await t.get('/v1/trademarks/?word_mark=sunrise&match_type=exact')).body.match_type).to.equal('EXACT');

    const affidavit = await t.get('/v1/reference/stamp-duty/?instrument=affidavit');
    expect(affidavit.status).to.equal(200);
    expect((await t.get('/v1/reference/stamp-duty/?instrument=Affidavit')).body).to.deep.equal(affidavit.body);
    expect((await t.get('/v1/reference/stamp-duty/?instrument=POWER_OF_ATTORNEY')).status).to.equal(200);

    const nice = await t.get('/v1/tm-classes/25/?type=nice&limit=5');
    expect(nice.status).to.equal(200);
    expect((await t.get('/v1/tm-classes/25/?type=NICE&limit=5')).body).to.deep.equal(nice.body);
    expect((await t.get('/v1/tm-classes/search/?q=shirts&type=Both')).status).to.equal(200);

    const hook = await hooks
      .post('/user/v1/webhooks/')
      .send({ url: 'https://127.0.0.1:9/hook', monitored_applications: ['4100001'], events: ['*'] });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    const deliveries = await hooks.get(`/user/v1/webhooks/${hook.body.id}/deliveries/?status=Delivered`);
    expect(deliveries.status, JSON.stringify(deliveries.body)).to.equal(200);
  });

  it('body: similarity_level (one or several), plan, and webhook event names', async () => {
    const one = await t.post('/v1/logo-search/text/').send({ query_text: 'sunrise', similarity_level: 'HIGH' });
    expect(one.status, JSON.stringify(one.body)).to.equal(200);
    expect(one.body.similarity_level).to.equal('high');
    const several = await t.post('/v1/logo-search/text/').send({ query_text: 'sunrise', similarity_level: ['High', 'MEDIUM'] });
    expect(several.body.similarity_level).to.equal('medium');

    const signup = await request(t.app)
      .post('/user/v1/signup/')
      .send(signupBody({ plan: 'Pro' }));
    expect(signup.status, JSON.stringify(signup.body)).to.equal(201);
    expect(signup.body.plan).to.equal('pro');

    const hook = await hooks.post('/user/v1/webhooks/').send({
      url: 'https://127.0.0.1:9/hook',
      monitored_applications: ['4100001'],
      events: ['Trademark.Status_Changed', 'TRADEMARK.STATUS_CHANGED'],
    });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    expect(hook.body.events).to.deep.equal(['trademark.status_changed']);
    const changed = await hooks.put(`/user/v1/webhooks/${hook.body.id}/`).send({ events: ['TRADEMARK.Renewal_Due'] });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body.events).to.deep.equal(['trademark.renewal_due']);
    const feed = await t.get('/v1/changes/?events=TRADEMARK.STATUS_CHANGED&since=0');
    expect(feed.status, JSON.stringify(feed.body)).to.equal(200);
    expect((await t.get('/v1/changes/?events=trademark.status_changed&since=0')).body).to.deep.equal(feed.body);
  });

  it('still refuses a value of no case, naming the parameter and the canonical values', async () => {
    const risk = await t.get('/v1/trademarks/4100001/threats/?risk_level=severe');
    expect(risk.status).to.equal(400);
    expect(risk.body.details).to.deep.equal([{ in: 'query', parameter: 'risk_level', message: 'risk_level must be Low, Medium or High' }]);
    const level = await t.post('/v1/logo-search/text/').send({ query_text: 'sunrise', similarity_level: 'highest' });
    expect(level.status).to.equal(400);
    expect(level.body.details[0].parameter).to.equal('similarity_level');
  });

  it('lists the canonical values in the OpenAPI document', () => {
    const doc = t.openapi as {
      paths: Record<string, Record<string, { parameters: { name: string; schema: { enum?: string[] } }[] }>>;
      components: { schemas: Record<string, { properties: Record<string, { enum?: string[]; default?: unknown }> }> };
    };
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p) => p.name === name)!.schema;
    expect(param('/v1/trademarks/{app_no}/threats/', 'risk_level').enum).to.deep.equal(['Low', 'Medium', 'High']);
    expect(param('/v1/reference/stamp-duty/', 'instrument').enum).to.deep.equal(['affidavit', 'power_of_attorney']);
    expect(param('/v1/tm-classes/{class_number}/', 'type').enum).to.deep.equal(['nice', 'tm', 'both']);
    expect(param('/user/v1/webhooks/{webhook_id}/deliveries/', 'status').enum).to.deep.equal([
      'pending',
      'delivered',
      'failed',
      'cancelled',
    ]);
    expect(doc.components.schemas.SignupRequest.properties.plan.enum).to.deep.equal(['basic', 'pro', 'business']);
  });
});
