import express, { type Request, type Router } from 'express';

// A page on another site reads only safelisted response headers unless told: the limits and the request id.
const EXPOSED = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id'].join(', ');

/**
 * CORS on the paths any site's page may call with GET, without credentials: origin `*` (so nothing varies
 * by Origin) on every answer, refusals included, and the preflight answered 204, counted against the
 * address like any other request but not as a search. Other paths send no CORS header: a key in a page
 * is a key given away, so keyed endpoints stay for servers.
 */
export function publicCors(paths: string[], countIp: (req: Request) => Promise<void>): Router {
  const router = express.Router();
  for (const path of paths) {
    router.all(path, async (req, res, next) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      if (req.method !== 'OPTIONS') {
        res.setHeader('Access-Control-Expose-Headers', EXPOSED);
        next();
        return;
      }
      await countIp(req);
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD');
      res.setHeader('Access-Control-Allow-Headers', 'X-Request-Id');
      res.setHeader('Access-Control-Max-Age', '86400');
      res.status(204).end();
    });
  }
  return router;
}
