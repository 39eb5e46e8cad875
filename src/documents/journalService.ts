import { notFound } from '../errors.ts';
import type { JournalRepository } from './journalRepository.ts';

/** What the journal endpoints answer; the routes only translate HTTP to these calls. */
export class JournalService {
  constructor(private readonly repo: JournalRepository) {}

  async list(limit: number, offset: number) {
    const { count, rows } = await this.repo.list(limit, offset);
    return { count, limit, offset, journals: rows };
  }

  async get(id: number) {
    const journal = await this.repo.get(id);
    if (!journal) throw notFound(`journal ${id}`);
    return journal;
  }

  /** An unknown journal is a 404, not an empty page: the client has the wrong id. */
  async trademarks(id: number, limit: number, offset: number) {
    const j = await this.get(id);
    const results = await this.repo.trademarks(j.id, limit, offset);
    return { journal_id: j.id, journal_number: j.journal_number, count: j.trademark_count, limit, offset, results };
  }
}
