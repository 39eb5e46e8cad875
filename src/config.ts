import { z } from 'zod';
import path from 'node:path';

// Every setting the process reads from its environment, validated once at start.
// Nothing else in the code reads process.env.
const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:5432/nishaan'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(16),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379/0'),
  // Key prefix of every BullMQ queue, so several deployments (or test runs) can share one Redis.
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/).default('nishaan'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Base address that signed file URLs point at; defaults to the listening address.
  PUBLIC_BASE_URL: z.string().url().optional(),
  OBJECT_STORE_DIR: z.string().default('var/objects'),
  // HMAC key for signed file URLs. A random one per process would break URLs across processes.
  URL_SIGNING_SECRET: z.string().min(16).default('dev-only-url-signing-secret-change-me'),
  BODY_LIMIT: z.string().default('1mb'),
  DEMO_RECORDS: z.coerce.number().int().min(0).default(50_000),
  DEMO_LOGOS: z.coerce.number().int().min(0).default(2_000),
  DEMO_DIR: z.string().default('var/demo'),
  // Signs dashboard (bearer) tokens.
  JWT_SECRET: z.string().min(32).default('dev-only-jwt-secret-change-me-0123456789'),
  JWT_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 86400).default(12 * 3600),
  // Contract §8 defaults; tests of other features raise them, the limits' own tests lower them.
  RATE_IP_PER_MINUTE: z.coerce.number().int().min(1).default(200),
  RATE_KEY_PER_SECOND: z.coerce.number().int().min(1).default(10),
  PUBLIC_SEARCH_PER_HOUR: z.coerce.number().int().min(1).default(60),
  // Redis key prefix of the rate-limit counters (one per deployment or test run).
  RATE_LIMIT_PREFIX: z.string().regex(/^[A-Za-z0-9_:-]+$/).default('nishaan:rl'),
  // Login throttling (failed attempts per 15 minutes): slowed down past *_SLOW_AFTER, refused past *_MAX.
  LOGIN_EMAIL_SLOW_AFTER: z.coerce.number().int().min(0).default(5),
  LOGIN_EMAIL_MAX: z.coerce.number().int().min(1).default(10),
  LOGIN_IP_SLOW_AFTER: z.coerce.number().int().min(0).default(20),
  LOGIN_IP_MAX: z.coerce.number().int().min(1).default(50),
  LOGIN_MAX_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(2000),
  // Comma-separated proxy addresses whose X-Forwarded-For is trusted; empty trusts none.
  TRUSTED_PROXIES: z.string().default(''),
  TRIAL_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  // Where the word-mark search index is saved for fast starts; empty: never saved (built from PostgreSQL).
  SEARCH_SNAPSHOT: z.string().default('var/search/index.snapshot'),
  // How long repeated searches are answered from Redis; 0 turns the cache off.
  SEARCH_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
});

export type Config = z.infer<typeof Env> & { objectStoreDir: string; searchSnapshot: string | null };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  for (const key of ['URL_SIGNING_SECRET', 'JWT_SECRET'] as const) {
    if (cfg.NODE_ENV === 'production' && cfg[key].startsWith('dev-only')) {
      throw new Error(`invalid configuration:\n  ${key}: must be set in production`);
    }
  }
  return { ...cfg, objectStoreDir: path.resolve(cfg.OBJECT_STORE_DIR), searchSnapshot: cfg.SEARCH_SNAPSHOT ? path.resolve(cfg.SEARCH_SNAPSHOT) : null };
}
