import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';

const require = createRequire(import.meta.url);

/**
 * What the docs page may load: its own scripts and styles (Swagger UI's files, served below), the API document,
 * images drawn inline. Swagger UI sets styles on elements itself, hence 'unsafe-inline' for styles only; no
 * inline script, no other origin, no framing by another site.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// Swagger UI from the npm package's own files: no CDN.
export function docsRouter(): Router {
  const dist = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const router = express.Router();
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.type('html').send(`<!doctype html><html><head><meta charset="utf-8"><title>Nishaan API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('js').send(`window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui' });`);
  });
  router.use('/docs/assets', express.static(dist, { index: false }));
  return router;
}
