// Writes docs/openapi.json from the zod schemas; a test fails when the committed copy drifts.
import fs from 'node:fs';
import { buildOpenApiDocument } from '../src/http/openapiDocument.ts';

const out = new URL('../docs/openapi.json', import.meta.url).pathname;
fs.writeFileSync(out, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.error(`wrote ${out}`);
