import type { Request, Response } from 'express';
import { logIn, signedUp } from '../../accounts/login.ts';
import * as S from '../../accounts/schemas.ts';
import * as T from '../../accounts/sessionSchemas.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../root.ts';
import type { Api } from '../endpoint.ts';
import { clientIp } from '../guard.ts';
import { clearSessionCookie, readSessionCookie, refuseCrossSite, requireCsrf, setSessionCookie } from '../session.ts';

const tags = ['Account'];

const COOKIE =
  'The session is an httpOnly, SameSite=Strict cookie `nsh_session` (Path /user/v1/, Secure over HTTPS) that page script ' +
  'cannot read. It is accepted in place of `Authorization: Bearer` on the /user/v1/ endpoints (a request with an ' +
  'Authorization header is judged by that header alone), only on requests from this site: one whose `Sec-Fetch-Site` is not ' +
  'same-origin (or none) or whose `Origin` is not this server is 403 `forbidden`, and one that changes something (any method ' +
  'but GET) must send the `csrf_token` of this answer as `X-CSRF-Token` (else 403 `forbidden`). See docs/dashboard.md.';

type D = Pick<Services, 'accounts' | 'sessions' | 'limits'>;

/** Starts a session for an account: the cookie on the answer, what a page may know of it in the body. */
async function startSession(d: D, req: Request, res: Response, accountId: string) {
  const old = readSessionCookie(req);
  if (old !== undefined) await d.sessions.end(old);
  const s = await d.sessions.create(accountId);
  setSessionCookie(req, res, s.id, s.expiresIn);
  return { csrf_token: s.csrfToken, expires_in: s.expiresIn };
}

export function sessionRoutes(api: Api, d: D): void {
  api.add({
    method: 'post',
    path: '/user/v1/session/',
    operationId: 'startSession',
    tags,
    security: 'none',
    cost: null,
    summary: 'Log in from a browser: a session cookie instead of a bearer token',
    description:
      `Takes what POST /user/v1/login/ takes, with the same throttling and the same 401 \`invalid_credentials\`. ${COOKIE} ` +
      'A request with an `Origin` of another site is refused (403), so no page elsewhere can log a browser into an account.',
    body: S.LoginRequest,
    response: T.Session,
    errors: [401, 403, 429],
    handler: async ({ body, req, res }) => {
      refuseCrossSite(req);
      const account = await logIn(d.accounts, d.limits, body.email, body.password, clientIp(req));
      return { account, ...(await startSession(d, req, res, account.id)) };
    },
  });

  api.add({
    method: 'post',
    path: '/user/v1/session/signup/',
    operationId: 'signupWithSession',
    tags,
    security: 'none',
    cost: null,
    summary: 'Sign up from a browser: as POST /user/v1/signup/, logged in with a session cookie instead of a bearer token',
    description: `The account, trial and first API key (shown once) are those of POST /user/v1/signup/. ${COOKIE}`,
    body: S.SignupRequest,
    response: T.SessionSignup,
    status: 201,
    errors: [403, 409],
    handler: async ({ body, req, res }) => {
      refuseCrossSite(req);
      const r = await d.accounts.signup(body);
      return {
        ...signedUp(r, body.plan),
        account: { id: r.accountId, email: r.email, name: r.name },
        ...(await startSession(d, req, res, r.accountId)),
      };
    },
  });

  api.add({
    method: 'get',
    path: '/user/v1/session/',
    operationId: 'getSession',
    tags,
    security: 'none',
    cost: null,
    summary: "The browser's session: its account and CSRF token (401 when there is none, so a page knows to show its login)",
    description: COOKIE,
    response: T.Session,
    errors: [401, 403],
    handler: async ({ req, res }) => {
      const sid = readSessionCookie(req);
      if (sid === undefined) throw new AppError('unauthorized', 'no session: log in');
      refuseCrossSite(req);
      const accountId = await d.sessions.account(sid);
      const account = accountId ? await d.accounts.summary(accountId) : undefined;
      if (!account) {
        clearSessionCookie(req, res);
        throw new AppError('unauthorized', 'your session has ended: log in again');
      }
      return { account, csrf_token: d.sessions.csrfToken(sid), expires_in: await d.sessions.ttl(sid) };
    },
  });

  api.add({
    method: 'delete',
    path: '/user/v1/session/',
    operationId: 'endSession',
    tags,
    security: 'none',
    cost: null,
    summary: 'Log out: ends the session at once (on the server too) and clears its cookie',
    description: `Idempotent: without a session it only clears the cookie. With one it needs \`X-CSRF-Token\`. ${COOKIE}`,
    response: T.LoggedOut,
    errors: [403],
    handler: async ({ req, res }) => {
      const sid = readSessionCookie(req);
      if (sid !== undefined) {
        refuseCrossSite(req);
        requireCsrf(req, (token) => d.sessions.checkCsrf(sid, token));
        await d.sessions.end(sid);
      }
      clearSessionCookie(req, res);
      return { logged_out: true as const };
    },
  });
}
