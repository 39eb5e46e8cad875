import express, { type Express } from 'express';
import type { Root } from '../root.ts';
import { publicCors } from './cors.ts';
import { docsRouter } from './docsPage.ts';
import { Api, type Documented } from './endpoint.ts';
import { errorHandler, notFoundHandler, requireJsonBody } from './errorHandler.ts';
import { Guard } from './guard.ts';
import { guidesRouter } from './guides.ts';
import { methodNotAllowed } from './methods.ts';
import { generateOpenApi } from './openapi.ts';
import { requestLog } from './requestLog.ts';
import { filesRouter } from './routes/files.ts';
import { registerRoutes } from './routes/index.ts';
import { PUBLIC_MARK_PATH, PUBLIC_SEARCH_PATH } from './routes/search.ts';
import { calendarFeedRouter } from './routes/watchChannels.ts';
import { webAppRouter } from './webApp.ts';

export interface BuiltApp {
  app: Express;
  openapi: object;
  /** The endpoints the document describes, as declared. */
  endpoints: readonly Documented[];
}

export interface AppOptions {
  /**
   * Benchmarks only (bench/auth.ts measures what the checks cost): key endpoints skip
   * authentication, limits and quotas and see every category. Never set from configuration.
   */
  unguarded?: boolean;
}

/** The API's Express app over the services the root built: it mounts, it builds nothing of its own but the guard. */
export function buildApp(root: Root, opts: AppOptions = {}): BuiltApp {
  const { config, services } = root;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // The client address is the socket's, unless the request came through a configured proxy.
  const proxies = config.TRUSTED_PROXIES.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  app.set('trust proxy', proxies.length ? proxies : false);
  // Names what this process leaves behind if it dies (upload files, concurrency slots): see src/http/uploads.ts.
  app.locals.instance = config.INSTANCE_ID;

  const guard = new Guard(
    services.callers,
    root.repos.callers,
    services.ledger,
    services.limits,
    services.tokens,
    opts.unguarded ?? false,
    services.sessions,
  );

  app.use(requestLog(root.log));
  // Every answer is what its Content-Type says: no browser sniffs a JSON error, a file or a PDF into a page.
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use(requireJsonBody);
  app.use(express.json({ limit: config.BODY_LIMIT, strict: true, type: 'application/json' }));

  const router = express.Router();
  // Every request counts once against its IP's limit: endpoints declared through Api do it in the
  // pipeline (keyed ones in the same Redis call as their other limits), everything else below.
  const api = new Api(router, guard, config.NODE_ENV !== 'production', root.ownWrites);
  registerRoutes(api, services);
  const openapi = generateOpenApi(api.registry);

  app.use(publicCors([PUBLIC_SEARCH_PATH, PUBLIC_MARK_PATH], (req) => guard.ip(req)));
  app.use(router);
  // Before the per-IP count: a page's own files are not API calls and must not spend a visitor's allowance.
  app.use(webAppRouter());
  // Asked every few seconds by a load balancer, and must answer while Redis (where the per-IP count lives) is away.
  app.get('/readyz', async (_req, res) => {
    const r = await root.readiness.check();
    res.status(r.ready ? 200 : 503).json(r);
  });
  app.use(async (req, _res, next) => {
    await guard.ip(req);
    next();
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use(docsRouter());
  app.use(guidesRouter());
  app.use(filesRouter(root.store, root.signer, (accountId) => services.plans.get(accountId)));
  app.use(calendarFeedRouter(services.watchCalendar));
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.use(methodNotAllowed(app));
  app.use(notFoundHandler);
  app.use(errorHandler(root.log, (e) => services.planCatalogue.explain(e)));
  return { app, openapi, endpoints: api.endpoints };
}
