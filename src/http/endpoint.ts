import type { Request, Response, Router } from 'express';
import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from './zod.ts';
import { AppError } from '../errors.ts';
import { ErrorBody } from './schemas.ts';
import { requireCategory, viewerOf, type Category } from '../accounts/access.ts';

type AnyObject = z.ZodObject<z.ZodRawShape>;

export type Security = 'none' | 'apiKey' | 'bearer';

export interface Ctx<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
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
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  status?: number;
  /** Error statuses this endpoint can answer besides 400/500, documented in the OpenAPI document. */
  errors?: number[];
  handler: (ctx: Ctx<z.infer<P>, z.infer<Q>, z.infer<B>>) => Promise<z.infer<R>>;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request: a parameter or the body is invalid; `details` names each one',
  401: 'Missing or invalid credentials',
  403: 'Forbidden: plan, category or subscription does not allow this',
  404: 'Not found',
  413: 'Body too large',
  415: 'Unsupported content type',
  429: 'Rate limit or quota exceeded',
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

  constructor(private readonly router: Router, private readonly checkResponses: boolean) {}

  add<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType>(def: EndpointDef<P, Q, B, R>): void {
    this.document(def);
    const status = def.status ?? 200;
    this.router[def.method](def.path, async (req: Request, res: Response) => {
      if (def.category) requireCategory(viewerOf(req), def.category);
      const params = parseOrThrow(def.params, req.params, 'path');
      const query = parseOrThrow(def.query, req.query, 'query');
      const body = parseOrThrow(def.body, req.body, 'body');
      const result = await def.handler({ params, query, body, req, res });
      if (this.checkResponses) {
        const check = def.response.safeParse(result);
        if (!check.success) {
          throw new Error(`response of ${def.operationId} does not match its schema: ${JSON.stringify(check.error.issues)}`);
        }
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
    if (def.category) errorStatuses.push(403);
    if (def.security && def.security !== 'none') errorStatuses.push(401);
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {
      [String(def.status ?? 200)]: { description: 'Success', content: { 'application/json': { schema: def.response } } },
    };
    for (const s of [...new Set(errorStatuses)].sort()) {
      responses[String(s)] = { description: ERROR_TEXT[s] ?? 'Error', content: { 'application/json': { schema: ErrorBody } } };
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
