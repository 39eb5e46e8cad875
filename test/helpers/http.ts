import { expect } from 'chai';
import type request from 'supertest';

/** A 400 whose details name exactly the given parameter. */
export function expectBadParam(res: request.Response, parameter: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body.code).to.equal('validation_error');
  expect(res.body.error).to.contain(parameter);
  expect(res.body.details.map((d: { parameter: string }) => d.parameter)).to.deep.equal([parameter]);
}
