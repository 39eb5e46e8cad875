import type { Request, Response } from 'express';
import type { z } from '../../schema/zod.ts';
import { parseOrThrow } from './validate.ts';

/** What of an endpoint's declaration reading its input needs. */
export interface InputDef<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params?: P;
  query?: Q;
  body?: B;
  multipart?: (req: Request, res: Response) => Promise<void>;
}

/**
 * The request's input, checked: path and query first, then a multipart form is read (its files
 * streamed to disk, so only for a request whose path and query are sound), then the body.
 */
export async function readInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  def: InputDef<P, Q, B>,
  req: Request,
  res: Response,
): Promise<{ params: z.infer<P>; query: z.infer<Q>; body: z.infer<B> }> {
  const params = parseOrThrow(def.params, req.params, 'path');
  const query = parseOrThrow(def.query, req.query, 'query');
  if (def.multipart) await def.multipart(req, res);
  const body = parseOrThrow(def.body, req.body, 'body');
  return { params, query, body };
}
