import type { Config } from './config.ts';
import type { Db } from './db/knex.ts';
import type { Logger } from './logger.ts';
import type { ObjectStore } from './storage/objectStore.ts';
import type { UrlSigner } from './storage/urlSigner.ts';
import { createDb } from './db/knex.ts';
import { createLogger } from './logger.ts';
import { createObjectStore } from './storage/factory.ts';
import { systemClock, type Clock } from './clock.ts';
import { UrlSigner as Signer } from './storage/urlSigner.ts';
import { Redis } from 'ioredis';
import { ChangeListener } from './db/listener.ts';
import { SearchIndex } from './search/manager.ts';
import { LogoRuntime } from './logos/runtime.ts';

/** Everything long-lived a process needs, built once from the configuration. */
export interface Deps {
  config: Config;
  db: Db;
  log: Logger;
  store: ObjectStore;
  signer: UrlSigner;
  redis: Redis;
  /** PostgreSQL notifications of changes this process caches; start() it before serving. */
  listener: ChangeListener;
  /** The word-mark search index (loaded on first use; startServer loads it before listening). */
  search: SearchIndex;
  /** Base URL clients reach this API at; set once the server listens. */
  baseUrl: { value: string };
  /** What signed links read the time from (tests pass a clock they move). */
  clock: Clock;
  /** Logo search: sidecar client, OCR text index, bulk fan-out (src/logos/runtime.ts). */
  logos: LogoRuntime;
}

export function createDeps(config: Config, clock: Clock = systemClock): Deps {
  const log = createLogger(config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, config.DB_POOL_MAX);
  const signer = new Signer(config.URL_SIGNING_SECRET, () => clock.now());
  const baseUrl = { value: config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}` };
  const store = createObjectStore(config, signer, () => baseUrl.value);
  // lazyConnect: building the app (e.g. to print the OpenAPI document) opens no connection.
  const redis = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  const listener = new ChangeListener(config.DATABASE_URL, log);
  const search = new SearchIndex(config.DATABASE_URL, config.searchSnapshot, listener, log);
  const logos = new LogoRuntime(config, db);
  return { config, db, log, store, signer, redis, listener, search, baseUrl, clock, logos };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.search.close();
  await deps.logos.close();
  await Promise.all([deps.db.destroy(), deps.listener.close(), deps.store.close?.()]);
  deps.redis.disconnect();
}
