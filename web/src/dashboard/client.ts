import createClient from 'openapi-fetch';
import { ERRORS_HI, FIELDS_HI } from '../lib/glossary.ts';
import type { components, paths } from '../lib/openapi.gen.ts';

export type Schemas = components['schemas'];

/** The metered resources, in the order the usage and plan pages list them. */
export const RESOURCES = ['api_calls', 'doc_views', 'logo_searches', 'pdf_reports', 'excel_reports', 'clearances'] as const;

// The dashboard's own client (docs/dashboard.md): every call rides on the httpOnly session cookie, the account
// endpoints and the keyed data endpoints alike, with the session's CSRF token on every change. The token lives in
// this module's memory only; no key is ever held by the page.
let csrfToken: string | null = null;

export const dash = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });

dash.use({
  onRequest({ request }) {
    if (request.method !== 'GET' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
  onResponse({ request, response }) {
    // A session that ended meanwhile (logged out elsewhere, expired): the page goes back to its login.
    const path = new URL(request.url).pathname;
    if (response.status === 401 && !path.startsWith('/user/v1/session/') && sessionEnded) sessionEnded();
    return response;
  },
});

let sessionEnded: (() => void) | null = null;

export function onSessionEnd(f: (() => void) | null): void {
  sessionEnded = f;
}

export function setCsrf(token: string | null): void {
  csrfToken = token;
}

/**
 * The message of an API error body, or a generic one, in the page's language: a Hindi page says the error's
 * code in Hindi (the API speaks English), naming the fields a validation error names by their Hindi words.
 */
export function errorText(error: unknown, fallback: string): string {
  const e = error as { error?: unknown; code?: unknown; details?: unknown } | undefined;
  if (typeof e?.error !== 'string') return fallback;
  const details = (Array.isArray(e.details) ? e.details : []) as ({ message?: unknown; parameter?: unknown } | null)[];
  if (document.documentElement.lang === 'hi') {
    const said = typeof e.code === 'string' ? ERRORS_HI[e.code] : undefined;
    if (!said) return fallback;
    const fields = details
      .map((d) => (typeof d?.parameter === 'string' ? d.parameter.split('.').pop()! : ''))
      .filter(Boolean)
      .map((p) => FIELDS_HI[p] ?? FIELDS_HI[p.replace(/\d+$/, '')] ?? p);
    return fields.length ? `${said}: ${[...new Set(fields)].join(', ')}` : said;
  }
  // A 400's error only names the parameters; its details say what is wrong with each, naming it too
  // (classes: 46 is not a Nice class), unless the error says it already (an unknown webhook event).
  const text = e.error;
  const reasons = details.map((d) => d?.message).filter((m): m is string => typeof m === 'string' && !text.includes(m));
  return reasons.length ? reasons.join('; ') : text;
}

/** A multipart body for openapi-fetch: the typed body is checked, the FormData is what is sent. */
export function formBody(fields: Record<string, string | Blob | undefined>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== '') f.append(k, v);
  return f;
}
