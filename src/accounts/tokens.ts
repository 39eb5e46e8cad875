import jwt from 'jsonwebtoken';
import { AppError } from '../errors.ts';
import { isUuid } from '../schema/params.ts';

/** Dashboard bearer tokens: HS256 JWTs `{sub: account id, typ: "dashboard", iat, exp}`. */
export class TokenService {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
  ) {}

  issue(accountId: string): { token: string; expiresIn: number } {
    const token = jwt.sign({ typ: 'dashboard' }, this.secret, { algorithm: 'HS256', subject: accountId, expiresIn: this.ttlSeconds });
    return { token, expiresIn: this.ttlSeconds };
  }

  /**
   * The account id of a valid token; 401 for anything else (pinned algorithm, so no `none` tokens). A token
   * must say when it ends: jsonwebtoken accepts one without `exp` for ever, and one made with a leaked secret
   * would never lapse.
   */
  verify(token: string): string {
    try {
      const p = jwt.verify(token, this.secret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
      if (typeof p.exp !== 'number') throw new Error('no expiry');
      // Account ids are UUIDs: anything else must not reach a uuid column (a 500 instead of a 401).
      if (p.typ !== 'dashboard' || typeof p.sub !== 'string' || !isUuid(p.sub)) throw new Error('not a dashboard token');
      return p.sub;
    } catch {
      throw new AppError('unauthorized', 'invalid or expired bearer token');
    }
  }
}
