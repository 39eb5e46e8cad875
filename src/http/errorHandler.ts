import type { ErrorRequestHandler, RequestHandler } from 'express';
import { databaseUnavailable } from '../db/unavailable.ts';
import { AppError, unavailable } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { REDIS_RETRY_AFTER_SECONDS, RedisUnavailable } from '../redis.ts';

// body-parser and friends tag their errors with `type` (and a status); map those tags, never messages.
const BODY_ERRORS: Record<string, () => AppError> = {
  'entity.parse.failed': () => new AppError('malformed_json', 'request body is not valid JSON'),
  'entity.too.large': () => new AppError('payload_too_large', 'request body is too large'),
  'encoding.unsupported': () => new AppError('unsupported_media_type', 'unsupported content encoding'),
  'charset.unsupported': () => new AppError('unsupported_media_type', 'unsupported charset'),
  'request.aborted': () => new AppError('bad_request', 'request body was aborted'),
  'entity.verify.failed': () => new AppError('bad_request', 'request body could not be verified'),
  'request.size.invalid': () => new AppError('bad_request', 'request body length does not match Content-Length'),
  'stream.encoding.set': () => new AppError('internal_error', 'request stream misconfigured'),
};

// A 416 says how long the file is (`Content-Range: bytes */<length>`), so the client can ask again.
function contentRangeOf(err: unknown): Record<string, string> | undefined {
  const range = (err as { headers?: Record<string, unknown> })?.headers?.['Content-Range'];
  return typeof range === 'string' ? { 'Content-Range': range } : undefined;
}

/** A 503 says when to try again, whichever part raised it. */
const RETRY_AFTER_SECONDS = 5;

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  // A dependency away is the service's state, not the request's fault nor a bug: 503, and the client may retry.
  if (databaseUnavailable(err)) return unavailable('the database is unavailable just now; try again shortly', RETRY_AFTER_SECONDS);
  if (err instanceof RedisUnavailable)
    return unavailable('a service this request needs is unavailable just now; try again shortly', REDIS_RETRY_AFTER_SECONDS);
  const type = (err as { type?: unknown })?.type;
  if (typeof type === 'string' && BODY_ERRORS[type]) return BODY_ERRORS[type]();
  const status = (err as { status?: unknown; statusCode?: unknown })?.status ?? (err as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // A client error raised by a library without a known tag (send, behind /files, raises 404, 412 and 416):
    // keep its status, never a 500, and never a 400 where the status means something else.
    if (status === 404) return new AppError('not_found', 'not found');
    if (status === 412) return new AppError('precondition_failed', 'a precondition in the request headers failed');
    if (status === 413) return new AppError('payload_too_large', 'request is too large');
    if (status === 415) return new AppError('unsupported_media_type', 'unsupported media type');
    if (status === 416)
      return new AppError('range_not_satisfiable', 'the requested range is outside the file', undefined, contentRangeOf(err));
    return new AppError('bad_request', 'bad request');
  }
  return new AppError('internal_error', 'internal server error');
}

/**
 * One handler for every error. `explain` may say more of a 403 a plan decides (the plans that include what
 * was refused); should it fail, the refusal goes as it is.
 */
export function errorHandler(log: Logger, explain?: (e: AppError) => Promise<AppError>): ErrorRequestHandler {
  return (err, req, res, next) => {
    const appErr = toAppError(err);
    if (explain && appErr.status === 403 && !res.headersSent)
      void explain(appErr).then(
        (e) => send(log, e, err, req, res, next),
        () => send(log, appErr, err, req, res, next),
      );
    else send(log, appErr, err, req, res, next);
  };
}

function send(log: Logger, appErr: AppError, ...[err, req, res]: Parameters<ErrorRequestHandler>): void {
  // Each request refused for want of a dependency is logged, without a stack (an outage makes many of them).
  if (appErr.status === 503)
    log.warn({ request_id: req.id, path: req.path, cause: (err as Error)?.message ?? String(err) }, 'request refused: service unavailable');
  else if (appErr.status >= 500) log.error({ err, request_id: req.id }, 'request failed');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // A route may have set file headers before failing; the error is JSON whatever came before.
  res.removeHeader('Content-Disposition');
  res.type('application/json');
  if (appErr.headers) res.set(appErr.headers);
  if (appErr.status === 503 && !res.getHeader('Retry-After')) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
  const body: Record<string, unknown> = { error: appErr.message, code: appErr.code, request_id: String(req.id ?? '') };
  if (appErr.details !== undefined) body.details = appErr.details;
  res.status(appErr.status).json(body);
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError('not_found', `no such endpoint: ${req.method} ${req.path}`));
};

/** Bodies are JSON (multipart endpoints opt out); anything else is refused before parsing. */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !req.is('application/json') && !req.is('multipart/form-data')) {
    next(new AppError('unsupported_media_type', `Content-Type must be application/json, got ${req.headers['content-type'] ?? 'none'}`));
    return;
  }
  next();
};
