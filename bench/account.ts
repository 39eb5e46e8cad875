// Accounts with a key each for benchmarks: every category, quotas no benchmark can spend.
import { createDb } from '../src/db/knex.ts';
import { createAccount } from '../test/helpers/accounts.ts';

export async function createBenchAccounts(url: string, n: number): Promise<string[]> {
  const db = createDb(url, 1);
  try {
    const keys: string[] = [];
    for (let i = 0; i < n; i++) keys.push((await createAccount(db, { quotas: { api_calls: 1_000_000_000 } })).key);
    return keys;
  } finally {
    await db.destroy();
  }
}
