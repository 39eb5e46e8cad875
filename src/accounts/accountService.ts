import argon2 from 'argon2';
import { AppError, invalidParameter } from '../errors.ts';
import type { AccountRepository, KeyRow } from './accountRepository.ts';
import type { Caller } from './callerRepository.ts';
import { displayPrefix, generateApiKey, hashApiKey } from './keys.ts';
import { requireActive } from './planRules.ts';

/** A key as the dashboard shows it: never the key itself nor its hash. */
export interface KeyView extends KeyRow {
  active: boolean;
}

const keyView = (row: KeyRow): KeyView => ({ ...row, active: row.revoked_at === null });

export interface SignupInput {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  organisation?: string;
  phone?: string;
  plan: string;
}

export const MAX_ACTIVE_KEYS = 20;

const KEYS_NEED_ACTIVE = 'your subscription is not active: new API keys can be created once it is renewed';

/**
 * Signup (the account, a trial of the chosen plan and a first API key, in one transaction), password
 * checks and API key management. Every key operation names the account: keys are tenant-scoped.
 */
export class AccountService {
  // Verified when the email is unknown, so both answers take the same work. Made at construction:
  // made lazily, the first unknown-email login would pay for a hash and stand out.
  private readonly dummyHash: Promise<string>;

  constructor(
    private readonly repo: AccountRepository,
    private readonly trialDays: number,
  ) {
    this.dummyHash = AccountService.hashPassword(`no-such-account-${Math.random()}`);
  }

  static hashPassword(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async signup(input: SignupInput): Promise<{ accountId: string; apiKey: string; email: string; name: string; trialEndsAt: Date | null }> {
    const email = input.email.trim().toLowerCase();
    const passwordHash = await AccountService.hashPassword(input.password);
    const apiKey = generateApiKey();
    const { accountId, trialEndsAt } = await this.repo.transaction(async (trx) => {
      const planId = await this.repo.planId(input.plan, trx);
      if (planId === undefined) throw invalidParameter('body', 'plan', `unknown plan: ${input.plan}`, true);
      const id = await this.repo.insertAccount(trx, {
        email,
        passwordHash,
        firstName: input.first_name.trim(),
        lastName: input.last_name.trim(),
        organisation: input.organisation ?? null,
        phone: input.phone ?? null,
      });
      // Says only that this email cannot sign up again: nothing about the existing account.
      if (!id) throw new AppError('email_taken', 'an account with this email already exists; log in instead');
      const ends = await this.repo.startSubscription(trx, id, planId, 'trial', this.trialDays);
      await this.repo.insertKey(trx, id, 'default', hashApiKey(apiKey), displayPrefix(apiKey));
      return { accountId: id, trialEndsAt: ends };
    });
    return { accountId, apiKey, email, name: `${input.first_name.trim()} ${input.last_name.trim()}`, trialEndsAt };
  }

  /** The account of an email and password, or null; the same work is done whether or not the email exists. */
  async authenticate(email: string, password: string): Promise<{ id: string; email: string; name: string } | null> {
    const account = await this.repo.byEmail(email.trim().toLowerCase());
    if (!account) {
      await argon2.verify(await this.dummyHash, password).catch(() => false);
      return null;
    }
    const ok = await argon2.verify(account.password_hash, password).catch(() => false);
    return ok ? { id: account.id, email: account.email, name: `${account.first_name} ${account.last_name}` } : null;
  }

  /** Who an account is (id, email, name), for a dashboard session. */
  async summary(accountId: string): Promise<{ id: string; email: string; name: string } | undefined> {
    const a = await this.repo.byId(accountId);
    return a && { id: a.id, email: a.email, name: `${a.first_name} ${a.last_name}` };
  }

  async listKeys(accountId: string): Promise<KeyView[]> {
    return (await this.repo.listKeys(accountId)).map(keyView);
  }

  /** A new key for the caller's account, only while its subscription is active (contract §5.2). */
  async createKey(caller: Caller, name: string): Promise<{ key: KeyView; apiKey: string }> {
    requireActive(caller, KEYS_NEED_ACTIVE);
    const { accountId } = caller;
    // Each key has its own per-second window: unbounded keys would multiply the rate limit.
    const active = (await this.repo.listKeys(accountId)).filter((k) => !k.revoked_at).length;
    if (active >= MAX_ACTIVE_KEYS) {
      throw new AppError('key_limit_reached', `an account can hold at most ${MAX_ACTIVE_KEYS} active keys: revoke one first`, {
        limit: MAX_ACTIVE_KEYS,
        active,
      });
    }
    const apiKey = generateApiKey();
    const row = await this.repo.insertKey(this.repo.db, accountId, name, hashApiKey(apiKey), displayPrefix(apiKey));
    return { key: keyView(row), apiKey };
  }

  /** Revokes one of the account's keys (again, harmlessly, if already revoked); undefined when it has no such key. */
  async revokeKey(accountId: string, keyId: string): Promise<KeyView | undefined> {
    const row = await this.repo.revokeKey(this.repo.db, accountId, keyId);
    return row && keyView(row);
  }

  /**
   * A new key in place of an active one, which is revoked in the same transaction; undefined when there is no such active key.
   * Like creating a key, only while the subscription is active.
   */
  async rotateKey(caller: Caller, keyId: string): Promise<{ key: KeyView; apiKey: string; revoked: KeyView } | undefined> {
    requireActive(caller, KEYS_NEED_ACTIVE);
    const apiKey = generateApiKey();
    const r = await this.repo.rotateKey(caller.accountId, keyId, hashApiKey(apiKey), displayPrefix(apiKey));
    return r && { key: keyView(r.created), apiKey, revoked: keyView(r.revoked) };
  }
}
