import { loadConfig } from '../config.ts';
import { createDeps, closeDeps } from '../deps.ts';
import { buildApp } from './app.ts';

/** The document exactly as the app serves it, built without a database connection being opened. */
export function buildOpenApiDocument(): object {
  const deps = createDeps(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
  try {
    return buildApp(deps).openapi;
  } finally {
    void closeDeps(deps);
  }
}
