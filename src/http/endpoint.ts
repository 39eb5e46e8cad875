import { OpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { Router } from 'express';
import type { OwnWrites } from '../db/ownWrites.ts';
import type { z } from '../schema/zod.ts';
import type { AnyObject, EndpointDef, Security } from './definition.ts';
import type { Guard } from './guard.ts';
import { pipeline } from './pipeline/pipeline.ts';
import { ErrorBody } from './schemas.ts';

const intHeader = (description: string) => ({ description, schema: { type: 'integer' as const } });
const REQUEST_ID_HEADER = {
  description: 'Id of this request (a caller-supplied X-Request-Id is kept when sane)',
  schema: { type: 'string' as const },
};
const RETRY_AFTER_HEADER = intHeader(
  'Seconds to wait before trying again: until the limit that refused it allows it (429), or the service is back (503)',
);
// Sent on every response to an API-key request: the per-key window (contract §8: 10 per second).
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': intHeader('Requests allowed per window for this API key'),
  'RateLimit-Remaining': intHeader('Requests left in the current window'),
  'RateLimit-Reset': intHeader('Seconds until the window resets'),
};

// Sent on every answer of the free public search, refusals included: its hourly window per address.
const PUBLIC_SEARCH_HEADERS = {
  'RateLimit-Limit': intHeader('Public searches allowed per hour from one address'),
  'RateLimit-Remaining': intHeader('Public searches left in the current hour'),
  'RateLimit-Reset': intHeader('Seconds until the hourly window resets'),
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request: a parameter or the body is invalid; `details` names each one',
  401: 'Missing or invalid credentials',
  403: 'Forbidden: plan, category or subscription does not allow this',
  404: 'Not found',
  408:
    'Request timeout (`request_timeout`): the upload sent nothing for UPLOAD_IDLE_TIMEOUT_MS (10 s), or took longer ' +
    'than UPLOAD_TIMEOUT_MS (60 s); the connection is closed',
  413: 'Body too large',
  415: 'Unsupported content type',
  429:
    'A limit was reached: `code` says which (ip_rate_limited, key_rate_limited, concurrency_limited, quota_exceeded, ' +
    'public_search_limited, login_throttled); `details` gives limit, remaining, reset and resource',
  503:
    'Service unavailable (`service_unavailable`): something this request needs (PostgreSQL, Redis, the ML sidecar) is ' +
    'away just now; `Retry-After` says when to try again (docs/outages.md)',
};

/** The media types a body is documented under: JSON, or a multipart form (and JSON too where the endpoint takes both). */
function bodyContent(body: z.ZodType, multipart: boolean, json: z.ZodType | undefined) {
  if (!multipart) return { 'application/json': { schema: body } };
  return { 'multipart/form-data': { schema: body }, ...(json ? { 'application/json': { schema: json } } : {}) };
}

/** What an endpoint declares of its input and output, whatever its types. */
export type Documented = Pick<
  EndpointDef<AnyObject, AnyObject, z.ZodType, z.ZodType>,
  'operationId' | 'method' | 'path' | 'params' | 'query' | 'body' | 'jsonBody' | 'response' | 'contentType' | 'status' | 'multipart'
>;

/**
 * One definition gives the route, its validation and its OpenAPI entry, so the document
 * cannot describe a parameter the code does not check.
 */
export class Api {
  readonly registry = new OpenAPIRegistry();
  /** Every endpoint as declared, for what checks the document against the code (its examples' test). */
  readonly endpoints: Documented[] = [];

  constructor(
    private readonly router: Router,
    private readonly guard: Guard,
    private readonly checkResponses: boolean,
    private readonly ownWrites?: OwnWrites,
  ) {}

  add<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType, S extends Security = 'none'>(
    def: EndpointDef<P, Q, B, R, S>,
  ): void {
    this.document(def);
    this.endpoints.push(def as unknown as Documented);
    this.router[def.method](def.path, pipeline(def, this.guard, this.checkResponses, this.ownWrites));
  }

  private document<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType, S extends Security>(
    def: EndpointDef<P, Q, B, R, S>,
  ): void {
    // Any request may meet a dependency that is away (docs/outages.md).
    const errorStatuses = [400, 503, ...(def.errors ?? [])];
    if (def.category || def.feature || def.bulk) errorStatuses.push(403);
    if (def.security && def.security !== 'none') errorStatuses.push(401, 429);
    if (def.publicSearchLimit) errorStatuses.push(429);
    if (def.multipart) errorStatuses.push(408);
    if (def.security === 'apiKey') errorStatuses.push(403);
    const keyed = def.security === 'apiKey';
    const windowHeaders = keyed ? RATE_LIMIT_HEADERS : def.publicSearchLimit ? PUBLIC_SEARCH_HEADERS : {};
    const responses: Record<string, ResponseConfig> = {
      [String(def.status ?? 200)]: {
        description: 'Success',
        content: def.contentType
          ? { [def.contentType]: { schema: { type: 'string', format: 'binary' } } }
          : { 'application/json': { schema: def.response } },
        headers: { 'X-Request-Id': REQUEST_ID_HEADER, ...windowHeaders },
      },
    };
    for (const s of [...new Set(errorStatuses)].sort()) {
      responses[String(s)] = {
        description: ERROR_TEXT[s] ?? 'Error',
        content: { 'application/json': { schema: ErrorBody } },
        headers: {
          'X-Request-Id': REQUEST_ID_HEADER,
          ...(s === 429 || s === 503 ? { 'Retry-After': RETRY_AFTER_HEADER } : {}),
          ...(s === 429 || def.publicSearchLimit ? windowHeaders : {}),
        },
      };
    }
    this.registry.registerPath({
      method: def.method,
      path: def.path.replace(/:([A-Za-z_]+)/g, '{$1}'),
      operationId: def.operationId,
      summary: def.summary,
      description:
        [def.description, def.category && `Requires the plan category \`${def.category}\`.`].filter(Boolean).join('\n\n') || undefined,
      tags: def.tags,
      security:
        def.security === 'apiKey'
          ? [{ ApiKey: [] }, { LegacyApiKey: [] }, { SessionCookie: [] }]
          : def.security === 'bearer'
            ? [{ Bearer: [] }, { SessionCookie: [] }]
            : [],
      request: {
        params: def.params,
        query: def.query,
        body: def.body ? { content: bodyContent(def.body, def.multipart !== undefined, def.jsonBody) } : undefined,
      },
      responses,
    });
  }
}
