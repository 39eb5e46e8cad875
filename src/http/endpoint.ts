import type { Request, Response, Router } from 'express';
import { OpenAPIRegistry, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from '../schema/zod.ts';
import { ErrorBody } from './schemas.ts';
import type { Category } from '../accounts/access.ts';
import type { Caller, Resource } from '../accounts/callerRepository.ts';
import type { Guard } from './guard.ts';
import { pipeline } from './pipeline/pipeline.ts';

export type AnyObject = z.ZodObject<z.ZodRawShape>;

export type Security = 'none' | 'apiKey' | 'bearer';

export interface Ctx<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  /** The authenticated account (API key or bearer token); absent on public endpoints. */
  caller?: Caller;
  /**
   * Endpoints with a deferred cost: takes `units` credits (of the declared resource unless another is
   * named) once the handler knows what it hands out, before it hands anything out; 429 when short.
   * Given back if the request fails afterwards.
   */
  charge: (units: number, resource?: Resource) => Promise<void>;
  /** Gives back part of the credits this request was charged in its declared resource (bulk items that failed cost nothing). */
  uncharge(units: number): Promise<void>;
}

/** What a successful call costs; endpoints declare it, the pipeline charges it. */
export interface Cost<P, Q, B> {
  resource: Resource;
  /** Credits for this request (bulk: one per distinct item); default 1. */
  units?: (ctx: Ctx<P, Q, B>) => number;
  /** The handler charges through ctx.charge() once it has read what it will hand out (a listing of N links costs N). */
  deferred?: boolean;
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
  /** The 403 message when the caller's subscription is inactive, where the contract words it. */
  inactiveMessage?: string;
  /**
   * A file response (a PDF, a workbook) that the handler streams into `res` itself; its media type for
   * the OpenAPI document. The handler resolves once the body is sent.
   */
  contentType?: string;
  /**
   * Multipart endpoints: reads the body (files streamed to disk) after authentication and limits,
   * before validation; `body` then describes the form and is documented as multipart/form-data.
   */
  multipart?: (req: Request, res: Response) => Promise<void>;
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

/**
 * One definition gives the route, its validation and its OpenAPI entry, so the document
 * cannot describe a parameter the code does not check.
 */
export class Api {
  readonly registry = new OpenAPIRegistry();

  constructor(private readonly router: Router, private readonly guard: Guard, private readonly checkResponses: boolean) {}

  add<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType>(def: EndpointDef<P, Q, B, R>): void {
    this.document(def);
    this.router[def.method](def.path, pipeline(def, this.guard, this.checkResponses));
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
        description: 'Success',
        content: def.contentType
          ? { [def.contentType]: { schema: { type: 'string', format: 'binary' } } }
          : { 'application/json': { schema: def.response } },
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
        body: def.body ? { content: { [def.multipart ? 'multipart/form-data' : 'application/json']: { schema: def.body } } } : undefined,
      },
      responses,
    });
  }
}
