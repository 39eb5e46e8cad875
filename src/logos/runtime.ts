import fs from 'node:fs';
import type { Config } from '../config.ts';
import type { Db } from '../db/knex.ts';
import { FanOut } from './fanout.ts';
import type { FetchOptions } from './imageFetch.ts';
import { LogoRepository } from './repository.ts';
import { SidecarClient } from './sidecarClient.ts';
import { LogoTextIndex } from './textIndex.ts';

/** Logo search's long-lived parts in one process: sidecar client, fetch rules, text index, bulk fan-out. */
export class LogoRuntime {
  readonly repo: LogoRepository;
  readonly sidecar: SidecarClient;
  readonly fetch: FetchOptions;
  readonly texts: LogoTextIndex;
  private fan: FanOut | null = null;

  constructor(private readonly config: Config, db: Db) {
    this.repo = new LogoRepository(db);
    this.sidecar = new SidecarClient(config.ML_URL);
    this.texts = new LogoTextIndex(this.repo);
    const allow = config.IMAGE_FETCH_TEST_ALLOW.split(',').map((s) => s.trim()).filter(Boolean);
    this.fetch = {
      timeoutMs: config.IMAGE_FETCH_TIMEOUT_MS,
      ...(allow.length ? { allow: new Set(allow) } : {}),
      ...(config.IMAGE_FETCH_TEST_CA ? { ca: fs.readFileSync(config.IMAGE_FETCH_TEST_CA) } : {}),
    };
  }

  /** The bulk fan-out, connected on first use (building the app opens no connection). */
  fanout(): FanOut {
    this.fan ??= new FanOut(this.config.REDIS_URL, this.config.QUEUE_PREFIX);
    return this.fan;
  }

  async close(): Promise<void> {
    await this.fan?.close();
  }
}
