import { expect } from 'chai';
import request from 'supertest';
import type { TestApp } from '../helpers/app.ts';
import { importFixture, type Owner, owner, startApp } from '../webhooks/support.ts';

// /user/v1/watches/: a similarity watch's lifecycle, its shape and bad input, scoping to the account,
// and the monitored-mark limit it shares with webhooks. Matching: matching.test.ts.

const HOOK = 'https://127.0.0.1:9/hook';

const WATCH_FIELDS = [
  'id',
  'kind',
  'word_mark',
  'owner_id',
  'exclude_owner_ids',
  'include_own',
  'logo',
  'classes',
  'min_risk',
  'webhook_id',
  'webhook_active',
  'hits',
  'new_hits',
  'created_at',
  'updated_at',
];

describe('similarity watches: the API', () => {
  let t: TestApp;
  let pro: Owner;
  let other: Owner;
  let hook: string;
  let otherHook: string;

  const patch = (o: Owner, path: string) => request(t.app).patch(path).set('Authorization', o.auth);
  const makeHook = async (o: Owner, apps: string[] = []) => {
    const res = await o.post('/user/v1/webhooks/').send({ url: HOOK, monitored_applications: apps, events: ['*'] });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };

  before(async () => {
    t = await startApp();
    await importFixture(t, 'baseline');
    pro = await owner(t, { monitored_marks_limit: 4 });
    other = await owner(t);
    hook = await makeHook(pro, ['4100001', '4100002']);
    otherHook = await makeHook(other);
  });
  after(() => t.close());

  it('creates a watch (201), shows, lists, changes and deletes it', async () => {
    const res = await pro.post('/user/v1/watches/').send({ word_mark: 'Sunrise', classes: [30, 29, 30], webhook_id: hook });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(Object.keys(res.body)).to.have.members(WATCH_FIELDS);
    expect(res.body).to.deep.include({
      kind: 'mark',
      word_mark: 'Sunrise',
      owner_id: null,
      exclude_owner_ids: [],
      include_own: false,
      logo: null,
      classes: [29, 30],
      min_risk: 'Medium',
      webhook_id: hook,
      hits: 0,
    });
    const id = res.body.id as string;

    const got = await pro.get(`/user/v1/watches/${id}/`);
    expect(got.status).to.equal(200);
    expect(got.body).to.deep.equal(res.body);

    const list = await pro.get('/user/v1/watches/');
    expect(list.status).to.equal(200);
    expect(list.body.count).to.equal(1);
    expect(list.body.watches[0]).to.deep.equal(res.body);
    // Two marks of the webhook and the watch.
    expect(list.body.monitored_marks).to.deep.equal({ used: 3, limit: 4 });

    const changed = await patch(pro, `/user/v1/watches/${id}/`).send({ min_risk: 'High', classes: [5] });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.deep.include({ word_mark: 'Sunrise', classes: [5], min_risk: 'High' });

    const gone = await pro.del(`/user/v1/watches/${id}/`);
    expect(gone.status).to.equal(200);
    expect(gone.body).to.deep.equal({ id, deleted: true });
    expect((await pro.get(`/user/v1/watches/${id}/`)).status).to.equal(404);
    expect((await pro.get('/user/v1/watches/')).body.count).to.equal(0);
  });

  it('refuses bad input with 400 naming the problem', async () => {
    const cases: [object, RegExp][] = [
      [{ word_mark: 'SUNRISE', webhook_id: hook }, /classes/],
      [{ word_mark: 'SUNRISE', classes: [], webhook_id: hook }, /classes/],
      [{ word_mark: 'SUNRISE', classes: [46], webhook_id: hook }, /46 is not a Nice class/],
      [{ word_mark: 'SUNRISE', classes: [0], webhook_id: hook }, /not a Nice class/],
      [{ word_mark: 'SUNRISE', classes: ['x'], webhook_id: hook }, /classes/],
      [{ classes: [30], webhook_id: hook }, /word_mark.*logo_url/],
      [{ word_mark: ' -- ', classes: [30], webhook_id: hook }, /word_mark.*logo_url/],
      [{ word_mark: 'SUNRISE', classes: [30], webhook_id: 'nope' }, /webhook_id/],
      [{ word_mark: 'SUNRISE', classes: [30], webhook_id: hook, min_risk: 'Severe' }, /min_risk/],
      [{ word_mark: 'SUNRISE', classes: [30], webhook_id: hook, logo_url: 'ftp://x/y.png' }, /logo_url/],
      [{ word_mark: 'SUNRISE', classes: [30], webhook_id: hook, colour: 'red' }, /colour/],
    ];
    for (const [body, message] of cases) {
      const res = await pro.post('/user/v1/watches/').send(body);
      expect(res.status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).to.equal(400);
      expect(JSON.stringify(res.body), JSON.stringify(body)).to.match(message);
    }
    const w = await pro.post('/user/v1/watches/').send({ word_mark: 'SUNRISE', classes: [30], webhook_id: hook });
    expect(w.status).to.equal(201);
    for (const body of [{}, { classes: [46] }, { word_mark: null }, { logo_url: 'https://x.in/a.png' }]) {
      const res = await patch(pro, `/user/v1/watches/${w.body.id}/`).send(body);
      expect(res.status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).to.equal(400);
    }
    expect((await pro.get('/user/v1/watches/not-a-uuid/')).status).to.equal(400);
    await pro.del(`/user/v1/watches/${w.body.id}/`);
  });

  it("refuses another account's webhook as 404, as the webhooks API does", async () => {
    const res = await pro.post('/user/v1/watches/').send({ word_mark: 'SUNRISE', classes: [30], webhook_id: otherHook });
    expect(res.status, JSON.stringify(res.body)).to.equal(404);
    expect(res.body.code).to.equal('not_found');
    const unknown = await pro
      .post('/user/v1/watches/')
      .send({ word_mark: 'SUNRISE', classes: [30], webhook_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).to.equal(404);
    const w = await pro.post('/user/v1/watches/').send({ word_mark: 'SUNRISE', classes: [30], webhook_id: hook });
    const moved = await patch(pro, `/user/v1/watches/${w.body.id}/`).send({ webhook_id: otherHook });
    expect(moved.status).to.equal(404);
    await pro.del(`/user/v1/watches/${w.body.id}/`);
  });

  it("answers 404 for another account's watch, whatever the method", async () => {
    const w = await pro.post('/user/v1/watches/').send({ word_mark: 'SUNRISE', classes: [30], webhook_id: hook });
    const id = w.body.id as string;
    expect((await other.get(`/user/v1/watches/${id}/`)).status).to.equal(404);
    expect((await patch(other, `/user/v1/watches/${id}/`).send({ min_risk: 'Low' })).status).to.equal(404);
    expect((await other.del(`/user/v1/watches/${id}/`)).status).to.equal(404);
    expect((await other.get(`/user/v1/watches/${id}/preview/?journal_id=1`)).status).to.equal(404);
    expect((await other.get('/user/v1/watches/')).body.count).to.equal(0);
    expect((await pro.get(`/user/v1/watches/${id}/`)).body.min_risk).to.equal('Medium');
    await pro.del(`/user/v1/watches/${id}/`);
  });

  it("counts watches in the plan's monitored-mark limit, beside the webhooks' marks", async () => {
    // Limit 4: the webhook monitors 2 marks, so two watches fit and a third does not.
    const made: string[] = [];
    for (const word of ['ALPHA', 'BRAVO']) {
      const res = await pro.post('/user/v1/watches/').send({ word_mark: word, classes: [30], webhook_id: hook });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      made.push(res.body.id);
    }
    const over = await pro.post('/user/v1/watches/').send({ word_mark: 'CHARLIE', classes: [30], webhook_id: hook });
    expect(over.status).to.equal(403);
    expect(over.body.code).to.equal('monitored_limit_exceeded');
    expect(over.body.details).to.deep.include({ limit: 4, requested: 5 });
    // A webhook change that would pass the limit counts the watches too.
    const more = await pro.put(`/user/v1/webhooks/${hook}/`).send({ monitored_applications: ['4100001', '4100002', '4100003'] });
    expect(more.status).to.equal(403);
    expect(more.body.code).to.equal('monitored_limit_exceeded');
    expect((await pro.get('/user/v1/webhooks/list/')).body.monitored_marks).to.deep.equal({ used: 4, limit: 4 });
    // Deleting a watch frees its place.
    await pro.del(`/user/v1/watches/${made[0]}/`);
    const again = await pro.post('/user/v1/watches/').send({ word_mark: 'CHARLIE', classes: [30], webhook_id: hook });
    expect(again.status).to.equal(201);
  });

  it('needs a plan with watches (webhooks and monitored marks), not cat_threats', async () => {
    const plain = await owner(t, { webhook_enabled: false });
    const res = await plain.post('/user/v1/watches/').send({ word_mark: 'SUNRISE', classes: [30], webhook_id: hook });
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal('watches_not_on_plan');
    expect(res.body.details.plans).to.deep.equal(['pro', 'business']);
    const none = await owner(t, { monitored_marks_limit: 0 });
    const noneHook = await makeHook(none);
    const refused = await none.post('/user/v1/watches/').send({ word_mark: 'SUNRISE', classes: [30], webhook_id: noneHook });
    expect(refused.body.code).to.equal('watches_not_on_plan');
    const noThreats = await owner(t, { categories: ['cat_status_history'] });
    const h = await makeHook(noThreats);
    const made = await noThreats.post('/user/v1/watches/').send({ word_mark: 'SUNRISE', classes: [30], webhook_id: h });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
  });
});
