// The composition root: where a process's parts are built from its configuration, each once. The API
// (src/server.ts, src/http/app.ts), the workers process (workers/main.ts), the scripts and the tests
// all start here; routes and worker wiring are handed what it built and make nothing themselves.
// Building connects to nothing (printing the OpenAPI document opens no connection): pools and Redis
// connect on first use, the listener and the search index when started. docs/architecture.md draws it.
import fs from 'node:fs';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { AccountRepository } from './accounts/accountRepository.ts';
import { AccountService } from './accounts/accountService.ts';
import { AdminRepository } from './accounts/adminRepository.ts';
import { CallerCache } from './accounts/callerCache.ts';
import { CallerRepository } from './accounts/callerRepository.ts';
import { PlanCache } from './accounts/planCache.ts';
import { PlanCatalogue } from './accounts/planCatalogue.ts';
import { PlanRepository } from './accounts/planRepository.ts';
import { SessionStore } from './accounts/sessions.ts';
import { TokenService } from './accounts/tokens.ts';
import { ClearanceBatchRepository } from './clearance/batchRepository.ts';
import { CLEARANCE_BATCH_QUEUE, ClearanceBatchService } from './clearance/batchService.ts';
import { ProposedLogos } from './clearance/logo.ts';
import { groundsOf } from './clearance/registrability.ts';
import { ClearanceReportService } from './clearance/reports.ts';
import { ClearanceRepository } from './clearance/repository.ts';
import { ClearanceService } from './clearance/service.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { createDb, type Db } from './db/knex.ts';
import { ChangeListener } from './db/listener.ts';
import { OwnWrites } from './db/ownWrites.ts';
import { ReplicaSet, type StaleRead } from './db/replicas.ts';
import { BulkJobRepository } from './documents/bulkRepository.ts';
import { BULK_QUEUE, BulkDocumentService } from './documents/bulkService.ts';
import { DocumentRepository } from './documents/documentRepository.ts';
import { DocumentService } from './documents/documentService.ts';
import { JournalRepository } from './documents/journalRepository.ts';
import { JournalService } from './documents/journalService.ts';
import { ReportService } from './documents/reportService.ts';
import { Readiness } from './health/readiness.ts';
import { JournalImporter } from './ingest/journal/importJournal.ts';
import { JournalImportRepository } from './ingest/journal/repository.ts';
import { CreditLedger } from './limits/credits.ts';
import { QuotaRepository } from './limits/quotaRepository.ts';
import { RateLimits } from './limits/rateLimits.ts';
import { UsageService } from './limits/usageService.ts';
import { createLogger, type Logger } from './logger.ts';
import { FanOut } from './logos/fanout.ts';
import type { FetchOptions } from './logos/imageFetch.ts';
import type { ImageSearchDeps } from './logos/imageSearch.ts';
import { LogoRepository } from './logos/repository.ts';
import { LogoService } from './logos/service.ts';
import { SidecarClient } from './logos/sidecarClient.ts';
import { LogoTextIndex } from './logos/textIndex.ts';
import { MailRelay } from './mail/mailer.ts';
import { MailRepository } from './mail/mailRepository.ts';
import { type OutboundClient, outboundClient } from './outbound/client.ts';
import { OwnerRepository } from './owners/repository.ts';
import { OwnerService } from './owners/service.ts';
import { RedisConnections, type RedisHealth, sentinelsOf } from './redis.ts';
import { ReferenceRepository } from './reference/repository.ts';
import { ReferenceService } from './reference/service.ts';
import { ViennaRepository } from './reference/viennaRepository.ts';
import { SearchCache } from './search/cache.ts';
import { SearchIndex } from './search/manager.ts';
import { SearchService } from './search/service.ts';
import { refreshFromStore } from './search/sharedSnapshot.ts';
import { createObjectStore } from './storage/factory.ts';
import type { ObjectStore } from './storage/objectStore.ts';
import { UrlSigner } from './storage/urlSigner.ts';
import { Analyser } from './threats/analysis.ts';
import { ThreatRepository } from './threats/repository.ts';
import { ThreatService } from './threats/service.ts';
import { RegisterValues } from './trademarks/markFilter.ts';
import { TrademarkRepository } from './trademarks/repository.ts';
import { TrademarkService } from './trademarks/service.ts';
import { BackfillRepository } from './watches/backfillRepository.ts';
import { BackfillService } from './watches/backfillService.ts';
import { CalendarRepository } from './watches/calendarRepository.ts';
import { CalendarService } from './watches/calendarService.ts';
import { DigestRepository } from './watches/digestRepository.ts';
import { DigestService } from './watches/digestService.ts';
import { HitRecorder } from './watches/hitRecorder.ts';
import { HitRepository } from './watches/hitRepository.ts';
import { HitService } from './watches/hitService.ts';
import { WatchMatcher } from './watches/matcher.ts';
import { ReminderRepository } from './watches/reminderRepository.ts';
import { WatchRepository } from './watches/repository.ts';
import { WatchService } from './watches/service.ts';
import { ChangesFeed } from './webhooks/changes.ts';
import { Deliverer, type DeliverySettings } from './webhooks/delivery.ts';
import { DeliveryRepository } from './webhooks/deliveryRepository.ts';
import { FeedRepository } from './webhooks/feedRepository.ts';
import { RenewalRepository } from './webhooks/renewalRepository.ts';
import { WebhookRepository } from './webhooks/repository.ts';
import { SecretBox } from './webhooks/secrets.ts';
import { WebhookService } from './webhooks/service.ts';

export interface RootOptions {
  /** What signed links and reports read the time from (tests pass a clock they move). */
  clock?: Clock;
  /** PostgreSQL connections at most (default DB_POOL_MAX). */
  dbPoolMax?: number;
  /** How long one call to the ML sidecar may take. */
  sidecarTimeoutMs?: number;
  /** How long a query waits for a pool connection (default DB_ACQUIRE_TIMEOUT_MS). */
  dbAcquireTimeoutMs?: number;
}

/**
 * The workers process: many consumers share the pool, indexing an image may wait longer than a request, and a
 * job may wait its turn for a connection (there is no client waiting on it).
 */
export const WORKERS: RootOptions = { dbPoolMax: 16, sidecarTimeoutMs: 120_000, dbAcquireTimeoutMs: 60_000 };

/** A script (an import, the demo's seeding) waits its turn for a connection rather than failing as a request would. */
export const SCRIPT: RootOptions = { dbAcquireTimeoutMs: 60_000 };

export interface Repositories {
  owners: OwnerRepository;
  journalImport: JournalImportRepository;
  watchBackfills: BackfillRepository;
  accounts: AccountRepository;
  /** Plans, subscriptions and add-ons, as the admin CLI changes them. */
  admin: AdminRepository;
  callers: CallerRepository;
  plans: PlanRepository;
  quotas: QuotaRepository;
  trademarks: TrademarkRepository;
  threats: ThreatRepository;
  clearance: ClearanceRepository;
  clearanceBatches: ClearanceBatchRepository;
  journals: JournalRepository;
  documents: DocumentRepository;
  bulkJobs: BulkJobRepository;
  reference: ReferenceRepository;
  vienna: ViennaRepository;
  webhooks: WebhookRepository;
  deliveries: DeliveryRepository;
  feed: FeedRepository;
  renewals: RenewalRepository;
  mail: MailRepository;
  logos: LogoRepository;
  watches: WatchRepository;
  watchHits: HitRepository;
  watchHitRecorder: HitRecorder;
  watchReminders: ReminderRepository;
  watchCalendars: CalendarRepository;
  watchDigests: DigestRepository;
}

export interface Services {
  trademarks: TrademarkService;
  search: SearchService;
  threats: ThreatService;
  /** A proposed mark screened in the classes asked for (the threats analysis of a mark not yet filed). */
  clearance: ClearanceService;
  /** Up to 1,000 proposals screened by the workers (POST /v1/clearance/batch/). */
  clearanceBatches: ClearanceBatchService;
  journals: JournalService;
  reference: ReferenceService;
  accounts: AccountService;
  usage: UsageService;
  tokens: TokenService;
  /** Dashboard browser sessions (the httpOnly cookie's server side). */
  sessions: SessionStore;
  limits: RateLimits;
  ledger: CreditLedger;
  /** Who an API key or token belongs to, cached until PostgreSQL announces a change. */
  callers: CallerCache;
  /** The subscription of the account a signed link was issued to. */
  plans: PlanCache;
  /** The plans anyone can sign up for (GET /user/v1/plans/), and which of them a 403 would have let through. */
  planCatalogue: PlanCatalogue;
  documents: DocumentService;
  reports: ReportService;
  /** A single clearance or a batch as a PDF or xlsx report. */
  clearanceReports: ClearanceReportService;
  bulkDocuments: BulkDocumentService;
  webhooks: WebhookService;
  changes: ChangesFeed;
  logos: LogoService;
  /** Similarity watches: proposals watched for confusingly similar new filings (/user/v1/watches/). */
  watches: WatchService;
  /** The hits watches recorded, read and triaged by their account (/user/v1/watches/hits/). */
  watchHits: HitService;
  /** Each account's .ics feed of its hits' opposition deadlines. */
  watchCalendar: CalendarService;
  /** Each account's mail digest of watch hits (written by the daily reminders job). */
  watchDigest: DigestService;
  /** Meets the marks new in an import run with the watches they could fire (the workers'). */
  watchMatcher: WatchMatcher;
  /** Watches run over past journals, as jobs of the workers. */
  watchBackfills: BackfillService;
  /** Proprietor names grouped into owner entities (/v1/owners/), after each import. */
  owners: OwnerService;
  /** The Trade Marks Journal as published, taken in (npm run import-journal). */
  journalImport: JournalImporter;
  /**
   * Resolves once this process has heard PostgreSQL announce the changes committed so far, so a
   * revoked key is refused by the very next request to this process (others hear within milliseconds).
   */
  announced(): Promise<void>;
  /** Where multipart uploads are streamed to, and how long one may take to arrive. */
  uploads: { dir: string; idleMs: number; totalMs: number };
  /** Signed webhook deliveries (the workers'). */
  deliverer: Deliverer;
  /** Unsent mail, sent (the workers'). */
  mail: MailRelay;
}

/** Logo search's long-lived parts: the sidecar client, the OCR text index, the bulk fan-out. */
export interface LogoParts {
  repo: LogoRepository;
  sidecar: SidecarClient;
  texts: LogoTextIndex;
  /** What searching one image needs, in the API and in the workers. */
  images: ImageSearchDeps;
  /** The bulk fan-out, connected on first use. */
  fanout(): FanOut;
}

export interface Root {
  config: Config;
  log: Logger;
  clock: Clock;
  db: Db;
  /** The command connection (rate limits, credits, caches); `connections` makes the others. */
  redis: Redis;
  connections: RedisConnections;
  store: ObjectStore;
  signer: UrlSigner;
  /** Base URL clients reach this API at; the server sets it once it listens. */
  baseUrl: { value: string };
  /** PostgreSQL notifications of changes this process caches; start() it before serving. */
  listener: ChangeListener;
  /** The word-mark search index (loaded on first use; the server loads it before listening). */
  search: SearchIndex;
  /** Whether this process should be sent traffic (GET /readyz). */
  readiness: Readiness;
  /** Read replicas of the register (DATABASE_REPLICA_URLS): checked once start()ed, by the processes that serve. */
  replicas: ReplicaSet;
  /** Keeps a caller's reads off replicas that have not replayed its last write. */
  ownWrites: OwnWrites;
  logos: LogoParts;
  /** HTTPS to customers' webhook endpoints, through the address policy. */
  outbound: OutboundClient;
  /**
   * How many times and how far apart a webhook delivery is attempted: the deliverer decides its last
   * attempt by it and the relay sizes each delivery's BullMQ job by it, so the two must agree.
   */
  delivery: DeliverySettings;
  repos: Repositories;
  services: Services;
  close(): Promise<void>;
}

export function createRoot(config: Config, opts: RootOptions = {}): Root {
  const clock = opts.clock ?? systemClock;
  const log = createLogger(config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, opts.dbPoolMax ?? config.DB_POOL_MAX, opts.dbAcquireTimeoutMs ?? config.DB_ACQUIRE_TIMEOUT_MS);
  const connections = new RedisConnections(
    config.REDIS_URL,
    log,
    config.REDIS_COMMAND_TIMEOUT_MS,
    sentinelsOf(config.REDIS_SENTINELS, config.REDIS_SENTINEL_NAME),
  );
  const signer = new UrlSigner(config.URL_SIGNING_SECRET, () => clock.now());
  const baseUrl = { value: config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}` };
  const store = createObjectStore(config, signer, () => baseUrl.value);
  const listener = new ChangeListener(config.DATABASE_URL, log);
  const snapshotFile = config.SEARCH_SNAPSHOT_SHARE === 'true' ? config.searchSnapshot : null;
  const refresh = snapshotFile ? () => refreshFromStore(snapshotFile, store) : null;
  const replicas = new ReplicaSet(db, config.databaseReplicaUrls, config.REPLICA_MAX_LAG_SECONDS);
  // The change feed is read on a replica in rotation, when there is one.
  const search = new SearchIndex(config.DATABASE_URL, config.searchSnapshot, listener, log, config.SEARCH_SNAPSHOT_LOAD, refresh, replicas);
  const outbound = outboundClient(config);
  const repos = repositories(db, (f) => replicas.read(f));
  const logos = logoParts(config, repos.logos, connections, opts.sidecarTimeoutMs);

  const redis = connections.commands;
  const { health } = connections;
  const ledger = new CreditLedger(redis, repos.quotas, config.RATE_LIMIT_PREFIX, log, health);
  const callers = new CallerCache(repos.callers, listener, undefined, undefined, clock);
  const trademarks = new TrademarkService(repos.trademarks, store);
  const cache = new SearchCache(redis, config.RATE_LIMIT_PREFIX, config.SEARCH_CACHE_TTL_SECONDS, log, health);
  const wordSearch = new SearchService(search, repos.trademarks, cache, repos.owners);
  const registerValues = new RegisterValues(search, repos.trademarks);
  // One analysis of likely confusion, behind both a mark's threats and a clearance.
  const analyser = new Analyser(search, repos.trademarks, repos.threats, logos.texts);
  const watchMatcher = new WatchMatcher(
    repos.watches,
    repos.watchHitRecorder,
    analyser,
    repos.threats,
    search,
    repos.trademarks,
    repos.owners,
  );
  // Made on first use, on the command connection: a request fails when Redis is away instead of waiting for it.
  let bulkQueue: Queue | undefined;
  const bulkQueueOf = () =>
    (bulkQueue ??= health.quiet(new Queue(BULK_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX }), 'bulk document queue'));
  let clearanceQueue: Queue | undefined;
  const clearanceQueueOf = () =>
    (clearanceQueue ??= health.quiet(
      new Queue(CLEARANCE_BATCH_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX }),
      'clearance queue',
    ));
  const grounds = groundsOf(() => repos.reference.groundLists(), clock);
  const clearance = new ClearanceService(analyser, new ProposedLogos(logos.sidecar, logos.images.fetch), repos.clearance, store, grounds, {
    reference: repos.reference,
    marks: repos.trademarks,
  });
  const secrets = new SecretBox(config.WEBHOOK_SECRET_KEY);
  const mail = new MailRelay(repos.mail, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }, log);
  const delivery: DeliverySettings = {
    maxAttempts: config.WEBHOOK_MAX_RETRIES + 1,
    retryDelayMs: config.WEBHOOK_RETRY_DELAY_MS,
    disableAfter: config.WEBHOOK_DISABLE_AFTER,
  };

  const services: Services = {
    trademarks,
    search: wordSearch,
    threats: new ThreatService(search, analyser, repos.trademarks, repos.threats, cache, config.LOGO_MODEL),
    clearance,
    clearanceBatches: new ClearanceBatchService(repos.clearanceBatches, clearance, clearanceQueueOf, log, () => baseUrl.value, health),
    journals: new JournalService(repos.journals, registerValues),
    reference: new ReferenceService(repos.reference, repos.vienna),
    accounts: new AccountService(repos.accounts, config.TRIAL_DAYS),
    usage: new UsageService(repos.accounts, ledger),
    tokens: new TokenService(config.JWT_SECRET, config.JWT_TTL_SECONDS),
    sessions: new SessionStore(redis, config.RATE_LIMIT_PREFIX, config.JWT_SECRET, config.JWT_TTL_SECONDS, health),
    limits: rateLimits(config, redis, health, log),
    ledger,
    callers,
    plans: new PlanCache(repos.callers, listener, clock),
    planCatalogue: new PlanCatalogue(repos.plans, listener, config.TRIAL_DAYS, clock),
    documents: new DocumentService(repos.documents, repos.journals, store),
    reports: new ReportService(repos.trademarks, wordSearch, store, () => new Date(clock.now())),
    clearanceReports: new ClearanceReportService(
      repos.clearance,
      repos.clearanceBatches,
      store,
      repos.trademarks,
      () => new Date(clock.now()),
    ),
    bulkDocuments: new BulkDocumentService(repos.documents, repos.bulkJobs, bulkQueueOf, store, log, () => baseUrl.value, health),
    webhooks: new WebhookService(repos.webhooks, secrets, outbound),
    changes: new ChangesFeed(repos.feed),
    logos: new LogoService(repos.logos, logos.texts, store, logos.images, logos.fanout, registerValues),
    watches: new WatchService(
      repos.watches,
      repos.webhooks,
      new ProposedLogos(logos.sidecar, logos.images.fetch),
      watchMatcher,
      repos.owners,
    ),
    watchHits: new HitService(repos.watchHits, repos.watches),
    watchCalendar: new CalendarService(repos.watchCalendars, () => baseUrl.value),
    watchDigest: new DigestService(repos.watchDigests, () => baseUrl.value, log),
    watchMatcher,
    owners: new OwnerService(repos.owners, registerValues),
    journalImport: new JournalImporter(repos.journalImport, db, store),
    watchBackfills: new BackfillService(repos.watchBackfills, repos.watches, watchMatcher, repos.watchHitRecorder, log),
    announced: () => listener.sync(),
    uploads: { dir: config.uploadDir, idleMs: config.UPLOAD_IDLE_TIMEOUT_MS, totalMs: config.UPLOAD_TIMEOUT_MS },
    deliverer: new Deliverer(
      repos.deliveries,
      callers,
      trademarks,
      secrets,
      outbound,
      delivery,
      log,
      () => void mail.sendPending().catch((err) => log.error({ err }, 'mail relay failed')),
    ),
    mail,
  };

  let closing: Promise<void> | undefined;
  return {
    config,
    log,
    clock,
    db,
    redis,
    connections,
    store,
    signer,
    baseUrl,
    listener,
    search,
    readiness: new Readiness(db, connections, search, config.READY_MAX_LAG_SECONDS, replicas),
    replicas,
    // Kept past the longest a replica in rotation may lag behind.
    ownWrites: new OwnWrites(
      db,
      redis,
      health,
      config.RATE_LIMIT_PREFIX,
      config.databaseReplicaUrls.length > 0,
      Math.max(60, 2 * config.REPLICA_MAX_LAG_SECONDS),
    ),
    logos,
    outbound,
    delivery,
    repos,
    services,
    close() {
      closing ??= (async () => {
        await search.close();
        await logos.close();
        await bulkQueue?.close();
        await clearanceQueue?.close();
        await Promise.all([db.destroy(), replicas.close(), listener.close(), store.close?.()]);
        mail.close();
        outbound.close();
        connections.disconnect();
      })();
      return closing;
    },
  };
}

function repositories(db: Db, read: StaleRead): Repositories {
  return {
    accounts: new AccountRepository(db),
    admin: new AdminRepository(db),
    callers: new CallerRepository(db),
    plans: new PlanRepository(db),
    quotas: new QuotaRepository(db),
    trademarks: new TrademarkRepository(db, read),
    threats: new ThreatRepository(db),
    clearance: new ClearanceRepository(db),
    clearanceBatches: new ClearanceBatchRepository(db, read),
    journals: new JournalRepository(db, read),
    documents: new DocumentRepository(db),
    bulkJobs: new BulkJobRepository(db),
    reference: new ReferenceRepository(db),
    vienna: new ViennaRepository(db),
    webhooks: new WebhookRepository(db, read),
    deliveries: new DeliveryRepository(db),
    feed: new FeedRepository(db),
    renewals: new RenewalRepository(db),
    mail: new MailRepository(db),
    logos: new LogoRepository(db, read),
    watches: new WatchRepository(db, read),
    watchHits: new HitRepository(db, read),
    watchHitRecorder: new HitRecorder(db),
    watchReminders: new ReminderRepository(db),
    watchCalendars: new CalendarRepository(db),
    watchDigests: new DigestRepository(db),
    owners: new OwnerRepository(db),
    journalImport: new JournalImportRepository(db),
    watchBackfills: new BackfillRepository(db),
  };
}

function rateLimits(config: Config, redis: Redis, health: RedisHealth, log: Logger): RateLimits {
  return new RateLimits(
    redis,
    {
      ipPerMinute: config.RATE_IP_PER_MINUTE,
      keyPerSecond: config.RATE_KEY_PER_SECOND,
      publicSearchPerHour: config.PUBLIC_SEARCH_PER_HOUR,
      prefix: config.RATE_LIMIT_PREFIX,
      instance: config.INSTANCE_ID,
      login: {
        pairSlowAfter: config.LOGIN_PAIR_SLOW_AFTER,
        pairMax: config.LOGIN_PAIR_MAX,
        emailSlowAfter: config.LOGIN_EMAIL_SLOW_AFTER,
        emailMax: config.LOGIN_EMAIL_MAX,
        ipSlowAfter: config.LOGIN_IP_SLOW_AFTER,
        ipMax: config.LOGIN_IP_MAX,
        maxDelayMs: config.LOGIN_MAX_DELAY_MS,
      },
    },
    log,
    health,
  );
}

function logoParts(
  config: Config,
  repo: LogoRepository,
  connections: RedisConnections,
  sidecarTimeoutMs?: number,
): LogoParts & { close(): Promise<void> } {
  const sidecar = new SidecarClient(config.ML_URL, sidecarTimeoutMs);
  const allow = config.IMAGE_FETCH_TEST_ALLOW.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const fetch: FetchOptions = {
    timeoutMs: config.IMAGE_FETCH_TIMEOUT_MS,
    ...(allow.length ? { allow: new Set(allow) } : {}),
    ...(config.IMAGE_FETCH_TEST_CA ? { ca: fs.readFileSync(config.IMAGE_FETCH_TEST_CA) } : {}),
  };
  let fan: FanOut | undefined;
  return {
    repo,
    sidecar,
    texts: new LogoTextIndex(repo),
    images: { sidecar, repo, fetch, uploadDir: config.uploadDir },
    fanout: () => (fan ??= new FanOut(connections, config.QUEUE_PREFIX)),
    close: async () => fan?.close(),
  };
}
