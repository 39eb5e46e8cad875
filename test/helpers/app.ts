import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import type { Category } from '../../src/accounts/access.ts';
import { CATEGORIES } from '../../src/accounts/access.ts';
import type { Resource } from '../../src/accounts/callerRepository.ts';
import type { Clock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import type { Documented } from '../../src/http/endpoint.ts';
import type { CreditLedger } from '../../src/limits/credits.ts';
import { createRoot, type Root } from '../../src/root.ts';
import { createAccount, type PlanSpec, type TestAccount } from './accounts.ts';
import { cloneTestDatabase } from './db.ts';

export interface Client {
  account: TestAccount;
  get(path: string): request.Test;
  post(path: string): request.Test;
}

export interface TestApp {
  app: Express;
  /** What the app was built from (src/root.ts): pools, stores, services. */
  deps: Root;
  openapi: object;
  /** The endpoints as declared (their schemas). */
  endpoints: readonly Documented[];
  /** A keyed client on a plan with every category. */
  get(path: string): request.Test;
  post(path: string): request.Test;
  account: TestAccount;
  /** A keyed client on a plan of its own. */
  client(plan?: PlanSpec, status?: 'trial' | 'active' | 'inactive'): Promise<Client>;
  /** A keyed client whose plan has every category but the `missing` ones. */
  without(...missing: Category[]): Promise<Client>;
  ledger: CreditLedger;
  /** This month's use of a resource, as the usage endpoint counts it. */
  used(accountId: string, resource: Resource): Promise<number>;
  /**
   * Waits until this app has heard of every change committed so far (callers are cached until
   * PostgreSQL announces a change; a test that changes a plan by hand waits for that announcement).
   */
  synced(): Promise<void>;
  close(): Promise<void>;
}

/** The real app on a fresh cloned database and a temporary object store. */
export async function createTestApp(env: Record<string, string> = {}, opts: { clock?: Clock } = {}): Promise<TestApp> {
  const { url } = await cloneTestDatabase();
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-store-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    OBJECT_STORE_DIR: storeDir,
    PUBLIC_BASE_URL: 'http://127.0.0.1:1',
    URL_SIGNING_SECRET: 'test-signing-secret-0123456789',
    // Limits high enough not to trip other features' tests; the limits' own tests set theirs.
    RATE_IP_PER_MINUTE: '1000000',
    RATE_KEY_PER_SECOND: '1000000',
    RATE_LIMIT_PREFIX: `test:${randomBytes(5).toString('hex')}`,
    SEARCH_SNAPSHOT: '',
    ...env,
  });
  const deps = createRoot(config, { clock: opts.clock });
  const { app, openapi, endpoints } = buildApp(deps);
  const { ledger } = deps.services;
  await deps.listener.start();
  const clientFor = (account: TestAccount): Client => ({
    account,
    get: (path) => request(app).get(path).set('X-API-Key', account.key),
    post: (path) => request(app).post(path).set('X-API-Key', account.key),
  });
  const client = async (plan: PlanSpec = {}, status: 'trial' | 'active' | 'inactive' = 'active') =>
    clientFor(await createAccount(deps.db, plan, status));
  const main = await client();
  return {
    app,
    deps,
    openapi,
    endpoints,
    get: main.get,
    post: main.post,
    account: main.account,
    client,
    without: (...missing) => client({ categories: CATEGORIES.filter((c) => !missing.includes(c)) }),
    ledger,
    used: (accountId, resource) => ledger.used(accountId, resource),
    synced: () => deps.listener.sync(),
    async close() {
      await deps.close();
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
