import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// DATE columns come back as 'YYYY-MM-DD' strings, not JS Dates shifted by the local zone.
pg.types.setTypeParser(1082, (v) => v);
// int8 (bigint) ids fit comfortably in a double for this registry's sizes.
pg.types.setTypeParser(20, (v) => Number(v));

export type Db = Knex;

/**
 * `acquireTimeoutMs`: how long a query may wait for a connection (all busy, or PostgreSQL away) before it
 * fails; an API process gives up within seconds and answers 503, a script may wait its turn.
 */
export function createDb(url: string, poolMax = 10, acquireTimeoutMs = 60_000): Db {
  return knexFactory({
    client: 'pg',
    // A server that takes the connection's SYN and never answers is given up on like one that refuses it.
    connection: { connectionString: url, connectionTimeoutMillis: Math.min(5000, acquireTimeoutMs) },
    acquireConnectionTimeout: acquireTimeoutMs,
    pool: { min: 0, max: poolMax },
    // knex prints a stack for every connection it fails to make; the query's caller gets the error and says
    // what it means (once per outage, or a 503 per request), so an outage is not a screenful per query.
    log: { warn: (m: string) => /^(Acquire connection error|Connection Error)/.test(m) || console.warn(m) },
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
