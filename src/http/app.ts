import express, { type Express } from 'express';
import type { Deps } from '../deps.ts';
import { Api } from './endpoint.ts';
import { errorHandler, notFoundHandler, requireJsonBody } from './errorHandler.ts';
import { generateOpenApi } from './openapi.ts';
import { docsRouter } from './docsPage.ts';
import { requestLog } from './requestLog.ts';
import { filesRouter } from './routes/files.ts';
import { registerRoutes } from './routes/index.ts';
import { openAccess } from '../accounts/access.ts';

export interface BuiltApp {
  app: Express;
  openapi: object;
}

export function buildApp(deps: Deps): BuiltApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(requestLog(deps.log));
  app.use(requireJsonBody);
  app.use(express.json({ limit: deps.config.BODY_LIMIT, strict: true, type: 'application/json' }));

  const router = express.Router();
  const api = new Api(router, deps.config.NODE_ENV !== 'production');
  registerRoutes(api, deps);
  const openapi = generateOpenApi(api.registry);

  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use(docsRouter());
  app.use(filesRouter(deps.store, deps.signer));
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  // Authentication and plan gating attach the caller here (accounts issue); until then all is open.
  app.use(['/v1', '/public/v1'], openAccess);
  app.use(router);
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));
  return { app, openapi };
}
