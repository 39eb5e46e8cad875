import fs from 'node:fs';
import path from 'node:path';

/** A request and its answer, as a real run made and recorded them (scripts/openapi-examples.ts). */
export interface Example {
  request: { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  status: number;
  /** The JSON answer, or for a file the words that describe it. */
  response: unknown;
}

/** docs/examples.json: one example per operation, by operationId. */
export const EXAMPLES_FILE = path.resolve(import.meta.dirname, '../../docs/examples.json');

export function loadExamples(file = EXAMPLES_FILE): Record<string, Example> {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
}

type Operation = {
  operationId?: string;
  parameters?: { name: string; in: string; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
};

/** The document with each operation's recorded example: on its parameters, its body (each media type) and its answer. */
export function withExamples(doc: { paths?: Record<string, Record<string, Operation>> }, examples = loadExamples()): void {
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops)) {
      const ex = op.operationId ? examples[op.operationId] : undefined;
      if (!ex) continue;
      for (const p of op.parameters ?? []) {
        const given = (p.in === 'path' ? ex.request.params : p.in === 'query' ? ex.request.query : undefined)?.[p.name];
        if (given !== undefined) p.example = given;
      }
      if (op.requestBody && ex.request.body !== undefined)
        for (const media of Object.values(op.requestBody.content)) media.example = ex.request.body;
      for (const media of Object.values(op.responses[String(ex.status)]?.content ?? {})) media.example = ex.response;
    }
  }
}
