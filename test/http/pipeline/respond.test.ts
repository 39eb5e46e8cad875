import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { checkResponse, send } from '../../../src/http/pipeline/respond.ts';
import { z } from '../../../src/schema/zod.ts';

describe('request pipeline: the response', () => {
  it('checks a result against its schema, naming the operation when it does not match', () => {
    const schema = z.object({ n: z.number() });
    checkResponse(schema, { n: 1 }, 'op');
    expect(() => checkResponse(schema, { n: '1' }, 'getThing')).to.throw(
      /^response of getThing does not match its schema: .*"path":\["n"\]/,
    );
  });

  it('sends the result as JSON with its status, unless the handler has answered already', async () => {
    const app = express();
    app.get('/json', (_req, res) => send(res, 201, { a: 'é', b: [1] }));
    app.get('/file', (_req, res) => {
      res.setHeader('Content-Type', 'application/pdf');
      res.end('%PDF');
      send(res, 200, { not: 'sent' });
    });
    const json = await request(app).get('/json');
    expect(json.status).to.equal(201);
    expect(json.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(json.body).to.deep.equal({ a: 'é', b: [1] });
    const file = await request(app)
      .get('/file')
      .buffer(true)
      .parse((res, cb) => {
        let s = '';
        res.on('data', (c: Buffer) => (s += c));
        res.on('end', () => cb(null, s));
      });
    expect(file.headers['content-type']).to.equal('application/pdf');
    expect(file.body).to.equal('%PDF');
  });
});
