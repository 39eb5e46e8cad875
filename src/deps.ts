import type { Config } from './config.ts';
import type { Db } from './db/knex.ts';
import type { Logger } from './logger.ts';
import type { LocalObjectStore } from './storage/localStore.ts';
import type { UrlSigner } from './storage/urlSigner.ts';
import { createDb } from './db/knex.ts';
import { createLogger } from './logger.ts';
import { LocalObjectStore as Local } from './storage/localStore.ts';
import { UrlSigner as Signer } from './storage/urlSigner.ts';

/** Everything long-lived a process needs, built once from the configuration. */
export interface Deps {
  config: Config;
  db: Db;
  log: Logger;
  store: LocalObjectStore;
  signer: UrlSigner;
  /** Base URL clients reach this API at; set once the server listens. */
  baseUrl: { value: string };
}

export function createDeps(config: Config): Deps {
  const log = createLogger(config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, config.DB_POOL_MAX);
  const signer = new Signer(config.URL_SIGNING_SECRET);
  const baseUrl = { value: config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}` };
  const store = new Local(config.objectStoreDir, signer, () => baseUrl.value);
  return { config, db, log, store, signer, baseUrl };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.db.destroy();
}
