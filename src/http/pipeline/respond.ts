import type { Response } from 'express';
import type { z } from '../../schema/zod.ts';

/** Outside production every JSON answer is checked against its schema, so the OpenAPI document cannot promise what is not sent. */
export function checkResponse(schema: z.ZodType, result: unknown, operationId: string): void {
  const check = schema.safeParse(result);
  if (!check.success) throw new Error(`response of ${operationId} does not match its schema: ${JSON.stringify(check.error.issues)}`);
}

/** Sends the result as JSON, unless the handler answered itself (a file it streamed). */
export function send(res: Response, status: number, result: unknown): void {
  if (res.headersSent) return;
  // Serialised here rather than by res.json: one string sent with the headers in a single write.
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(result));
}
