import { z } from '../schema/zod.ts';
import { AccountSummary, SignupResponse } from './schemas.ts';

// Bodies of the dashboard's cookie-session endpoints (/user/v1/session/): what a page may read. The
// session id itself travels only in the httpOnly cookie and is never in a body.

const csrf = z.string().openapi({
  description: 'Send it as `X-CSRF-Token` on every request made with the session cookie that changes something (not GET)',
});
const expiresIn = z.number().int().openapi({ description: 'Seconds until the session ends', example: 43200 });

export const Session = z.object({ account: AccountSummary, csrf_token: csrf, expires_in: expiresIn }).openapi('Session');

export const SessionSignup = SignupResponse.omit({ token: true })
  .extend({ account: AccountSummary, csrf_token: csrf, expires_in: expiresIn })
  .openapi('SessionSignup');

export const LoggedOut = z.object({ logged_out: z.literal(true) }).openapi('LoggedOut');
