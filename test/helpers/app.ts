import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import { loadConfig } from '../../src/config.ts';
import { createDeps, closeDeps, type Deps } from '../../src/deps.ts';
import { buildApp } from '../../src/http/app.ts';
import { cloneTestDatabase } from './db.ts';

export interface TestApp {
  app: Express;
  deps: Deps;
  openapi: object;
  close(): Promise<void>;
}

/** The real app on a fresh cloned database and a temporary object store. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const { url } = await cloneTestDatabase();
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-store-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    OBJECT_STORE_DIR: storeDir,
    PUBLIC_BASE_URL: 'http://127.0.0.1:1',
    URL_SIGNING_SECRET: 'test-signing-secret-0123456789',
    ...env,
  });
  const deps = createDeps(config);
  const { app, openapi } = buildApp(deps);
  return {
    app,
    deps,
    openapi,
    async close() {
      await closeDeps(deps);
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
