import { randomBytes } from 'node:crypto';
import { CATEGORIES, type Category } from '../../src/accounts/access.ts';
import { AccountRepository } from '../../src/accounts/accountRepository.ts';
import { AccountService } from '../../src/accounts/accountService.ts';
import type { Resource } from '../../src/accounts/callerRepository.ts';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/accounts/keys.ts';
import type { Db } from '../../src/db/knex.ts';

export interface PlanSpec {
  categories?: readonly Category[];
  quotas?: Partial<Record<Resource, number>>;
  concurrency?: number;
  bulk_search_limit?: number;
  bulk_logo_limit?: number;
  webhook_enabled?: boolean;
  monitored_marks_limit?: number | null;
}

export interface TestAccount {
  accountId: string;
  email: string;
  password: string;
  key: string;
  planId: number;
}

let passwordHash: Promise<string> | undefined;
export const TEST_PASSWORD = 'correct horse battery';

/**
 * An account with one API key on a plan of its own (a custom plan row, as an admin would make),
 * by default with every category and generous quotas. argon2 runs once per process for all of them.
 */
export async function createAccount(db: Db, plan: PlanSpec = {}, status: 'trial' | 'active' | 'inactive' = 'active'): Promise<TestAccount> {
  passwordHash ??= AccountService.hashPassword(TEST_PASSWORD);
  const repo = new AccountRepository(db);
  const suffix = randomBytes(5).toString('hex');
  const email = `user-${suffix}@example.in`;
  const key = generateApiKey();
  const [{ id: planId }] = await db('plans')
    .insert({
      code: `custom-${suffix}`,
      name: `Custom ${suffix}`,
      custom: true,
      categories: [...(plan.categories ?? CATEGORIES)],
      quotas: JSON.stringify({
        api_calls: 1_000_000,
        doc_views: 1_000_000,
        logo_searches: 1_000_000,
        pdf_reports: 1_000,
        excel_reports: 1_000,
        clearances: 1_000_000,
        ...plan.quotas,
      }),
      concurrency: plan.concurrency ?? 10,
      bulk_search_limit: plan.bulk_search_limit ?? 100,
      bulk_logo_limit: plan.bulk_logo_limit ?? 100,
      webhook_enabled: plan.webhook_enabled ?? true,
      monitored_marks_limit: plan.monitored_marks_limit ?? null,
    })
    .returning('id');
  const accountId = await repo.transaction(async (trx) => {
    const id = await repo.insertAccount(trx, { email, passwordHash: await passwordHash!, firstName: 'Test', lastName: suffix });
    await repo.startSubscription(trx, id!, planId, status === 'inactive' ? 'active' : status, status === 'inactive' ? -1 : 30);
    if (status === 'inactive') await trx('subscriptions').where({ account_id: id }).update({ status: 'inactive' });
    await repo.insertKey(trx, id!, 'test', hashApiKey(key), displayPrefix(key));
    return id!;
  });
  return { accountId, email, password: TEST_PASSWORD, key, planId };
}
