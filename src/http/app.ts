import express, { type Express } from 'express';
import type { Deps } from '../deps.ts';
import { Api } from './endpoint.ts';
import { errorHandler, notFoundHandler, requireJsonBody } from './errorHandler.ts';
import { generateOpenApi } from './openapi.ts';
import { docsRouter } from './docsPage.ts';
import { requestLog } from './requestLog.ts';
import { filesRouter } from './routes/files.ts';
import { registerRoutes } from './routes/index.ts';
import { Guard } from './guard.ts';
import { CallerRepository } from '../accounts/callerRepository.ts';
import { TokenService } from '../accounts/tokens.ts';
import { CallerCache } from '../accounts/callerCache.ts';
import { PlanCache } from '../accounts/planCache.ts';
import { QuotaRepository } from '../limits/quotaRepository.ts';
import { CreditLedger } from '../limits/credits.ts';
import { RateLimits } from '../limits/rateLimits.ts';

export interface BuiltApp {
  app: Express;
  openapi: object;
  limits: RateLimits;
  tokens: TokenService;
  ledger: CreditLedger;
}

export interface AppOptions {
  /**
   * Benchmarks only (bench/auth.ts measures what the checks cost): key endpoints skip
   * authentication, limits and quotas and see every category. Never set from configuration.
   */
  unguarded?: boolean;
}

export function buildApp(deps: Deps, opts: AppOptions = {}): BuiltApp {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // The client address is the socket's, unless the request came through a configured proxy.
  const proxies = config.TRUSTED_PROXIES.split(',').map((s) => s.trim()).filter(Boolean);
  app.set('trust proxy', proxies.length ? proxies : false);
  // Names what this process leaves behind if it dies (upload files, concurrency slots): see src/http/uploads.ts.
  app.locals.instance = config.INSTANCE_ID;

  const limits = new RateLimits(deps.redis, {
    ipPerMinute: config.RATE_IP_PER_MINUTE, keyPerSecond: config.RATE_KEY_PER_SECOND,
    publicSearchPerHour: config.PUBLIC_SEARCH_PER_HOUR, prefix: config.RATE_LIMIT_PREFIX, instance: config.INSTANCE_ID,
    login: {
      emailSlowAfter: config.LOGIN_EMAIL_SLOW_AFTER, emailMax: config.LOGIN_EMAIL_MAX,
      ipSlowAfter: config.LOGIN_IP_SLOW_AFTER, ipMax: config.LOGIN_IP_MAX, maxDelayMs: config.LOGIN_MAX_DELAY_MS,
    },
  }, deps.log);
  const tokens = new TokenService(config.JWT_SECRET, config.JWT_TTL_SECONDS);
  const ledger = new CreditLedger(deps.redis, new QuotaRepository(deps.db), config.RATE_LIMIT_PREFIX, deps.log);
  const callers = new CallerRepository(deps.db);
  const guard = new Guard(new CallerCache(callers, deps.listener), callers, ledger, limits, tokens, opts.unguarded ?? false);

  app.use(requestLog(deps.log));
  app.use(requireJsonBody);
  app.use(express.json({ limit: config.BODY_LIMIT, strict: true, type: 'application/json' }));

  const router = express.Router();
  // Every request counts once against its IP's limit: endpoints declared through Api do it in the
  // pipeline (keyed ones in the same Redis call as their other limits), everything else below.
  const api = new Api(router, guard, config.NODE_ENV !== 'production');
  registerRoutes(api, deps, { tokens, limits, ledger });
  const openapi = generateOpenApi(api.registry);

  app.use(router);
  app.use(async (req, _res, next) => {
    await guard.ip(req);
    next();
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use(docsRouter());
  const plans = new PlanCache(callers, deps.listener);
  app.use(filesRouter(deps.store, deps.signer, (accountId) => plans.get(accountId)));
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return { app, openapi, limits, tokens, ledger };
}
