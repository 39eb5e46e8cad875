import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// DATE columns come back as 'YYYY-MM-DD' strings, not JS Dates shifted by the local zone.
pg.types.setTypeParser(1082, (v) => v);
// int8 (bigint) ids fit comfortably in a double for this registry's sizes.
pg.types.setTypeParser(20, (v) => Number(v));

export type Db = Knex;

export function createDb(url: string, poolMax = 10): Db {
  return knexFactory({
    client: 'pg',
    connection: url,
    pool: { min: 0, max: poolMax },
    migrations: { directory: migrationsDir(), loadExtensions: ['.ts'], tableName: 'knex_migrations' },
  });
}

export function migrationsDir(): string {
  return new URL('../../migrations', import.meta.url).pathname;
}

/** Database name and admin (postgres database) URL derived from a connection URL. */
export function splitDbUrl(url: string): { name: string; adminUrl: string } {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
  u.pathname = '/postgres';
  return { name, adminUrl: u.toString() };
}
