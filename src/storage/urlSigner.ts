import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNED_URL_TTL_SECONDS } from './objectStore.ts';

export interface SignedParams {
  acct: string;
  exp: string;
  sig: string;
}

export type Verdict = { ok: true; accountId: string; expiresAt: Date } | { ok: false; reason: 'unsigned' | 'expired' | 'signature_invalid' };

/** HMAC over path, expiry and account: change any of the three and the signature fails. */
export class UrlSigner {
  constructor(private readonly secret: string, private readonly now: () => number = Date.now) {}

  private mac(path: string, exp: string, acct: string): Buffer {
    return createHmac('sha256', this.secret).update(`${path}\n${exp}\n${acct}`).digest();
  }

  sign(path: string, accountId: string, ttlSeconds = SIGNED_URL_TTL_SECONDS): { query: string; expiresAt: Date } {
    const expSec = Math.floor(this.now() / 1000) + ttlSeconds;
    const exp = String(expSec);
    const sig = this.mac(path, exp, accountId).toString('base64url');
    const query = new URLSearchParams({ acct: accountId, exp, sig }).toString();
    return { query, expiresAt: new Date(expSec * 1000) };
  }

  verify(path: string, q: Partial<Record<keyof SignedParams, unknown>>): Verdict {
    const { acct, exp, sig } = q;
    if (typeof acct !== 'string' || typeof exp !== 'string' || typeof sig !== 'string') return { ok: false, reason: 'unsigned' };
    if (!/^\d{1,12}$/.test(exp)) return { ok: false, reason: 'signature_invalid' };
    const expected = this.mac(path, exp, acct);
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature_invalid' };
    // Checked after the signature so a forged expiry is reported as tampering, not as expiry.
    if (Number(exp) * 1000 <= this.now()) return { ok: false, reason: 'expired' };
    return { ok: true, accountId: acct, expiresAt: new Date(Number(exp) * 1000) };
  }
}
