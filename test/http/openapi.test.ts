import fs from 'node:fs';
import { expect } from 'chai';
import { buildOpenApiDocument } from '../../src/http/openapiDocument.ts';

describe('committed OpenAPI document', () => {
  it('matches the document generated from the zod schemas (run `npm run openapi` after changing them)', () => {
    const committed = JSON.parse(fs.readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).to.deep.equal(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('documents every trademark read endpoint with its 404', () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, { get?: { responses: Record<string, unknown> } }> };
    for (const p of ['', 'status/', 'alerts/', 'cited/', 'proprietor/', 'attorney/', 'oppositions/', 'hearings/', 'exam-report/']) {
      const op = doc.paths[`/v1/trademarks/{app_no}/${p}`]?.get;
      expect(op, p).to.not.equal(undefined);
      expect(op!.responses).to.have.property('404');
    }
  });

  it('describes the auth schemes, the error body with every 429 code, and the limit headers', () => {
    const doc = buildOpenApiDocument() as {
      components: {
        securitySchemes: Record<string, { type: string; name?: string; scheme?: string }>;
        schemas: Record<string, { properties: { code: { enum: string[] } } }>;
      };
      paths: Record<string, { get?: { responses: Record<string, { headers?: Record<string, unknown> }> } }>;
    };
    expect(doc.components.securitySchemes.ApiKey).to.include({ type: 'apiKey', name: 'X-API-Key' });
    expect(doc.components.securitySchemes.LegacyApiKey).to.include({ type: 'apiKey', name: 'Authorization' });
    expect(doc.components.securitySchemes.Bearer).to.include({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Error.properties.code.enum).to.include.members([
      'ip_rate_limited',
      'key_rate_limited',
      'concurrency_limited',
      'quota_exceeded',
      'public_search_limited',
      'login_throttled',
      'subscription_inactive',
      'category_not_on_plan',
      'unauthorized',
    ]);
    const op = doc.paths['/v1/trademarks/{app_no}/']!.get!;
    expect(op.responses['200'].headers).to.have.keys('X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
    expect(op.responses['429'].headers).to.include.keys('Retry-After', 'RateLimit-Limit');
    expect(op.responses).to.include.keys('401', '403', '404', '429');
  });
});
