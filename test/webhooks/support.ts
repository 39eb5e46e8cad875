import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { importSet } from '../../src/ingest/importer/index.ts';
import { WebhookWorkers } from '../../workers/webhooks.ts';
import { bearer } from '../accounts/support.ts';
import { createAccount, type PlanSpec, type TestAccount } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { testCertificate } from '../helpers/receiver.ts';

export const FIXTURES = new URL('../fixtures/ingest/', import.meta.url).pathname;

/** Settings of every webhook test: queues of their own, the local receiver admitted and trusted, short retries. */
export function webhookEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    QUEUE_PREFIX: `test-${randomBytes(5).toString('hex')}`,
    WEBHOOK_ALLOW_ADDRESSES: '127.0.0.1',
    WEBHOOK_CA_FILE: testCertificate().caFile,
    WEBHOOK_RETRY_DELAY_MS: '150',
    WEBHOOK_REQUEUE_AFTER_MS: '1500',
    WEBHOOK_TIMEOUT_MS: '2000',
    ...extra,
  };
}

export interface Owner {
  account: TestAccount;
  auth: string;
  post(path: string): request.Test;
  put(path: string): request.Test;
  patch(path: string): request.Test;
  get(path: string): request.Test;
  del(path: string): request.Test;
}

/** An account on a plan of its own, with bearer-authenticated request helpers. */
export async function owner(t: TestApp, plan: PlanSpec = {}): Promise<Owner> {
  const account = await createAccount(t.deps.db, plan);
  const auth = bearer(t, account.accountId);
  return {
    account,
    auth,
    post: (p) => request(t.app).post(p).set('Authorization', auth),
    put: (p) => request(t.app).put(p).set('Authorization', auth),
    patch: (p) => request(t.app).patch(p).set('Authorization', auth),
    get: (p) => request(t.app).get(p).set('Authorization', auth),
    del: (p) => request(t.app).delete(p).set('Authorization', auth),
  };
}

export async function startApp(extra: Record<string, string> = {}): Promise<TestApp> {
  return createTestApp(webhookEnv(extra));
}

/** Imports one of the fixture sets (baseline, delta) into the app's database. */
export function importFixture(t: TestApp, name: 'baseline' | 'delta') {
  return importSet({ db: t.deps.db, store: t.deps.store, dir: `${FIXTURES}${name}` });
}

/** The workers process's webhook machinery, in this process, on the app's database. */
export async function startWorkers(t: TestApp): Promise<WebhookWorkers> {
  const w = new WebhookWorkers(t.deps, { idleMs: 200, lockMs: 5000 });
  await w.start();
  return w;
}

/** Polls until `check` holds; on timeout the error says what was awaited and, if given, the state then. */
export async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  o: { ms?: number; state?: () => Promise<string> } = {},
): Promise<void> {
  const end = Date.now() + (o.ms ?? 20_000);
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${o.state ? `; ${await o.state()}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
