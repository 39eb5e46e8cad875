import { expect } from 'chai';
import type { Documented } from '../../src/http/endpoint.ts';
import { loadExamples } from '../../src/http/examples.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// Every operation of the API document carries a request and a response example recorded from a real run
// (scripts/openapi-examples.ts writes docs/examples.json), and each is what its operation's own schemas accept:
// an example that drifts from the code fails here, as the document itself fails its drift test.

type Op = {
  operationId: string;
  parameters?: { name: string; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
};

const FILE = /^\(a PNG file\)$/;

describe('the API examples (docs/examples.json)', () => {
  let t: TestApp;
  let endpoints: readonly Documented[];
  before(async () => {
    t = await createTestApp();
    endpoints = t.endpoints;
  });
  after(() => t.close());

  it('has one for every operation, on its parameters, its body and its answer in the document', () => {
    const examples = loadExamples();
    const doc = t.openapi as { paths: Record<string, Record<string, Op>> };
    const ops = Object.values(doc.paths).flatMap((o) => Object.values(o));
    expect(ops.length).to.be.greaterThan(70);
    const missing: string[] = [];
    for (const op of ops) {
      const ex = examples[op.operationId];
      if (!ex) {
        missing.push(`${op.operationId}: no example`);
        continue;
      }
      const answer = op.responses[String(ex.status)]?.content ?? {};
      if (!Object.values(answer).some((m) => m.example !== undefined)) missing.push(`${op.operationId}: no response example`);
      if (op.requestBody && !Object.values(op.requestBody.content).some((m) => m.example !== undefined))
        missing.push(`${op.operationId}: no request body example`);
      for (const p of op.parameters ?? [])
        if ((p as { in?: string }).in === 'path' && p.example === undefined) missing.push(`${op.operationId}: no example of ${p.name}`);
    }
    expect(missing).to.deep.equal([]);
    expect(Object.keys(examples).sort()).to.deep.equal(ops.map((o) => o.operationId).sort(), 'no example of an operation that is gone');
  });

  it("is, request and answer, what the operation's own schemas accept", () => {
    const examples = loadExamples();
    const wrong: string[] = [];
    const check = (
      what: string,
      schema: { safeParse(v: unknown): { success: boolean; error?: { message: string } } } | undefined,
      v: unknown,
    ) => {
      if (!schema || v === undefined) return;
      const r = schema.safeParse(v);
      if (!r.success) wrong.push(`${what}: ${r.error?.message.slice(0, 300)}`);
    };
    for (const e of endpoints) {
      const ex = examples[e.operationId];
      if (!ex) continue;
      expect(ex.status, e.operationId).to.equal(e.status ?? 200);
      check(
        `${e.operationId} params`,
        e.params,
        ex.request.params && Object.fromEntries(Object.entries(ex.request.params).map(([k, v]) => [k, String(v)])),
      );
      check(
        `${e.operationId} query`,
        e.query,
        ex.request.query && Object.fromEntries(Object.entries(ex.request.query).map(([k, v]) => [k, String(v)])),
      );
      if (e.multipart) {
        // A form's fields arrive as strings; its files are described. Every field is one the form declares.
        const shape = (e.body as unknown as { shape?: Record<string, unknown> }).shape ?? {};
        for (const k of Object.keys((ex.request.body ?? {}) as object))
          if (!(k in shape)) wrong.push(`${e.operationId}: form field ${k} not declared`);
        const fields = Object.entries((ex.request.body ?? {}) as Record<string, string>).filter(([, v]) => !FILE.test(v));
        if (e.jsonBody) check(`${e.operationId} body`, e.jsonBody, Object.fromEntries(fields));
      } else check(`${e.operationId} body`, e.body, ex.request.body);
      if (!e.contentType) check(`${e.operationId} response`, e.response, ex.response);
      else expect(String(ex.response), e.operationId).to.match(new RegExp(`^\\(${e.contentType.replace(/[.+]/g, '\\$&')}, \\d+ bytes`));
    }
    expect(wrong).to.deep.equal([]);
  });
});
