import createClient from 'openapi-fetch';
// Generated from docs/openapi.json by scripts/build-web.ts: an API change that breaks a call here or in a
// page fails the web type check (tsc -p web, in the README's test command).
import type { components, paths } from './openapi.gen.ts';

/** The API on this page's own origin: the API processes serve the app. */
export const api = createClient<paths>({ baseUrl: location.origin });

export type Schemas = components['schemas'];

/** Where an hourly (or other) window stands, from an answer's RateLimit-* headers; null when it has none. */
export interface RateWindow {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

export function rateWindow(res: Response): RateWindow | null {
  const n = (h: string) => {
    const v = res.headers.get(h);
    return v === null || v === '' ? Number.NaN : Number(v);
  };
  const w = { limit: n('RateLimit-Limit'), remaining: n('RateLimit-Remaining'), reset: n('RateLimit-Reset') };
  return Number.isFinite(w.limit) && Number.isFinite(w.remaining) ? { ...w, reset: Number.isFinite(w.reset) ? w.reset : 0 } : null;
}
