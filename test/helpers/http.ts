import { expect } from 'chai';
import express from 'express';
import type request from 'supertest';
import { CATEGORIES, type Category } from '../../src/accounts/access.ts';
import type { TestApp } from './app.ts';

/** The real app behind a caller whose plan lacks the `missing` categories. */
export function withoutCategory(t: TestApp, ...missing: Category[]): express.Express {
  const outer = express();
  outer.use((req, _res, next) => {
    req.viewer = { accountId: 'restricted', categories: new Set(CATEGORIES.filter((c) => !missing.includes(c))) };
    next();
  });
  outer.use(t.app);
  return outer;
}

/** A 400 whose details name exactly the given parameter. */
export function expectBadParam(res: request.Response, parameter: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body.code).to.equal('validation_error');
  expect(res.body.error).to.contain(parameter);
  expect(res.body.details.map((d: { parameter: string }) => d.parameter)).to.deep.equal([parameter]);
}
