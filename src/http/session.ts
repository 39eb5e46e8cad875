import type { Request, Response } from 'express';
import { AppError } from '../errors.ts';

/**
 * The dashboard's session cookie. HttpOnly keeps it from page script; SameSite=Strict keeps browsers from
 * sending it with any request another site starts; Secure whenever the request came over HTTPS. Its path is
 * the whole site: the dashboard calls the keyed data endpoints with it too (docs/dashboard.md).
 */
export const SESSION_COOKIE = 'nsh_session';
export const SESSION_PATH = '/';
/** Where sessions made before the cookie covered the data endpoints kept it: cleared at logout too. */
const OLD_SESSION_PATH = '/user/v1/';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function readSessionCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function setSessionCookie(req: Request, res: Response, id: string, maxAgeSeconds: number): void {
  res.cookie(SESSION_COOKIE, id, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.secure,
    path: SESSION_PATH,
    maxAge: maxAgeSeconds * 1000,
  });
}

export function clearSessionCookie(req: Request, res: Response): void {
  for (const path of [SESSION_PATH, OLD_SESSION_PATH])
    res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure: req.secure, path });
}

/** This server's own origin as the browser names it (scheme and host; through a trusted proxy, the proxy's). */
function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? ''}`;
}

/**
 * Refuses a request that another site's page started, whatever its method: SameSite=Strict already keeps the
 * cookie off such requests in current browsers; this also holds for older ones and for requests that carry
 * the cookie some other way. `Sec-Fetch-Site` (sent by every current browser) must be same-origin or none
 * (typed in the address bar), and an `Origin`, when sent, must be this server's own.
 */
export function refuseCrossSite(req: Request): void {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none')
    throw new AppError('forbidden', `a session cookie is accepted only on requests from this site's own pages (Sec-Fetch-Site: ${site})`);
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== ownOrigin(req))
    throw new AppError('forbidden', "a session cookie is accepted only on requests from this site's own pages (Origin differs)");
}

/**
 * A cookie-authenticated request that changes something must also send the session's CSRF token in
 * X-CSRF-Token: a header no other site's page can set without a CORS preflight this API never approves,
 * and a value it cannot read.
 */
export function requireCsrf(req: Request, check: (token: string) => boolean): void {
  if (SAFE_METHODS.has(req.method)) return;
  const token = req.headers[CSRF_HEADER];
  if (typeof token !== 'string' || !check(token))
    throw new AppError(
      'forbidden',
      'a request made with the session cookie that changes something needs the X-CSRF-Token header of the session',
    );
}
