import { type OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { withExamples } from './examples.ts';
import { linkGuides } from './guides.ts';

export const API_VERSION = '1.1.0';

export function generateOpenApi(registry: OpenAPIRegistry): object {
  registry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'An API key: `nsh_` followed by 32 letters and digits. Missing, malformed, revoked or unknown → 401.',
  });
  registry.registerComponent('securitySchemes', 'LegacyApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'Legacy form: `Authorization: Api-Key <key>`',
  });
  registry.registerComponent('securitySchemes', 'Bearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Dashboard token from POST /user/v1/login/ or signup: HS256 JWT with `sub` = account id, `typ` = "dashboard", `exp`.',
  });
  registry.registerComponent('securitySchemes', 'SessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'nsh_session',
    description:
      "The dashboard's httpOnly session cookie from POST /user/v1/session/, in place of a key or bearer token (charged to the " +
      "account as a key would be): only on requests from this site's own pages; " +
      'a request that changes something also sends the X-CSRF-Token its session gave (docs/dashboard.md).',
  });
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Nishaan trade mark data API',
      version: API_VERSION,
      description:
        "A JSON API over India's trade mark registry. Errors are `{error, code, request_id}` (+ `details`); " +
        'a query parameter or body field an operation does not take is a 400 naming it; ' +
        'application numbers are strings; `application_date` is YYYY-MM-DD and `expire_at` DD/MM/YYYY. ' +
        'New here? [Getting started](/docs/guides/getting-started): from sign-up to a first clearance, watch and webhook ' +
        'delivery. Every guide: [/docs/guides/](/docs/guides/).',
    },
    servers: [{ url: '/' }],
  });
  withExamples(doc as Parameters<typeof withExamples>[0]);
  return withGuideLinks(doc) as object;
}

/** The document's descriptions name guides by their address on this server, not by their path in our repository. */
function withGuideLinks(v: unknown): unknown {
  if (typeof v === 'string') return linkGuides(v);
  if (Array.isArray(v)) return v.map(withGuideLinks);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withGuideLinks(x)]));
  return v;
}
