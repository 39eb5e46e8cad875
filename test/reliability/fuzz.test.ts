import { expect } from 'chai';
import sharp from 'sharp';
import { ERROR_CODES } from '../../src/errors.ts';
import { buildOpenApiDocument } from '../../src/http/openapiDocument.ts';
import { bearer } from '../accounts/support.ts';
import { createLogoApp, type LogoTestApp } from '../helpers/logos.ts';
import { seedRegistry } from '../helpers/seed.ts';
import { type ServerProcess, startServerProcess } from '../helpers/serverProcess.ts';
import { type FuzzRequest, hostileRequests } from './fuzzCases.ts';

// The hostile requests that add a key named zzz_unknown where the operation takes no such thing.
const NAMES_UNKNOWN = new Set(['an unknown query parameter', 'an unknown body field', 'an unknown form field', 'an unexpected JSON body']);

// A bounded fuzz pass over every operation of the OpenAPI document against a real API process: hostile
// values in every path parameter, query parameter and body field (wrong types, sizes, NUL and other
// controls, huge numbers, 101-item arrays, deep nesting), malformed and truncated bodies and multipart
// forms. No answer may be a 5xx, every 4xx is a JSON {error, code} from the closed list, an unknown parameter
// or field is a 400 naming it, and the process answers afterwards.
describe('fuzz: hostile input to every operation', function () {
  this.timeout(300_000);
  let logos: LogoTestApp;
  let server: ServerProcess;
  let apiKey: string;
  let token: string;
  let png: Uint8Array;

  before(async () => {
    png = new Uint8Array(
      await sharp({
        create: { width: 64, height: 64, channels: 3, background: '#2040a0', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
      })
        .png()
        .toBuffer(),
    );
    logos = await createLogoApp();
    const t = logos.app;
    await seedRegistry(t.deps.db);
    apiKey = t.account.key;
    token = bearer(t, t.account.accountId);
    const c = t.deps.config;
    server = await startServerProcess({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: c.DATABASE_URL,
      REDIS_URL: c.REDIS_URL,
      QUEUE_PREFIX: c.QUEUE_PREFIX,
      OBJECT_STORE_DIR: c.OBJECT_STORE_DIR,
      UPLOAD_DIR: c.uploadDir,
      ML_URL: c.ML_URL,
      URL_SIGNING_SECRET: c.URL_SIGNING_SECRET,
      JWT_SECRET: c.JWT_SECRET,
      PUBLIC_BASE_URL: 'http://127.0.0.1:1',
      SEARCH_SNAPSHOT: '',
      RATE_LIMIT_PREFIX: c.RATE_LIMIT_PREFIX,
      RATE_IP_PER_MINUTE: '1000000',
      RATE_KEY_PER_SECOND: '1000000',
      PUBLIC_SEARCH_PER_HOUR: '1000000',
      LOGIN_EMAIL_SLOW_AFTER: '1000000',
      LOGIN_EMAIL_MAX: '1000000',
      LOGIN_IP_SLOW_AFTER: '1000000',
      LOGIN_IP_MAX: '1000000',
      IMAGE_FETCH_TIMEOUT_MS: '2000',
    });
  });
  after(async () => {
    await server?.stop();
    await logos?.close();
  });

  it('answers every hostile request with a 2xx or a 4xx JSON error, and still answers afterwards', async () => {
    const doc = buildOpenApiDocument() as Parameters<typeof hostileRequests>[0];
    const cases = hostileRequests(doc, { seed: 18, perOperation: 500, png });
    const operations = new Set(cases.map((c) => c.operation));
    expect(operations.size, 'operations covered').to.equal(Object.values(doc.paths).reduce((n, p) => n + Object.keys(p).length, 0));

    const failures: string[] = [];
    const counts = { requests: 0, '2xx': 0, '4xx': 0, '5xx': 0, other: 0 };
    const send = async (c: FuzzRequest) => {
      const headers: Record<string, string> = { ...c.headers };
      if (c.auth === 'apiKey') headers['X-API-Key'] = apiKey;
      if (c.auth === 'bearer') headers.Authorization = token;
      let status: number;
      let text: string;
      let type: string;
      try {
        const res = await fetch(`${server.url}${c.path}`, { method: c.method, headers, body: c.body, signal: AbortSignal.timeout(60_000) });
        status = res.status;
        type = res.headers.get('content-type') ?? '';
        text = await res.text();
      } catch (err) {
        failures.push(`${c.operation} ${c.what}: no answer (${(err as Error).message})`);
        return;
      }
      counts.requests++;
      const family = status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 200 && status < 300 ? '2xx' : 'other';
      counts[family]++;
      if (status >= 500 || family === 'other') failures.push(`${c.operation} ${c.what}: ${status} ${text.slice(0, 200)}`);
      if (status >= 400 && status < 500) {
        let body: { error?: unknown; code?: unknown } = {};
        try {
          body = JSON.parse(text);
        } catch {
          // Reported below: not JSON.
        }
        const code = body.code as keyof typeof ERROR_CODES;
        if (!type.startsWith('application/json') || typeof body.error !== 'string' || ERROR_CODES[code] !== status) {
          failures.push(
            `${c.operation} ${c.what}: ${status} is not a JSON {error, code} of the closed list: ${type} ${text.slice(0, 200)}`,
          );
        }
      }
      // An unknown parameter or field is refused by name, wherever it is sent (docs/decisions.md).
      if (NAMES_UNKNOWN.has(c.what) && !/^400 .*"parameter":"zzz_unknown"/.test(`${status} ${text}`)) {
        failures.push(`${c.operation} ${c.what}: not a 400 naming zzz_unknown: ${status} ${text.slice(0, 200)}`);
      }
    };
    // A few at a time, as clients would send them; the process answers them side by side.
    const queue = [...cases];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let c = queue.shift(); c; c = queue.shift()) await send(c);
      }),
    );
    console.log(
      `      fuzz: ${counts.requests} answered of ${cases.length} requests over ${operations.size} operations; ` +
        `2xx ${counts['2xx']}, 4xx ${counts['4xx']}, 5xx ${counts['5xx']}`,
    );
    expect(failures, failures.slice(0, 40).join('\n')).to.deep.equal([]);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).to.equal(200);
    expect((await fetch(`${server.url}/v1/trademarks/4000001/`, { headers: { 'X-API-Key': apiKey } })).status).to.equal(200);
  });

  it('covers each kind of hostile input the issue names', () => {
    const doc = buildOpenApiDocument() as Parameters<typeof hostileRequests>[0];
    const kinds = new Set(hostileRequests(doc, { seed: 18, perOperation: 500, png }).map((c) => c.kind));
    expect([...kinds]).to.include.members([
      'type',
      'size',
      'control',
      'number',
      'array101',
      'nesting',
      'unknown',
      'truncated-multipart',
      'malformed-body',
    ]);
  });
});
