import createClient from 'openapi-fetch';
import type { components, paths } from '../lib/openapi.gen.ts';

export type Schemas = components['schemas'];

// The dashboard's own client (docs/dashboard.md): the /user/v1/ endpoints ride on the httpOnly session cookie,
// with the session's CSRF token on every change; the keyed /v1/ endpoints get the API key this tab holds.
// Both live in this module's memory only: never in storage, gone when the tab is.
let csrfToken: string | null = null;
let apiKey: string | null = null;
let keyListeners: (() => void)[] = [];

export const dash = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });

dash.use({
  onRequest({ request }) {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/user/v1/') && request.method !== 'GET' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    if (path.startsWith('/v1/') && apiKey) request.headers.set('X-API-Key', apiKey);
    return request;
  },
  onResponse({ request, response }) {
    // A session that ended meanwhile (logged out elsewhere, expired): the page goes back to its login.
    const path = new URL(request.url).pathname;
    if (response.status === 401 && path.startsWith('/user/v1/') && !path.startsWith('/user/v1/session/') && sessionEnded) sessionEnded();
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

/** The key of this tab, and whether the dashboard made it (then it revokes it at logout). */
export interface TabKey {
  key: string;
  id: string | null;
}
let tabKey: TabKey | null = null;

export function setTabKey(k: TabKey | null): void {
  tabKey = k;
  apiKey = k?.key ?? null;
  for (const f of keyListeners) f();
}

export const getTabKey = (): TabKey | null => tabKey;

export function onTabKey(f: () => void): () => void {
  keyListeners.push(f);
  return () => {
    keyListeners = keyListeners.filter((g) => g !== f);
  };
}

/** The message of an API error body, or a generic one. */
export function errorText(error: unknown, fallback: string): string {
  const e = error as { error?: unknown; details?: unknown } | undefined;
  if (typeof e?.error !== 'string') return fallback;
  // A 400's error only names the parameters; its details say what is wrong with each, naming it too
  // (classes: 46 is not a Nice class), unless the error says it already (an unknown webhook event).
  const text = e.error;
  const reasons = (Array.isArray(e.details) ? e.details : [])
    .map((d) => (d as { message?: unknown } | null)?.message)
    .filter((m): m is string => typeof m === 'string' && !text.includes(m));
  return reasons.length ? reasons.join('; ') : text;
}

/** A multipart body for openapi-fetch: the typed body is checked, the FormData is what is sent. */
export function formBody(fields: Record<string, string | Blob | undefined>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== '') f.append(k, v);
  return f;
}
