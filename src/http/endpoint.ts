import type { Request, Response, Router } from 'express';
import { OpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from './zod.ts';
import { AppError } from '../errors.ts';
import { ErrorBody } from './schemas.ts';
import { requireCategory, viewerOf, type Category } from '../accounts/access.ts';
import type { Caller, Resource } from '../accounts/callerRepository.ts';
import type { Guard } from './guard.ts';

type AnyObject = z.ZodObject<z.ZodRawShape>;

export type Security = 'none' | 'apiKey' | 'bearer';

export interface Ctx<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  /** The authenticated account (API key or bearer token); absent on public endpoints. */
  caller?: Caller;
}

/** What a successful call costs; endpoints declare it, the pipeline charges it. */
export interface Cost<P, Q, B> {
  resource: Resource;
  /** Credits for this request (bulk: one per distinct item); default 1. */
  units?: (ctx: Ctx<P, Q, B>) => number;
}

/** Bulk endpoints: the plan must allow the family, and at least this many items per request. */
export interface Bulk<P, Q, B> {
  family: 'search' | 'logo';
  items: (ctx: Ctx<P, Q, B>) => number;
}

export interface EndpointDef<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType> {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Express-style path, e.g. `/v1/trademarks/:app_no/`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Security;
  /** The plan category this endpoint needs; refused with 403 before anything else is read. */
  category?: Category;
  /** Defaults to one `api_calls` credit on key endpoints; `null` makes the call free. */
  cost?: Cost<z.infer<P>, z.infer<Q>, z.infer<B>> | null;
  bulk?: Bulk<z.infer<P>, z.infer<Q>, z.infer<B>>;
  /** The free public search's own limit (contract §8: 60 per hour per IP). */
  publicSearchLimit?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  status?: number;
  /** Error statuses this endpoint can answer besides 400/500, documented in the OpenAPI document. */
  errors?: number[];
  handler: (ctx: Ctx<z.infer<P>, z.infer<Q>, z.infer<B>>) => Promise<z.infer<R>>;
}

const intHeader = (description: string) => ({ description, schema: { type: 'integer' as const } });
const REQUEST_ID_HEADER = { description: 'Id of this request (a caller-supplied X-Request-Id is kept when sane)', schema: { type: 'string' as const } };
const RETRY_AFTER_HEADER = intHeader('Seconds until the limit that refused the request allows it again');
// Sent on every response to an API-key request: the per-key window (contract §8: 10 per second).
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': intHeader('Requests allowed per window for this API key'),
  'RateLimit-Remaining': intHeader('Requests left in the current window'),
  'RateLimit-Reset': intHeader('Seconds until the window resets'),
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request: a parameter or the body is invalid; `details` names each one',
  401: 'Missing or invalid credentials',
  403: 'Forbidden: plan, category or subscription does not allow this',
  404: 'Not found',
  413: 'Body too large',
  415: 'Unsupported content type',
  429: 'A limit was reached: `code` says which (ip_rate_limited, key_rate_limited, concurrency_limited, quota_exceeded, public_search_limited, login_throttled); `details` gives limit, remaining, reset and resource',
};

/** Turns zod issues into the `details` of a 400: one entry per offending parameter. */
export function validationError(where: 'path' | 'query' | 'body', issues: z.core.$ZodIssue[]): AppError {
  const details = issues.map((i) => ({
    in: where,
    parameter: i.path.length ? i.path.join('.') : '(body)',
    message: i.message,
  }));
  const names = [...new Set(details.map((d) => d.parameter))].join(', ');
  return new AppError('validation_error', `invalid ${where} parameter${details.length > 1 ? 's' : ''}: ${names}`, details);
}

function parseOrThrow<T extends z.ZodType>(schema: T | undefined, value: unknown, where: 'path' | 'query' | 'body'): z.infer<T> {
  if (!schema) return {} as z.infer<T>;
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw validationError(where, r.error.issues);
  return r.data;
}

/**
 * One definition gives the route, its validation and its OpenAPI entry, so the document
 * cannot describe a parameter the code does not check.
 */
export class Api {
  readonly registry = new OpenAPIRegistry();

  constructor(private readonly router: Router, private readonly guard: Guard, private readonly checkResponses: boolean) {}

  add<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType>(def: EndpointDef<P, Q, B, R>): void {
    this.document(def);
    const status = def.status ?? 200;
    const security = def.security ?? 'none';
    this.router[def.method](def.path, async (req: Request, res: Response) => {
      let caller: Caller | undefined;
      const cost = def.cost === undefined ? (security === 'apiKey' ? { resource: 'api_calls' as const } : null) : def.cost;
      if (security === 'apiKey') {
        // The usual cost (one api_calls) is taken in the same round trip that reads the caller.
        caller = await this.guard.apiKey(req, res, cost?.resource === 'api_calls' && !cost.units);
        req.viewer = { accountId: caller.accountId, categories: new Set(caller.categories) };
      } else {
        // Keyed requests count against their IP inside admission; every other endpoint here.
        await this.guard.ip(req);
        if (security === 'bearer') caller = await this.guard.bearer(req);
      }
      if (def.publicSearchLimit) await this.guard.publicSearch(req);
      // Every refusal below costs nothing: a credit taken with the caller is given back.
      let refund: (() => Promise<void>) | undefined = caller?.precharged ? this.guard.refunder(caller, 'api_calls', 1) : undefined;
      let result: z.infer<R>;
      try {
        if (def.category) requireCategory(viewerOf(req), def.category);
        const params = parseOrThrow(def.params, req.params, 'path');
        const query = parseOrThrow(def.query, req.query, 'query');
        const body = parseOrThrow(def.body, req.body, 'body');
        const ctx = { params, query, body, req, res, caller };
        if (def.bulk) checkBulk(caller!, def.bulk.family, def.bulk.items(ctx));
        // Other costs are taken after every check that can refuse the request.
        if (cost && caller) refund = await this.guard.charge(caller, cost.resource, cost.units?.(ctx) ?? 1);
        result = await def.handler(ctx);
        if (this.checkResponses) {
          const check = def.response.safeParse(result);
          if (!check.success) {
            throw new Error(`response of ${def.operationId} does not match its schema: ${JSON.stringify(check.error.issues)}`);
          }
        }
      } catch (err) {
        await refund?.();
        throw err;
      }
      if (res.headersSent) return;
      // Serialised here rather than by res.json: one string sent with the headers in a single write.
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(result));
    });
  }

  private document<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType>(def: EndpointDef<P, Q, B, R>): void {
    const errorStatuses = [400, ...(def.errors ?? [])];
    if (def.category || def.bulk) errorStatuses.push(403);
    if (def.security && def.security !== 'none') errorStatuses.push(401, 429);
    if (def.publicSearchLimit) errorStatuses.push(429);
    if (def.security === 'apiKey') errorStatuses.push(403);
    const keyed = def.security === 'apiKey';
    const responses: Record<string, ResponseConfig> = {
      [String(def.status ?? 200)]: {
        description: 'Success', content: { 'application/json': { schema: def.response } },
        headers: { 'X-Request-Id': REQUEST_ID_HEADER, ...(keyed ? RATE_LIMIT_HEADERS : {}) },
      },
    };
    for (const s of [...new Set(errorStatuses)].sort()) {
      responses[String(s)] = {
        description: ERROR_TEXT[s] ?? 'Error', content: { 'application/json': { schema: ErrorBody } },
        headers: { 'X-Request-Id': REQUEST_ID_HEADER, ...(s === 429 ? { 'Retry-After': RETRY_AFTER_HEADER } : {}), ...(keyed && s === 429 ? RATE_LIMIT_HEADERS : {}) },
      };
    }
    this.registry.registerPath({
      method: def.method,
      path: def.path.replace(/:([A-Za-z_]+)/g, '{$1}'),
      operationId: def.operationId,
      summary: def.summary,
      description: [def.description, def.category && `Requires the plan category \`${def.category}\`.`].filter(Boolean).join('\n\n') || undefined,
      tags: def.tags,
      security: def.security === 'apiKey' ? [{ ApiKey: [] }, { LegacyApiKey: [] }] : def.security === 'bearer' ? [{ Bearer: [] }] : [],
      request: {
        params: def.params,
        query: def.query,
        body: def.body ? { content: { 'application/json': { schema: def.body } } } : undefined,
      },
      responses,
    });
  }
}

function checkBulk(caller: Caller, family: 'search' | 'logo', items: number): void {
  const limit = family === 'search' ? caller.bulkSearchLimit : caller.bulkLogoLimit;
  const feature = family === 'search' ? 'bulk_search_limit' : 'bulk_logo_limit';
  if (limit <= 0) throw new AppError('bulk_not_on_plan', `bulk ${family} is not on your plan`, { [feature]: limit });
  if (items > limit) {
    throw new AppError('bulk_size_exceeds_plan', `your plan allows ${limit} items per bulk ${family} request; this one has ${items}`,
      { [feature]: limit, items });
  }
}
