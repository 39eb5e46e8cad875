import type { Db } from './knex.ts';

type PgConnection = { query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }> };

/** knex's `?` placeholders as pg's `$n` (callers' SQL has no other `?`). */
export function toPositional(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * Runs a statement the request path runs on every call as a named prepared statement: PostgreSQL
 * plans it once per connection instead of on every request, which for these short queries costs
 * as much as running them. Names are capped at 63 bytes by PostgreSQL.
 */
export class Prepared {
  private readonly text: string;

  constructor(
    private readonly name: string,
    sql: string,
  ) {
    if (Buffer.byteLength(name) > 63) throw new Error(`prepared statement name too long: ${name}`);
    this.text = toPositional(sql);
  }

  async run<T>(db: Db, values: unknown[]): Promise<T[]> {
    const conn = (await db.client.acquireConnection()) as PgConnection;
    try {
      return (await conn.query({ name: this.name, text: this.text, values })).rows as T[];
    } finally {
      await db.client.releaseConnection(conn);
    }
  }
}
