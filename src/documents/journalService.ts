import { notFound } from '../errors.ts';
import { type FacetValues, type MarkFilterParams, resolveMarkFilter } from '../trademarks/markFilter.ts';
import type { JournalRepository } from './journalRepository.ts';

/** What the journal endpoints answer; the routes only translate HTTP to these calls. */
export class JournalService {
  constructor(
    private readonly repo: JournalRepository,
    private readonly values: FacetValues,
  ) {}

  async list(limit: number, offset: number) {
    const { count, rows } = await this.repo.list(limit, offset);
    return { count, limit, offset, journals: rows };
  }

  async get(id: number) {
    const journal = await this.repo.get(id);
    if (!journal) throw notFound(`journal ${id}`);
    return journal;
  }

  /**
   * An unknown journal is a 404, not an empty page: the client has the wrong id. `count` is of the
   * marks the filters keep (all the journal's without filters).
   */
  async trademarks(id: number, limit: number, offset: number, filters: MarkFilterParams = {}) {
    const filter = await resolveMarkFilter(filters, this.values, 'query');
    const j = await this.get(id);
    const [results, count] = await Promise.all([
      this.repo.trademarks(j.id, limit, offset, filter),
      filter ? this.repo.countTrademarks(j.id, filter) : j.trademark_count,
    ]);
    return { journal_id: j.id, journal_number: j.journal_number, count, limit, offset, results };
  }
}
