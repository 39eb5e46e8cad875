import type { Db } from '../db/knex.ts';

// SQL of a clearance beyond the analysis (src/threats/repository.ts): where the marks listed keep their logos.

export class ClearanceRepository {
  constructor(private readonly db: Db) {}

  /** The object-store key of each given mark's logo, for those that have one. */
  async logoKeys(appNos: string[]): Promise<Map<string, string>> {
    if (!appNos.length) return new Map();
    const rows: { application_number: string; object_key: string }[] = await this.db('logos')
      .select('application_number', 'object_key')
      .whereIn('application_number', appNos);
    return new Map(rows.map((r) => [r.application_number, r.object_key]));
  }
}
