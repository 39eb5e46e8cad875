import { expect } from 'chai';
import fs from 'node:fs';
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
});
