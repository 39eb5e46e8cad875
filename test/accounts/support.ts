import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type request from 'supertest';
import { TokenService } from '../../src/accounts/tokens.ts';
import type { TestApp } from '../helpers/app.ts';

/** A valid signup body with an email no other test uses. */
export function signupBody(extra: Record<string, unknown> = {}): Record<string, unknown> & { email: string; password: string } {
  return {
    first_name: 'Asha',
    last_name: 'Rao',
    email: `asha-${randomBytes(5).toString('hex')}@example.in`,
    password: 'long enough secret',
    ...extra,
  } as Record<string, unknown> & { email: string; password: string };
}

/** A dashboard token for an account, signed as the app signs them (login itself is tested in login.test.ts). */
export function bearer(t: TestApp, accountId: string): string {
  return `Bearer ${new TokenService(t.deps.config.JWT_SECRET, 3600).issue(accountId).token}`;
}

/** A 400 validation_error whose details name exactly these parameters (in any order). */
export function expectFields(res: request.Response, ...fields: string[]): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body.code).to.equal('validation_error');
  const named = [...new Set(res.body.details.map((d: { parameter: string }) => d.parameter))];
  expect(named, JSON.stringify(res.body)).to.have.members(fields);
  for (const f of fields) expect(res.body.error).to.contain(f);
}
