import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';

/** Where scripts/build-web.ts leaves the web app's build. */
export const WEB_DIST = new URL('../../web/dist', import.meta.url).pathname;

// The page and its scripts come from this origin only; the API it calls is this origin too.
const CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The web app (web/, issue 23) as the API processes serve it: the public search page at /, a mark's page at
 * /marks/{app_no}/ and the dashboard under /app/, all index.html (re-checked on every visit: no-cache), and Vite's hashed files
 * under /assets/ (immutable for a year: a new build has new names). Nothing else is claimed, so every
 * other path (/v1/..., /user/..., a typo) keeps the API's JSON 404. Without a build, nothing is served.
 */
export function webAppRouter(dist = WEB_DIST): Router {
  const router = express.Router();
  const index = path.join(dist, 'index.html');
  const page: express.RequestHandler = (_req, res, next) => {
    if (!fs.existsSync(index)) return next();
    res.set({ 'Cache-Control': 'no-cache', 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff' });
    res.sendFile(index, (err) => err && next(err));
  };
  router.get(['/', '/app', '/app/{*rest}', '/marks/{*rest}'], page);
  router.use(
    '/assets',
    express.static(path.join(dist, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: true, redirect: false }),
  );
  // The unhashed files of web/public (favicon.svg): a day, as they can change under the same name.
  router.get('/favicon.svg', express.static(dist, { index: false, maxAge: '1d', redirect: false }));
  return router;
}
