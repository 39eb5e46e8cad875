import { expect } from 'chai';
import request from 'supertest';
import { bearer } from '../accounts/support.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// NUL reached PostgreSQL and came back as a 500; lone surrogates were stored as U+FFFD. Every field of
// every operation is refused one way, with a 400 naming it.
describe('control characters and unpaired surrogates in any field', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_ADDRESSES: '127.0.0.1' });
  });
  after(async () => t.close());

  const refused = (res: request.Response, where: string, parameter: string) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.code).to.equal('validation_error');
    expect(res.body.details).to.deep.include.members([
      { in: where, parameter, message: res.body.details.find((d: { parameter: string }) => d.parameter === parameter)?.message },
    ]);
    expect(res.body.details.find((d: { parameter: string }) => d.parameter === parameter).message).to.match(
      /control character or unpaired surrogate \(U\+[0-9A-F]{4}\)/,
    );
  };

  it('refuses NUL inside a JSON array item (bulk documents)', async () => {
    const res = await t.post('/v3/documents/bulk/').send({ application_numbers: ['4100001'], document_types: ['\u0000'] });
    refused(res, 'body', 'document_types.0');
  });

  it('refuses NUL in a webhook URL, before it is judged as a URL', async () => {
    const res = await request(t.app)
      .post('/user/v1/webhooks/')
      .set('Authorization', bearer(t, t.account.accountId))
      .send({ url: 'https://hooks.example.in/\u0000x', monitored_applications: ['4100001'], events: ['*'] });
    refused(res, 'body', 'url');
  });

  it('refuses escaped lone surrogates and other controls, in bodies, object keys and query strings', async () => {
    const lone = await t
      .post('/v3/documents/bulk/')
      .set('Content-Type', 'application/json')
      .send('{"application_numbers":["4100001"],"document_types":["Notice \\ud800"]}');
    refused(lone, 'body', 'document_types.0');
    const key = await t
      .post('/v3/documents/bulk/')
      .set('Content-Type', 'application/json')
      .send('{"application_numbers":["1"],"x\\u001b":1}');
    refused(key, 'body', 'x\u001b');
    const query = await t.get('/v1/trademarks/?word_mark=sun%00rise');
    refused(query, 'query', 'word_mark');
    const del = await t.get('/v1/trademarks/?word_mark=sun%7Frise');
    refused(del, 'query', 'word_mark');
  });

  it('keeps tabs, newlines and characters outside the BMP', async () => {
    const res = await t.get(`/v1/trademarks/?word_mark=${encodeURIComponent('sun\trise 🌞')}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  });
});
