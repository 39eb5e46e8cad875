import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { importGenerated } from '../helpers/seed.ts';

// Every GET of the API document that a key or a dashboard login opens, walked over a sample of the
// application numbers (and journals, documents, classes) of a generated register: none may answer 5xx.
// A contract endpoint that failed on half its inputs (phonetic, issue 39 item 3) passed the tests that
// tried it on one hand-picked mark; this one tries them all on what the register really holds, and
// picks up a new endpoint by itself from the document.

interface Operation {
  path: string;
  bearer: boolean;
  required: string[];
}

/** A small seeded generator, so a failure names marks that fail again on the next run. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function readOperations(doc: {
  paths: Record<
    string,
    Record<string, { security?: Record<string, unknown>[]; parameters?: { name: string; in: string; required?: boolean }[] }>
  >;
}): Operation[] {
  const out: Operation[] = [];
  for (const [p, ops] of Object.entries(doc.paths)) {
    const op = ops.get;
    if (!op?.security?.length) continue;
    const schemes = op.security.flatMap((s) => Object.keys(s));
    out.push({
      path: p,
      bearer: !schemes.includes('ApiKey'),
      required: (op.parameters ?? []).filter((q) => q.in === 'query' && q.required).map((q) => q.name),
    });
  }
  return out;
}

describe('every keyed read over a sample of the register', function () {
  this.timeout(300_000);
  let t: TestApp;
  let token: string;
  const sample: { application_number: string; word_mark: string }[] = [];
  let journals: string[] = [];
  let documents: string[] = [];

  before(async () => {
    t = await createTestApp();
    await importGenerated(t.deps, 2000, 39);
    const marks = await t.deps.db('trademarks').select('application_number', 'word_mark').orderBy('application_number');
    sample.push(...shuffled(marks, 39).slice(0, 60));
    journals = shuffled((await t.deps.db('journals').pluck('id')).map(String), 39).slice(0, 5);
    documents = shuffled((await t.deps.db('documents').pluck('id')).map(String), 39).slice(0, 10);
    token = t.deps.services.tokens.issue(t.account.accountId).token;
  });
  after(async () => t.close());

  it('answers none of them with a 5xx', async () => {
    const ops = readOperations(t.openapi as Parameters<typeof readOperations>[0]);
    expect(ops.length, 'keyed GET operations in the document').to.be.greaterThan(30);
    expect(sample.length).to.equal(60);
    expect(journals.length).to.be.greaterThan(0);
    expect(documents.length).to.be.greaterThan(0);
    const failures: string[] = [];
    const walked = new Map<string, number>();
    for (const op of ops) {
      const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      // One URL per sampled mark where the path names one; otherwise a few of whatever it names.
      const rounds = names.includes('app_no') ? sample.length : names.length ? 5 : 1;
      for (let i = 0; i < rounds; i++) {
        const mark = sample[i % sample.length]!;
        const value = (name: string): string => {
          if (name === 'app_no') return mark.application_number;
          if (name === 'journal_id') return journals[i % journals.length]!;
          if (name === 'doc_id') return documents[i % documents.length]!;
          if (name === 'class_number') return String(1 + ((i * 11) % 45));
          // Jobs, webhooks, watches, keys: another account's or nobody's, which must be a 404, not a failure.
          return randomUUID();
        };
        const query = new URLSearchParams();
        for (const q of op.required) {
          if (q === 'word_mark') query.set(q, mark.word_mark || 'SUNRISE');
          else if (q === 'q') query.set(q, 'tea');
          else if (q === 'journal_id') query.set(q, journals[0]!);
          else query.set(q, '1');
        }
        const url = op.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(value(n))) + (op.required.length ? `?${query}` : '');
        const req = request(t.app).get(url);
        const res = await (op.bearer ? req.set('Authorization', `Bearer ${token}`) : req.set('X-API-Key', t.account.key));
        walked.set(op.path, (walked.get(op.path) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${url} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    expect(failures, failures.slice(0, 10).join('\n')).to.deep.equal([]);
    expect([...walked.keys()]).to.deep.equal(ops.map((o) => o.path));
    expect(walked.get('/v1/trademarks/{app_no}/phonetic/')).to.equal(60);
  });
});
