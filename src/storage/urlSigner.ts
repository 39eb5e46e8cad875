import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedParams {
  acct: string;
  exp: string;
  sig: string;
  /** The file name the download is offered under (optional; signed when present). */
  fn: string;
}

export type Verdict =
  | { ok: true; accountId: string; expiresAt: Date; filename: string | null }
  | { ok: false; reason: 'unsigned' | 'expired' | 'signature_invalid' };

/** How long a signed /files/ link works. */
export const SIGNED_URL_TTL_SECONDS = 30 * 60;

/** HMAC over path, expiry, account and file name: change any of them and the signature fails. */
export class UrlSigner {
  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  private mac(path: string, exp: string, acct: string, fn: string): Buffer {
    return createHmac('sha256', this.secret).update(`${path}\n${exp}\n${acct}\n${fn}`).digest();
  }

  sign(path: string, accountId: string, filename = '', ttlSeconds = SIGNED_URL_TTL_SECONDS): { query: string; expiresAt: Date } {
    const expSec = Math.floor(this.now() / 1000) + ttlSeconds;
    const exp = String(expSec);
    const sig = this.mac(path, exp, accountId, filename).toString('base64url');
    const params: Record<string, string> = { acct: accountId, exp, sig };
    if (filename) params.fn = filename;
    return { query: new URLSearchParams(params).toString(), expiresAt: new Date(expSec * 1000) };
  }

  verify(path: string, q: Partial<Record<keyof SignedParams, unknown>>): Verdict {
    const { acct, exp, sig, fn = '' } = q;
    if (typeof acct !== 'string' || typeof exp !== 'string' || typeof sig !== 'string') return { ok: false, reason: 'unsigned' };
    if (typeof fn !== 'string' || !/^\d{1,12}$/.test(exp)) return { ok: false, reason: 'signature_invalid' };
    // The canonical text is compared, not decoded bytes: a lenient base64 decoder ignores padding, junk and
    // the last character's spare bits, which would let one link be written many ways.
    const expected = Buffer.from(this.mac(path, exp, acct, fn).toString('base64url'));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature_invalid' };
    // Checked after the signature so a forged expiry is reported as tampering, not as expiry.
    if (Number(exp) * 1000 <= this.now()) return { ok: false, reason: 'expired' };
    return { ok: true, accountId: acct, expiresAt: new Date(Number(exp) * 1000), filename: fn || null };
  }
}
