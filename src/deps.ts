import type { Config } from './config.ts';
import type { Db } from './db/knex.ts';
import type { Logger } from './logger.ts';
import type { LocalObjectStore } from './storage/localStore.ts';
import type { UrlSigner } from './storage/urlSigner.ts';
import { createDb } from './db/knex.ts';
import { createLogger } from './logger.ts';
import { LocalObjectStore as Local } from './storage/localStore.ts';
import { UrlSigner as Signer } from './storage/urlSigner.ts';
import { Redis } from 'ioredis';

/** Everything long-lived a process needs, built once from the configuration. */
export interface Deps {
  config: Config;
  db: Db;
  /** Monthly usage counters only (see DbOptions.asyncCommit). */
  usageDb: Db;
  log: Logger;
  store: LocalObjectStore;
  signer: UrlSigner;
  redis: Redis;
  /** Base URL clients reach this API at; set once the server listens. */
  baseUrl: { value: string };
}

export function createDeps(config: Config): Deps {
  const log = createLogger(config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, config.DB_POOL_MAX);
  const usageDb = createDb(config.DATABASE_URL, Math.max(2, Math.ceil(config.DB_POOL_MAX / 2)), { asyncCommit: true });
  const signer = new Signer(config.URL_SIGNING_SECRET);
  const baseUrl = { value: config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}` };
  const store = new Local(config.objectStoreDir, signer, () => baseUrl.value);
  // lazyConnect: building the app (e.g. to print the OpenAPI document) opens no connection.
  const redis = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true, enableAutoPipelining: true });
  return { config, db, usageDb, log, store, signer, redis, baseUrl };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await Promise.all([deps.db.destroy(), deps.usageDb.destroy()]);
  deps.redis.disconnect();
}
