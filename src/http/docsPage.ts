import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';

const require = createRequire(import.meta.url);

// Swagger UI from the npm package's own files: no CDN.
export function docsRouter(): Router {
  const dist = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const router = express.Router();
  router.get('/docs', (_req, res) => {
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
