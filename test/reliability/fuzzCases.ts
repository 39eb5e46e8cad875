// The requests of the fuzz test (fuzz.test.ts), made from the OpenAPI document: for every operation a
// baseline request built from its schemas, then the same request with one part made hostile at a time.
// Seeded, so a failure names a request that can be sent again.

import { mulberry32 } from '../helpers/mulberry32.ts';

export type Kind =
  | 'baseline'
  | 'type'
  | 'size'
  | 'control'
  | 'number'
  | 'array101'
  | 'nesting'
  | 'unknown'
  | 'malformed-body'
  | 'truncated-multipart'
  | 'multipart'
  | 'path'
  | 'query';

export interface FuzzRequest {
  operation: string;
  /** What was made hostile, to name a failure. */
  what: string;
  kind: Kind;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  auth: 'apiKey' | 'bearer' | 'none';
}

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  minItems?: number;
}

interface Operation {
  parameters?: { name: string; in: 'path' | 'query'; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: Record<string, unknown>[];
}

export interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

// Ids the seeded registry has (test/helpers/seed.ts), or well-formed ids of nothing.
export const PATH_VALUES: Record<string, string> = {
  app_no: '4000001',
  journal_id: '7',
  class_number: '30',
  doc_id: '71',
  key_id: '00000000-0000-4000-8000-000000000001',
  webhook_id: '00000000-0000-4000-8000-000000000002',
  delivery_id: '1',
  job_id: '00000000-0000-4000-8000-000000000003',
  watch_id: '00000000-0000-4000-8000-000000000004',
  hit_id: '00000000-0000-4000-8000-000000000005',
  owner_id: 'own_0123456789abcdef',
};

const HOSTILE_JSON: [Kind, string, unknown][] = [
  ['type', 'null', null],
  ['type', 'true', true],
  ['type', 'a number', 7],
  ['type', 'a string', 'text'],
  ['type', 'an object', { a: 1 }],
  ['type', 'an empty array', []],
  ['size', '100,000 characters', 'A'.repeat(100_000)],
  ['size', 'an empty string', ''],
  ['control', 'NUL', '\u0000'],
  ['control', 'NUL inside', 'SUN\u0000RISE'],
  ['control', 'ESC', '\u001b[31m'],
  ['control', 'a lone surrogate', '\ud800'],
  ['number', '-1', -1],
  ['number', '1e308', 1e308],
  ['number', '-1e308', -1e308],
  ['number', '2^53+1', 2 ** 53 + 1],
  ['number', '1.5', 1.5],
  // biome-ignore lint/correctness/noPrecisionLoss: a number beyond double precision is the hostile value
  ['number', '30 digits', 123456789012345678901234567890],
  ['nesting', '2,000 levels of arrays', JSON.parse('['.repeat(2000) + ']'.repeat(2000))],
];

const HOSTILE_TEXT: [Kind, string, string][] = [
  ['control', 'NUL', '%00'],
  ['control', 'ESC', '%1B'],
  ['control', 'bad percent-encoding', '%ZZ'],
  ['control', 'a lone percent', '%'],
  ['control', 'broken UTF-8', '%E2%82'],
  ['control', 'a lone surrogate', '%ED%A0%80'],
  ['size', '10,000 characters', 'A'.repeat(10_000)],
  ['size', 'empty', ''],
  ['number', '-1', '-1'],
  ['number', '30 digits', '123456789012345678901234567890'],
  ['number', '1e999', '1e999'],
  ['number', 'hex', '0x10'],
  ['number', 'NaN', 'NaN'],
  ['number', '1.5', '1.5'],
  ['type', 'a list', 'a,,b,'],
  ['type', 'a path', '..%2F..%2Fetc%2Fpasswd'],
];

function resolve(doc: Doc, s: Schema): Schema {
  return s.$ref ? resolve(doc, doc.components.schemas[s.$ref.split('/').pop()!]) : s;
}

/** A value the schema accepts, as far as its shape says. */
function example(doc: Doc, raw: Schema): unknown {
  const s = resolve(doc, raw);
  if (s.example !== undefined) return s.example;
  if (s.enum?.length) return s.enum[0];
  if (s.anyOf?.length) return example(doc, s.anyOf[s.anyOf.length - 1]);
  if (s.oneOf?.length) return example(doc, s.oneOf[s.oneOf.length - 1]);
  switch (s.type) {
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => example(doc, s.items ?? {}));
    case 'object':
      return Object.fromEntries((s.required ?? Object.keys(s.properties ?? {})).map((k) => [k, example(doc, s.properties?.[k] ?? {})]));
    default:
      if (s.format === 'email') return 'fuzz@example.in';
      if (s.format === 'uri') return 'https://hooks.example.in/x';
      return 'SUNRISE';
  }
}

const BOUNDARY = 'fuzzBoundary7MA4YWxkTrZu0gW';

function multipart(
  parts: { name: string; filename?: string; type?: string; data: Uint8Array | string }[],
  close = true,
): Uint8Array<ArrayBuffer> {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

/** Every operation's baseline and hostile requests, at most `perOperation` of them per operation (the baseline always). */
export function hostileRequests(doc: Doc, opts: { seed: number; perOperation: number; png?: Uint8Array }): FuzzRequest[] {
  const random = mulberry32(opts.seed);
  const png = opts.png ?? new Uint8Array(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(4000, 7)]));
  const out: FuzzRequest[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const operation = `${method.toUpperCase()} ${template}`;
      const security = Object.keys(op.security?.[0] ?? {})[0];
      const auth = security === 'Bearer' ? 'bearer' : security ? 'apiKey' : 'none';
      const params = op.parameters ?? [];
      const pathValues = Object.fromEntries(
        params
          .filter((p) => p.in === 'path')
          .map((p) => [p.name, PATH_VALUES[p.name] ?? encodeURIComponent(String(example(doc, p.schema)))]),
      );
      const queryValues = Object.fromEntries(
        params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, encodeURIComponent(String(example(doc, p.schema)))]),
      );
      const url = (pv: Record<string, string>, qv: Record<string, string>, extra = '') => {
        const q = [...Object.entries(qv).map(([k, v]) => `${k}=${v}`), extra].filter(Boolean).join('&');
        return template.replace(/\{(\w+)\}/g, (_m, name: string) => pv[name]) + (q ? `?${q}` : '');
      };
      const [mediaType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const schema = media ? resolve(doc, media.schema) : undefined;
      const jsonBody = mediaType === 'application/json' ? (example(doc, schema!) as Record<string, unknown>) : undefined;
      const req = (
        kind: Kind,
        what: string,
        o: { path?: string; body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string> } = {},
      ): FuzzRequest => ({
        operation,
        what,
        kind,
        method: method.toUpperCase(),
        auth,
        path: o.path ?? url(pathValues, queryValues),
        headers: o.headers ?? (jsonBody ? { 'Content-Type': 'application/json' } : {}),
        body: o.body ?? (jsonBody ? JSON.stringify(jsonBody) : undefined),
      });
      const baseline =
        mediaType === 'multipart/form-data'
          ? req('baseline', 'baseline', {
              body: multipart([{ name: fileField(schema!), filename: 'logo.png', type: 'image/png', data: png }]),
              headers: formHeaders(),
            })
          : req('baseline', 'baseline');
      const cases: FuzzRequest[] = [];

      for (const name of Object.keys(pathValues)) {
        for (const [kind, label, value] of HOSTILE_TEXT) {
          if (value === '') continue; // an empty segment is another route, not this one
          cases.push(req('path', `path ${name} = ${label} (${kind})`, { path: url({ ...pathValues, [name]: value }, queryValues) }));
        }
      }
      for (const p of params.filter((x) => x.in === 'query')) {
        for (const [kind, label, value] of HOSTILE_TEXT) {
          cases.push(req('query', `query ${p.name} = ${label} (${kind})`, { path: url(pathValues, { ...queryValues, [p.name]: value }) }));
        }
        cases.push(req('query', `query ${p.name} twice`, { path: url(pathValues, queryValues, `${p.name}=1&${p.name}=2`) }));
        cases.push(req('query', `query ${p.name} as an object`, { path: url(pathValues, queryValues, `${p.name}[a]=1`) }));
      }
      cases.push(req('unknown', 'an unknown query parameter', { path: url(pathValues, queryValues, 'zzz_unknown=1') }));

      if (jsonBody) {
        const props = Object.keys(schema?.properties ?? {});
        for (const prop of props) {
          for (const [kind, label, value] of HOSTILE_JSON) {
            cases.push(req(kind, `body ${prop} = ${label}`, { body: JSON.stringify({ ...jsonBody, [prop]: value }) }));
          }
          const items = resolve(doc, schema!.properties![prop]);
          const arrayItems =
            items.type === 'array'
              ? items.items
              : [...(items.anyOf ?? []), ...(items.oneOf ?? [])].map((s) => resolve(doc, s)).find((s) => s.type === 'array')?.items;
          const one = arrayItems ? example(doc, arrayItems) : 'SUNRISE';
          cases.push(
            req('array101', `body ${prop} = 101 items`, {
              body: JSON.stringify({ ...jsonBody, [prop]: Array.from({ length: 101 }, () => one) }),
            }),
          );
          cases.push(
            req('array101', `body ${prop} = 10,000 items`, {
              body: JSON.stringify({ ...jsonBody, [prop]: Array.from({ length: 10_000 }, () => one) }),
            }),
          );
        }
        cases.push(req('unknown', 'an unknown body field', { body: JSON.stringify({ ...jsonBody, zzz_unknown: 1 }) }));
        cases.push(req('unknown', 'an unknown field with a NUL in its name', { body: JSON.stringify({ ...jsonBody, 'zzz\u0000': 1 }) }));
        for (const [label, text] of [
          ['cut short', '{"a":'],
          ['null', 'null'],
          ['an array', '[]'],
          ['a string', '"x"'],
          ['a number', '123'],
          ['empty', ''],
          ['a prototype key', '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'],
          ['2,000 levels of objects', `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`],
        ]) {
          cases.push(req('malformed-body', `a JSON body that is ${label}`, { body: text }));
        }
        cases.push(
          req('malformed-body', 'a body as text/plain', { body: JSON.stringify(jsonBody), headers: { 'Content-Type': 'text/plain' } }),
        );
        cases.push(
          req('malformed-body', 'a body as a form', { body: 'a=1&b=2', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
        );
      } else if (mediaType === 'multipart/form-data') {
        const field = fileField(schema!);
        const head = png.subarray(0, 1000);
        cases.push(
          req('truncated-multipart', 'a form cut off inside the file (no closing boundary)', {
            body: multipart([{ name: field, filename: 'logo.png', type: 'image/png', data: head }], false).subarray(0, 1100),
            headers: formHeaders(),
          }),
        );
        cases.push(
          req('truncated-multipart', 'a form cut off inside the part headers', {
            body: new Uint8Array(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filen`)),
            headers: formHeaders(),
          }),
        );
        cases.push(
          req('truncated-multipart', 'a form with no closing boundary after a whole file', {
            body: multipart([{ name: field, filename: 'logo.png', type: 'image/png', data: png }], false),
            headers: formHeaders(),
          }),
        );
        cases.push(
          req('multipart', 'a form without a boundary', {
            body: multipart([{ name: field, filename: 'x.png', data: png }]),
            headers: { 'Content-Type': 'multipart/form-data' },
          }),
        );
        cases.push(
          req('multipart', 'a form with another boundary', {
            body: multipart([{ name: field, filename: 'x.png', data: png }]),
            headers: { 'Content-Type': 'multipart/form-data; boundary=other' },
          }),
        );
        cases.push(
          req('multipart', 'a form with no file', { body: multipart([{ name: 'similarity_level', data: 'low' }]), headers: formHeaders() }),
        );
        cases.push(
          req('multipart', 'the file under another field', {
            body: multipart([{ name: 'zzz_unknown', filename: 'x.png', data: png }]),
            headers: formHeaders(),
          }),
        );
        cases.push(
          req('multipart', 'a text file', {
            body: multipart([{ name: field, filename: 'x.png', type: 'image/png', data: 'hello' }]),
            headers: formHeaders(),
          }),
        );
        cases.push(
          req('multipart', 'an empty file', {
            body: multipart([{ name: field, filename: 'x.png', type: 'image/png', data: '' }]),
            headers: formHeaders(),
          }),
        );
        cases.push(
          req('control', 'a field holding NUL', {
            body: multipart([
              { name: field, filename: 'x.png', data: png },
              { name: 'similarity_level', data: '\u0000' },
            ]),
            headers: formHeaders(),
          }),
        );
        cases.push(
          req('size', 'a field of 100,000 characters', {
            body: multipart([
              { name: field, filename: 'x.png', data: png },
              { name: 'similarity_level', data: 'A'.repeat(100_000) },
            ]),
            headers: formHeaders(),
          }),
        );
        cases.push(
          req('unknown', 'an unknown form field', {
            body: multipart([
              { name: field, filename: 'x.png', data: png },
              { name: 'zzz_unknown', data: '1' },
            ]),
            headers: formHeaders(),
          }),
        );
        cases.push(
          req('array101', '101 files', {
            body: multipart(Array.from({ length: 101 }, (_, i) => ({ name: field, filename: `${i}.png`, data: png }))),
            headers: formHeaders(),
          }),
        );
        cases.push(
          req('malformed-body', 'JSON sent to a form endpoint', { body: '{"a":1}', headers: { 'Content-Type': 'application/json' } }),
        );
        for (const [kind, label, value] of HOSTILE_JSON.filter(([, , v]) => typeof v === 'string' || typeof v === 'number')) {
          cases.push(
            req(kind, `field similarity_level = ${label}`, {
              body: multipart([
                { name: field, filename: 'x.png', data: png },
                { name: 'similarity_level', data: String(value) },
              ]),
              headers: formHeaders(),
            }),
          );
        }
      } else if (method !== 'get' && method !== 'delete') {
        cases.push(
          req('malformed-body', 'an unexpected JSON body', { body: '{"zzz_unknown":1}', headers: { 'Content-Type': 'application/json' } }),
        );
      }
      // Seeded shuffle, then the first N: every operation gets a bounded, repeatable share.
      for (let i = cases.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [cases[i], cases[j]] = [cases[j], cases[i]];
      }
      // A cut-off form is what took the service down once: always sent.
      const always = cases.filter((c) => c.kind === 'truncated-multipart');
      const rest = cases.filter((c) => c.kind !== 'truncated-multipart');
      out.push(baseline, ...always, ...rest.slice(0, Math.max(0, opts.perOperation - 1 - always.length)));
    }
  }
  return out;
}

function fileField(schema: Schema): string {
  const file = Object.entries(schema.properties ?? {}).find(([, s]) => s.format === 'binary' || s.items?.format === 'binary');
  return file?.[0] ?? 'uploaded_file';
}

function formHeaders(): Record<string, string> {
  return { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
}
