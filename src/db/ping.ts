import type { Knex } from 'knex';

/** A round trip to PostgreSQL through the pool: whether it answers now (readiness, src/health/readiness.ts). */
export function pingDatabase(db: Knex): Promise<boolean> {
  return db.raw('select 1').then(
    () => true,
    () => false,
  );
}
