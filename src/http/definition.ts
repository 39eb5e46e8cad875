import type { Request, Response } from 'express';
import type { Category } from '../accounts/access.ts';
import type { Caller, Resource } from '../accounts/callerRepository.ts';
import type { Feature } from '../accounts/planRules.ts';
import type { z } from '../schema/zod.ts';

// What a route declares of an endpoint (src/http/endpoint.ts documents and mounts it; src/http/pipeline/
// runs each request through it).

export type AnyObject = z.ZodObject<z.ZodRawShape>;

export type Security = 'none' | 'apiKey' | 'bearer';

/**
 * The caller a handler is given: the account on key and bearer endpoints (the pipeline has refused a request
 * without one), nobody on public ones.
 */
export type CallerOf<S extends Security> = S extends 'none' ? undefined : Caller;

export interface Ctx<P, Q, B, S extends Security = Security> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  /** The authenticated account (API key or bearer token); undefined on public endpoints. */
  caller: CallerOf<S>;
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

export interface EndpointDef<
  P extends AnyObject,
  Q extends AnyObject,
  B extends z.ZodType,
  R extends z.ZodType,
  S extends Security = 'none',
> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path, e.g. `/v1/trademarks/:app_no/`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Default 'none': a public endpoint. */
  security?: S;
  /** The plan category this endpoint needs; refused with 403 before anything else is read. */
  category?: Category;
  /** The part of the product this endpoint needs the plan to include; refused with 403 before anything else is read. */
  feature?: Feature;
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
  /**
   * A multipart endpoint that takes the same fields as a JSON body too (without the files): the JSON
   * body's schema, for the OpenAPI document; `body` reads both.
   */
  jsonBody?: z.ZodType;
  handler: (ctx: Ctx<z.infer<P>, z.infer<Q>, z.infer<B>, S>) => Promise<z.infer<R>>;
}
