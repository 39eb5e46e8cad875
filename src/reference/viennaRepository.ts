import type { Db } from '../db/knex.ts';
import type { ViennaLevel } from './vienna.ts';

export interface ViennaRow {
  code: string;
  level: ViennaLevel;
  category: string;
  division: string | null;
  description: string | null;
}

/** LIKE treats % and _ as wildcards; a caller's text must match literally. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

// The vienna_codes reference table. Its codes are printed with two digits a part, so text order is
// the classification's order, every code before the codes below it.
export class ViennaRepository {
  constructor(private readonly db: Db) {}

  /** A page of the codes at or below `under` (all without it), of one level, whose description holds q. */
  async list(
    under: string | null,
    level: ViennaLevel | null,
    q: string,
    limit: number,
    offset: number,
  ): Promise<{ count: number; rows: ViennaRow[] }> {
    const where: string[] = [];
    const binds: (string | number)[] = [];
    if (under !== null) {
      where.push('(v.code = ? or v.code like ?)');
      binds.push(under, `${under}.%`);
    }
    if (level !== null) {
      where.push('v.level = ?');
      binds.push(level);
    }
    if (q) {
      where.push('v.description ilike ?');
      binds.push(`%${escapeLike(q)}%`);
    }
    const cond = where.length ? where.join(' and ') : 'true';
    const rows = await this.db.raw(
      `select v.code, v.level, v.category, v.division, v.description from vienna_codes v where ${cond} order by v.code limit ? offset ?`,
      [...binds, limit, offset],
    );
    const total = await this.db.raw(`select count(*)::int as n from vienna_codes v where ${cond}`, binds);
    return { count: total.rows[0].n, rows: rows.rows };
  }
}
