import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseAllowList } from './outbound/addresses.ts';

// Every setting the process reads from its environment, validated once at start.
// Nothing else in the code reads process.env.
const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:5432/nishaan'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(16),
  // Streaming replicas that reads of the register may go to (comma-separated URLs; docs/deploy.md), while each is
  // up and has replayed the primary's WAL to within REPLICA_MAX_LAG_SECONDS; the primary otherwise.
  DATABASE_REPLICA_URLS: z.string().default(''),
  REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0.1).max(3600).default(5),
  // How long an API request waits for a PostgreSQL connection (all busy, or the server away) before a 503.
  DB_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379/0'),
  // Redis Sentinel (docs/outages.md): the Sentinels to ask for the master (host:port, comma-separated) and the name
  // they monitor it under; REDIS_URL then gives only the database and the password.
  REDIS_SENTINELS: z
    .string()
    .regex(/^(\s*[^,:\s]+:\d{1,5}\s*)(,\s*[^,:\s]+:\d{1,5}\s*)*$|^$/, 'host:port, comma-separated')
    .default(''),
  REDIS_SENTINEL_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .default('nishaan'),
  // How long a request's Redis call may take before Redis counts as away (docs/outages.md).
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(1000),
  // Key prefix of every BullMQ queue, so several deployments (or test runs) can share one Redis.
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('nishaan'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Base address that signed file URLs point at; defaults to the listening address.
  PUBLIC_BASE_URL: z.string().url().optional(),
  OBJECT_STORE_DIR: z.string().default('var/objects'),
  // HMAC key for signed file URLs. A random one per process would break URLs across processes: when unset,
  // the one kept in SECRETS_FILE (made at random on first start), as for JWT_SECRET and WEBHOOK_SECRET_KEY.
  URL_SIGNING_SECRET: z.string().min(16).optional(),
  // Where the secrets not set in the environment are kept, readable by the owner only.
  SECRETS_FILE: z.string().default('var/secrets.json'),
  BODY_LIMIT: z.string().default('1mb'),
  DEMO_RECORDS: z.coerce.number().int().min(0).default(50_000),
  DEMO_LOGOS: z.coerce.number().int().min(0).default(2_000),
  DEMO_DIR: z.string().default('var/demo'),
  // Signs dashboard (bearer) tokens.
  JWT_SECRET: z.string().min(32).optional(),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86400)
    .default(12 * 3600),
  // Contract §8 defaults; tests of other features raise them, the limits' own tests lower them.
  RATE_IP_PER_MINUTE: z.coerce.number().int().min(1).default(200),
  RATE_KEY_PER_SECOND: z.coerce.number().int().min(1).default(10),
  PUBLIC_SEARCH_PER_HOUR: z.coerce.number().int().min(1).default(60),
  // Redis key prefix of the rate-limit counters (one per deployment or test run).
  RATE_LIMIT_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_:-]+$/)
    .default('nishaan:rl'),
  // Login throttling (failed attempts per 15 minutes): slowed down past *_SLOW_AFTER, refused past *_MAX; per
  // pair of email and address, per email from anywhere, per address whatever the email.
  LOGIN_PAIR_SLOW_AFTER: z.coerce.number().int().min(0).default(5),
  LOGIN_PAIR_MAX: z.coerce.number().int().min(1).default(10),
  LOGIN_EMAIL_SLOW_AFTER: z.coerce.number().int().min(0).default(20),
  LOGIN_EMAIL_MAX: z.coerce.number().int().min(1).default(100),
  LOGIN_IP_SLOW_AFTER: z.coerce.number().int().min(0).default(20),
  LOGIN_IP_MAX: z.coerce.number().int().min(1).default(50),
  LOGIN_MAX_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(2000),
  // Comma-separated proxy addresses whose X-Forwarded-For is trusted; empty trusts none.
  TRUSTED_PROXIES: z.string().default(''),
  TRIAL_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  // What `npm start` runs on this machine (docs/architecture.md, "Nodes"): API processes, the workers process, the
  // extra batch clearance processes, the ML sidecar; comma-separated. A node finds the others only through
  // PostgreSQL, Redis, the object store and ML_URL.
  NODE_ROLES: z
    .string()
    .regex(
      /^\s*(api|workers|clearance|sidecar)\s*(,\s*(api|workers|clearance|sidecar)\s*)*$/,
      'some of api, workers, clearance, sidecar, comma-separated',
    )
    .default('api,workers,clearance,sidecar'),
  // GET /readyz: not ready once the search index has not seen the whole change feed for this long.
  READY_MAX_LAG_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  // On SIGTERM an API process answers /readyz 503 for this long, still serving, before it stops taking requests: behind
  // a load balancer, its health checks' interval times their fall count (0 on one machine: nothing to tell).
  DRAIN_NOTICE_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  // How npm start's API processes get their connections: each accepts its own from the shared socket (`kernel`),
  // or the supervisor accepts them and hands them round (`round-robin`, Node's default; scripts/start.ts says why not).
  API_CONNECTIONS: z.enum(['kernel', 'round-robin']).default('kernel'),
  // Names this API process's concurrency slots (in Redis) and upload files, so that `npm start` can free
  // them when the process dies; npm start gives each API process its own, anything else gets a random one.
  INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/)
    .default(() => `${process.pid}-${randomBytes(4).toString('hex')}`),
  // Where the word-mark search index is saved for fast starts; empty: never saved (built from PostgreSQL).
  SEARCH_SNAPSHOT: z.string().default('var/search/index.snapshot'),
  // Several nodes: the snapshot is kept in the object store, built by one node and loaded by the others
  // (src/search/sharedSnapshot.ts); off on one machine, where it would only be a second copy.
  SEARCH_SNAPSHOT_SHARE: z.enum(['true', 'false']).default('false'),
  // map: the processes of a machine share the snapshot's pages (one copy in the page cache); read: each reads its
  // own copy (for a file system that cannot map files). Where native/mmap was not built, read.
  SEARCH_SNAPSHOT_LOAD: z.enum(['map', 'read']).default('map'),
  // How long repeated searches are answered from Redis; 0 turns the cache off.
  SEARCH_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  // Object store driver: a local folder (OBJECT_STORE_DIR) or an S3-compatible bucket (S3_*).
  OBJECT_STORE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name')
    .optional(),
  S3_REGION: z.string().default('us-east-1'),
  // An S3-compatible service (MinIO, R2…); AWS when empty.
  S3_ENDPOINT: z.string().url().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  // Static credentials; the AWS SDK's default chain (environment, profile, instance role) when unset.
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9._-]+\/)*$/, 'empty, or folder names each ending in /')
    .default(''),
  // Bulk document zips: how many the workers build at once, and how long a finished zip is kept.
  BULK_DOCUMENTS_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  BULK_ZIP_RETENTION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
  // API processes on this machine: "auto" is one per core, at most 8. They share one copy of the search snapshot
  // (SEARCH_SNAPSHOT_LOAD=map), so more of them cost their own memory only (bench/RESULTS.md, one index per machine).
  API_PROCESSES: z
    .string()
    .regex(/^(auto|[1-9]|[1-5][0-9]|6[0-4])$/, '"auto" or a number of processes from 1 to 64')
    .default('auto'),
  // Source maps in the processes `npm start` runs (scripts/sourceMaps.mjs): a stack trace's lines as in the TypeScript,
  // at about 50 MiB of memory per process; off, its frames name the function and file, with tsx's output's lines.
  SOURCE_MAPS: z.enum(['true', 'false']).default('false'),
  // Batch clearance: processes screening its chunks, the workers process included (docs/clearance.md). "auto": one
  // per core, as many as a third of the memory holds at CLEARANCE_WORKER_BYTES each.
  CLEARANCE_WORKERS: z
    .string()
    .regex(/^(auto|[1-9]|1[0-6])$/, '"auto" or a number of processes from 1 to 16')
    .default('auto'),
  // Webhooks (docs/webhooks.md). The key that encrypts webhook secrets at rest (AES-256-GCM, derived with HKDF).
  WEBHOOK_SECRET_KEY: z.string().min(32).optional(),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_MAX_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  WEBHOOK_RETRY_DELAY_MS: z.coerce.number().int().min(0).default(60_000),
  // Failed attempts in a row (across all of a webhook's deliveries) that disable it.
  WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(1).default(10),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  // Pending work PostgreSQL holds longer than this past its due time is handed to the queue again.
  WEBHOOK_REQUEUE_AFTER_MS: z.coerce.number().int().min(100).default(30_000),
  WEBHOOK_LOG_DAYS: z.coerce.number().int().min(1).default(30),
  // Test-only: comma-separated addresses or CIDR ranges webhooks may reach although private (refused in production).
  WEBHOOK_ALLOW_ADDRESSES: z
    .string()
    .default('')
    .refine((v) => {
      try {
        parseAllowList(v);
        return true;
      } catch {
        return false;
      }
    }, 'must be comma-separated IP addresses or CIDR ranges'),
  // A PEM file of extra certificate authorities webhook endpoints may be signed by (besides the usual roots).
  WEBHOOK_CA_FILE: z.string().optional(),
  // The daily renewal_due job (cron, UTC).
  RENEWAL_CRON: z.string().default('0 1 * * *'),
  // Mail: SMTP when set (smtp://user:pass@host:port), otherwise mail stays in the mail_outbox table and is logged.
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Nishaan <no-reply@nishaan.in>'),
  // Logo search (docs/logos.md). The ML sidecar listens at ML_URL (loopback); `npm start` runs it.
  ML_URL: z.string().url().default('http://127.0.0.1:3100'),
  ML_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  OCR_WORKERS: z.coerce.number().int().min(1).max(8).default(2),
  // "auto": a CLIP model placed in models/clip/ if there is one, else models/manifest.json's default.
  LOGO_MODEL: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .default('auto'),
  LOGO_INDEX_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(4),
  // Where uploaded images are streamed to while their search runs (bulk jobs read them from here).
  UPLOAD_DIR: z.string().default('var/uploads'),
  // An upload holds a concurrency slot while it arrives: one that sends nothing for this long, or takes longer
  // than this in all, is answered 408 and its connection closed (docs/logos.md).
  UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  UPLOAD_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  IMAGE_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // Tests only: host:port pairs the image-URL fetch may reach although they are loopback (refused in production).
  IMAGE_FETCH_TEST_ALLOW: z.string().default(''),
  // Tests only: a PEM file of the CA the local HTTPS test server's certificate is signed with.
  IMAGE_FETCH_TEST_CA: z.string().default(''),
});

type Secret = 'URL_SIGNING_SECRET' | 'JWT_SECRET' | 'WEBHOOK_SECRET_KEY';
const SECRETS: readonly Secret[] = ['URL_SIGNING_SECRET', 'JWT_SECRET', 'WEBHOOK_SECRET_KEY'];

export type Config = Omit<z.infer<typeof Env>, Secret> &
  Record<Secret, string> & {
    objectStoreDir: string;
    searchSnapshot: string | null;
    uploadDir: string;
    /** API_PROCESSES as a number. */
    apiProcesses: number;
    /** CLEARANCE_WORKERS as a number. */
    clearanceWorkers: number;
    /** NODE_ROLES as a set. */
    nodeRoles: Set<NodeRole>;
    /** DATABASE_REPLICA_URLS as a list. */
    databaseReplicaUrls: string[];
  };

export type NodeRole = 'api' | 'workers' | 'clearance' | 'sidecar';

/**
 * What one batch clearance process holds at most: its search index and the analysis's caches
 * (2.0–2.7 GiB of RSS at 7.7M marks after a batch of 1,000 names, bench/RESULTS.md), with room.
 */
export const CLEARANCE_WORKER_BYTES = 3 * 2 ** 30;

/**
 * CLEARANCE_WORKERS resolved: "auto" is one process per core (the analysis is synchronous, one process
 * screens on one core), no more than a third of the machine's memory holds, the API processes' own
 * indexes and PostgreSQL needing the rest; at least one, at most 16.
 */
export function clearanceWorkers(setting: string, cores = os.availableParallelism(), memoryBytes = os.totalmem()): number {
  if (setting !== 'auto') return Number(setting);
  return Math.max(1, Math.min(cores, 16, Math.floor(memoryBytes / 3 / CLEARANCE_WORKER_BYTES)));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  // The development defaults of earlier versions were public: anyone could sign a token or a link with them.
  for (const key of SECRETS) {
    if (cfg[key]?.startsWith('dev-only')) throw new Error(`invalid configuration:\n  ${key}: the public development value is refused`);
  }
  const kept = SECRETS.some((k) => cfg[k] === undefined) ? keptSecrets(path.resolve(cfg.SECRETS_FILE)) : undefined;
  const secrets = Object.fromEntries(SECRETS.map((k) => [k, cfg[k] ?? kept![k]])) as Record<Secret, string>;
  if (cfg.OBJECT_STORE_DRIVER === 's3' && !cfg.S3_BUCKET)
    throw new Error('invalid configuration:\n  S3_BUCKET: required when OBJECT_STORE_DRIVER=s3');
  if (cfg.NODE_ENV === 'production' && cfg.WEBHOOK_ALLOW_ADDRESSES.trim()) {
    throw new Error('invalid configuration:\n  WEBHOOK_ALLOW_ADDRESSES: test-only, refused in production');
  }
  for (const key of ['IMAGE_FETCH_TEST_ALLOW', 'IMAGE_FETCH_TEST_CA'] as const) {
    if (cfg[key] && cfg.NODE_ENV !== 'test') throw new Error(`invalid configuration:\n  ${key}: only honoured when NODE_ENV=test`);
  }
  return {
    ...cfg,
    ...secrets,
    objectStoreDir: path.resolve(cfg.OBJECT_STORE_DIR),
    searchSnapshot: cfg.SEARCH_SNAPSHOT ? path.resolve(cfg.SEARCH_SNAPSHOT) : null,
    uploadDir: path.resolve(cfg.UPLOAD_DIR),
    apiProcesses: cfg.API_PROCESSES === 'auto' ? Math.max(1, Math.min(os.availableParallelism(), 8)) : Number(cfg.API_PROCESSES),
    clearanceWorkers: clearanceWorkers(cfg.CLEARANCE_WORKERS),
    nodeRoles: new Set(cfg.NODE_ROLES.split(',').map((r) => r.trim() as NodeRole)),
    databaseReplicaUrls: cfg.DATABASE_REPLICA_URLS.split(',')
      .map((u) => u.trim())
      .filter(Boolean),
  };
}

/**
 * The secrets kept in `file` (URL signing, dashboard tokens, webhook secret encryption): made at random by the
 * first process of a first start, then read by every other process and every later start, so that links, tokens
 * and sealed webhook secrets stay valid across processes and restarts. Written whole or not at all (a temporary
 * file linked into place: of processes starting together, one makes it and the others read it), readable by
 * the owner only. Losing it invalidates links and tokens and leaves sealed webhook secrets unreadable: keep it,
 * or set the variables (the same on every machine of a deployment).
 */
function keptSecrets(file: string): Record<Secret, string> {
  const read = (): Record<Secret, string> | null => {
    try {
      const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Record<Secret, unknown>>;
      if (SECRETS.every((k) => typeof v[k] === 'string' && (v[k] as string).length >= 32)) return v as Record<Secret, string>;
      throw new Error(`invalid configuration:\n  SECRETS_FILE: ${file} does not hold the secrets ${SECRETS.join(', ')}`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };
  const found = read();
  if (found) return found;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const made = Object.fromEntries(SECRETS.map((k) => [k, randomBytes(32).toString('base64url')])) as Record<Secret, string>;
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(tmp, `${JSON.stringify(made, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
    return made;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return read()!;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
