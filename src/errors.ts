// The closed list of error codes. Every error a client can see has one of these codes;
// the status is chosen here from the code, never from message text.
export const ERROR_CODES = {
  bad_request: 400,
  validation_error: 400,
  malformed_json: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  forbidden: 403,
  category_not_on_plan: 403,
  subscription_inactive: 403,
  bulk_not_on_plan: 403,
  bulk_size_exceeds_plan: 403,
  webhooks_not_on_plan: 403,
  clearance_not_on_plan: 403,
  watches_not_on_plan: 403,
  monitored_limit_exceeded: 403,
  signature_invalid: 403,
  url_expired: 403,
  not_found: 404,
  method_not_allowed: 405,
  email_taken: 409,
  key_limit_reached: 409,
  webhook_inactive: 409,
  // A test ping in the delivery log: it is not a registry change to send again.
  not_replayable: 409,
  job_not_finished: 409,
  precondition_failed: 412,
  // An upload that stopped sending (UPLOAD_IDLE_TIMEOUT_MS) or took too long in all (UPLOAD_TIMEOUT_MS).
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  // Each kind of 429 has its own code; details name the limit, remaining, reset time and resource.
  ip_rate_limited: 429,
  key_rate_limited: 429,
  concurrency_limited: 429,
  quota_exceeded: 429,
  public_search_limited: 429,
  login_throttled: 429,
  // Logo search: an image that cannot be searched with, or an image URL that cannot be fetched.
  not_an_image: 400,
  unsupported_image_type: 400,
  image_type_mismatch: 400,
  image_corrupt: 400,
  image_dimensions: 400,
  svg_refused: 400,
  image_url_refused: 400,
  image_url_unreachable: 400,
  image_url_too_large: 400,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, details?: unknown, headers?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.details = details;
    this.headers = headers;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);

// Socket errors of a server that cannot be reached (refused, reset, timed out, not resolved, no route).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Whether an error is a socket's failure to reach its server (PostgreSQL's, Redis's), by its system code. */
export function isNetworkFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}

/** A 503 for a service we depend on being away: the client is told when to try again. */
export const unavailable = (message: string, retryAfterSeconds = 5) =>
  new AppError('service_unavailable', message, undefined, { 'Retry-After': String(retryAfterSeconds) });

/** Where a request's parameter was read from. */
export type Where = 'path' | 'query' | 'body';

/** One wrong parameter and why; a nested field is named by its dotted path. */
export interface Invalid {
  parameter: string;
  message: string;
}

/** A 400 `validation_error` with one `details` entry per wrong parameter, each named in the message. */
export function invalidParameters(where: Where, issues: readonly Invalid[]): AppError {
  const details = issues.map((i) => ({ in: where, parameter: i.parameter, message: i.message }));
  const names = [...new Set(details.map((d) => d.parameter))].join(', ');
  return new AppError('validation_error', `invalid ${where} parameter${details.length > 1 ? 's' : ''}: ${names}`, details);
}

/**
 * A 400 naming one wrong parameter. `explained` puts the reason in the message too, where the name
 * alone does not say what was refused (an unknown event, an address not allowed).
 */
export function invalidParameter(where: Where, parameter: string, message: string, explained = false): AppError {
  const err = invalidParameters(where, [{ parameter, message }]);
  return explained ? new AppError(err.code, `${err.message}: ${message}`, err.details) : err;
}
