import type { Db } from './knex.ts';

/** Applies pending migrations; safe to call on every start. */
export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest()) as [number, string[]];
  return applied;
}

/** Creates the database named in `url` when it does not exist yet. */
export async function ensureDatabase(adminDb: Db, name: string): Promise<boolean> {
  const r = await adminDb.raw('select 1 from pg_database where datname = ?', [name]);
  if (r.rows.length) return false;
  await adminDb.raw(`create database ${quoteIdent(name)}`);
  return true;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
