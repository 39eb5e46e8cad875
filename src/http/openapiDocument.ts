import { loadConfig } from '../config.ts';
import { createRoot } from '../root.ts';
import { buildApp } from './app.ts';

/** The document exactly as the app serves it, built without a database connection being opened. */
export function buildOpenApiDocument(): object {
  const root = createRoot(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
  try {
    return buildApp(root).openapi;
  } finally {
    void root.close();
  }
}
