import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { isoTimestamp } from '../db/sql.ts';
import { effectiveQuotas } from './callerRepository.ts';

export interface NewAccount {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  organisation?: string | null;
  phone?: string | null;
}

export interface KeyRow {
  id: string;
  name: string;
  display_prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface SubscriptionRow {
  plan_code: string;
  plan_name: string;
  quotas: Record<string, number>;
  status: 'trial' | 'active' | 'inactive';
  expires_at: string | null;
  active: boolean;
}

const KEY_COLUMNS = `id, name, display_prefix,
  ${isoTimestamp('created_at')} as created_at, ${isoTimestamp('last_used_at')} as last_used_at,
  ${isoTimestamp('revoked_at')} as revoked_at`;

/** Accounts, subscriptions and keys. Every key query names its account: keys are tenant-scoped. */
export class AccountRepository {
  constructor(readonly db: Db) {}

  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  /** The new account's id, or null when the email is taken. */
  async insertAccount(trx: Knex.Transaction, a: NewAccount): Promise<string | null> {
    const r = await trx.raw(
      `insert into accounts (email, password_hash, first_name, last_name, organisation, phone)
       values (?, ?, ?, ?, ?, ?) on conflict (email) do nothing returning id`,
      [a.email, a.passwordHash, a.firstName, a.lastName, a.organisation ?? null, a.phone ?? null],
    );
    return r.rows[0]?.id ?? null;
  }

  async planId(code: string, db: Knex = this.db): Promise<number | undefined> {
    const r = await db.raw('select id from plans where code = ?', [code]);
    return r.rows[0]?.id;
  }

  /** Starts (or replaces) the account's subscription; returns when it ends (null: open-ended). */
  async startSubscription(
    trx: Knex.Transaction,
    accountId: string,
    planId: number,
    status: 'trial' | 'active',
    days: number | null,
  ): Promise<Date | null> {
    const r = await trx.raw(
      `insert into subscriptions (account_id, plan_id, status, expires_at)
       values (?, ?, ?, case when ?::int is null then null else now() + make_interval(days => ?::int) end)
       on conflict (account_id) do update set plan_id = excluded.plan_id, status = excluded.status,
         expires_at = excluded.expires_at, updated_at = now()
       returning expires_at`,
      [accountId, planId, status, days, days],
    );
    return r.rows[0].expires_at;
  }

  async insertKey(db: Knex, accountId: string, name: string, hash: Buffer, prefix: string): Promise<KeyRow> {
    const r = await db.raw(
      `insert into api_keys (account_id, name, key_hash, display_prefix) values (?, ?, ?, ?) returning ${KEY_COLUMNS}`,
      [accountId, name, hash, prefix],
    );
    return r.rows[0];
  }

  async byEmail(
    email: string,
  ): Promise<{ id: string; password_hash: string; first_name: string; last_name: string; email: string } | undefined> {
    const r = await this.db.raw('select id, email, password_hash, first_name, last_name from accounts where email = ?', [email]);
    return r.rows[0];
  }

  async byId(accountId: string): Promise<{ id: string; first_name: string; last_name: string; email: string } | undefined> {
    const r = await this.db.raw('select id, email, first_name, last_name from accounts where id = ?', [accountId]);
    return r.rows[0];
  }

  async listKeys(accountId: string): Promise<KeyRow[]> {
    const r = await this.db.raw(`select ${KEY_COLUMNS} from api_keys where account_id = ? order by seq`, [accountId]);
    return r.rows;
  }

  /** Revokes one of the account's own keys; undefined when it has no such key. */
  async revokeKey(db: Knex, accountId: string, keyId: string): Promise<KeyRow | undefined> {
    const r = await db.raw(
      `update api_keys set revoked_at = coalesce(revoked_at, now()) where account_id = ? and id = ? returning ${KEY_COLUMNS}`,
      [accountId, keyId],
    );
    return r.rows[0];
  }

  async getKey(accountId: string, keyId: string): Promise<KeyRow | undefined> {
    const r = await this.db.raw(`select ${KEY_COLUMNS} from api_keys where account_id = ? and id = ?`, [accountId, keyId]);
    return r.rows[0];
  }

  /**
   * Replaces one of the account's active keys in one transaction: the old key is revoked and a new
   * one with the same name is stored. Undefined (nothing changed) when the account has no such
   * active key. The row lock of the update makes two parallel rotations of one key give one new key.
   */
  async rotateKey(
    accountId: string,
    keyId: string,
    hash: Buffer,
    prefix: string,
  ): Promise<{ revoked: KeyRow; created: KeyRow } | undefined> {
    return this.db.transaction(async (trx) => {
      const r = await trx.raw(
        `update api_keys set revoked_at = now() where account_id = ? and id = ? and revoked_at is null returning ${KEY_COLUMNS}`,
        [accountId, keyId],
      );
      const revoked: KeyRow | undefined = r.rows[0];
      if (!revoked) return undefined;
      const created = await this.insertKey(trx, accountId, revoked.name, hash, prefix);
      return { revoked, created };
    });
  }

  /** The account's plan and subscription, for the usage page. */
  async subscription(accountId: string): Promise<SubscriptionRow | undefined> {
    const r = await this.db.raw(
      `select p.code as plan_code, p.name as plan_name, ${effectiveQuotas('p', 's')} as quotas, s.status,
         ${isoTimestamp('s.expires_at')} as expires_at,
         (s.status in ('trial', 'active') and (s.expires_at is null or s.expires_at > now())) as active
       from subscriptions s join plans p on p.id = s.plan_id where s.account_id = ?`,
      [accountId],
    );
    return r.rows[0];
  }
}
