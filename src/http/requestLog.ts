import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.ts';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request an id (a sane caller-supplied X-Request-Id is kept, so logs on both sides line
 * up), returns it in X-Request-Id, and logs one pino line per finished request. Written by hand rather
 * than with pino-http: that builds a child logger per request, a measurable cost on the hot path.
 */
export function requestLog(log: Logger): RequestHandler {
  const enabled = log.isLevelEnabled('info');
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (enabled) {
      const start = process.hrtime.bigint();
      // Taken now: a mounted router rewrites req.url while it runs.
      const path = req.path;
      res.once('finish', () => {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        // The path and the names of query parameters, never their values: a signed file URL carries its
        // signature there, and search text can be a client's confidential candidate mark.
        const line: Record<string, unknown> = {
          request_id: id,
          method: req.method,
          path,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        };
        if (req.originalUrl.includes('?')) line.query = Object.keys(req.query ?? {});
        log.info(line, 'request');
      });
    }
    next();
  };
}
