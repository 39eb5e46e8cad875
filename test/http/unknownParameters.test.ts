import { expect } from 'chai';
import request from 'supertest';
import { bearer, expectFields, signupBody } from '../accounts/support.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { seedRegistry } from '../helpers/seed.ts';
import { PATH_VALUES } from '../reliability/fuzzCases.ts';

// Well-formed path values (PATH_VALUES), so that what is refused is the unknown parameter alone.

interface Operation {
  security?: Record<string, unknown>[];
}

describe('unknown parameters are refused, naming each', () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await createTestApp();
    await seedRegistry(t.deps.db);
    token = bearer(t, t.account.accountId);
  });
  after(async () => t.close());

  const detail = (res: request.Response, parameter: string) =>
    (res.body.details ?? []).find((d: { parameter: string }) => d.parameter === parameter);

  it('answers every operation of the OpenAPI document given an unknown query parameter with a 400 naming it', async () => {
    const doc = t.openapi as { paths: Record<string, Record<string, Operation>> };
    const wrong: string[] = [];
    let operations = 0;
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        operations++;
        const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => PATH_VALUES[name]);
        let req = request(t.app)[method as 'get'](`${path}?zzz_unknown=1`);
        const scheme = Object.keys(op.security?.[0] ?? {})[0];
        if (scheme === 'Bearer') req = req.set('Authorization', token);
        else if (scheme) req = req.set('X-API-Key', t.account.key);
        const res = await req;
        const d = detail(res, 'zzz_unknown');
        if (res.status !== 400 || res.body.code !== 'validation_error' || d?.in !== 'query' || !String(d.message).includes('zzz_unknown'))
          wrong.push(`${method.toUpperCase()} ${template}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    expect(operations).to.be.greaterThan(50);
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
  });

  it('names a misspelt query parameter and lists those the endpoint takes, in every area', async () => {
    const keyed = (path: string) => t.get(path);
    const cases: [request.Test, string][] = [
      [keyed('/v1/trademarks/?word_mark=sunrise&clas_number=30'), 'clas_number'],
      [request(t.app).get('/public/v1/trademarks/search/?word_mark=sunrise&sort=word_mark'), 'sort'],
      [keyed('/v1/trademarks/4000001/threats/?risk=High'), 'risk'],
      [keyed('/v1/journals/?page=2'), 'page'],
      [keyed('/v1/reference/stamp-duty/?State=MH'), 'State'],
      [keyed('/v1/tm-classes/search/?q=shirts&klass=25'), 'klass'],
      [keyed('/v1/changes/?event=trademark.status_changed'), 'event'],
      [keyed('/v1/reports/search/xlsx/?word_mark=sunrise&rows=10'), 'rows'],
      [request(t.app).get('/user/v1/webhooks/list/?active=true').set('Authorization', token), 'active'],
    ];
    for (const [req, name] of cases) {
      const res = await req;
      expectFields(res, name);
      expect(detail(res, name).in).to.equal('query');
      expect(detail(res, name).message).to.match(new RegExp(`^unknown parameter ${name}: this endpoint takes \\w+`));
    }
    const search = await keyed('/v1/trademarks/?word_mark=sunrise&clas_number=30');
    expect(detail(search, 'clas_number').message).to.contain('class_number');
  });

  it('refuses any query parameter where the endpoint takes none', async () => {
    for (const [req, name] of [
      [t.get('/v1/trademarks/4000001/?include=all'), 'include'],
      [t.get('/v1/trademarks/4000001/documents/?type=x'), 'type'],
      [request(t.app).get('/user/v1/usage/?month=2026-01').set('Authorization', token), 'month'],
      [t.post('/v1/logo-search/text/?debug=1').send({ query_text: 'sunrise' }), 'debug'],
    ] as const) {
      const res = await req;
      expectFields(res, name);
      expect(detail(res, name).message).to.equal(`unknown parameter ${name}: this endpoint takes no query parameters`);
    }
  });

  it('names unknown and invalid parameters together in one 400, and charges nothing for it', async () => {
    const before = await t.used(t.account.accountId, 'api_calls');
    const res = await t.get('/v1/trademarks/?word_mark=&zzz=1&yyy=2');
    expectFields(res, 'word_mark', 'zzz', 'yyy');
    expect(await t.used(t.account.accountId, 'api_calls')).to.equal(before);
  });

  it('refuses unknown body fields, nested ones included, naming each by its path', async () => {
    expectFields(await t.post('/v1/logo-search/text/').send({ query_text: 'sunrise', max_result: 5 }), 'max_result');
    expectFields(
      await t.post('/v1/logo-search/bulk-text/').send({ queries: [{ query_text: 'sunrise' }, { query_text: 'golden', level: 'low' }] }),
      'queries.1.level',
    );
    expectFields(await t.post('/v1/trademarks/bulk/').send({ application_numbers: ['4000001'], fields: ['word_mark'] }), 'fields');
    expectFields(
      await request(t.app)
        .post('/user/v1/signup/')
        .send(signupBody({ plan_code: 'pro' })),
      'plan_code',
    );
    // A body where the endpoint takes none.
    const rotate = await request(t.app)
      .post('/user/v1/keys/00000000-0000-4000-8000-000000000001/rotate/')
      .set('Authorization', token)
      .send({ name: 'new' });
    expectFields(rotate, 'name');
    expect(detail(rotate, 'name')).to.deep.equal({
      in: 'body',
      parameter: 'name',
      message: 'unknown field name: this endpoint takes no body',
    });
    // Inherited names are not fields either.
    const proto = await t
      .post('/v1/trademarks/bulk/')
      .set('Content-Type', 'application/json')
      .send('{"application_numbers":["4000001"],"constructor":1,"__proto__":{"x":1}}');
    expectFields(proto, 'constructor', '__proto__');
  });
});
