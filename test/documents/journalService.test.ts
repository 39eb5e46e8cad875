import { expect } from 'chai';
import type { JournalRepository } from '../../src/documents/journalRepository.ts';
import { JournalService } from '../../src/documents/journalService.ts';
import { AppError } from '../../src/errors.ts';

// The not-found decisions live in the service, so they hold whatever route or job calls it.
describe('JournalService', () => {
  const journal = { id: 7, journal_number: '2101', publication_date: '2024-05-06', page_count: 12, has_pdf: true, trademark_count: 2 };
  let listed: number[] = [];
  const repo = {
    list: async () => ({ count: 1, rows: [journal] }),
    get: async (id: number) => (id === 7 ? journal : undefined),
    trademarks: async (id: number) => {
      listed.push(id);
      return [];
    },
  } as unknown as JournalRepository;
  // No filters are given here, so no facet's values are asked for.
  const service = new JournalService(repo, { values: async () => [] });

  it('answers a page with its paging', async () => {
    expect(await service.list(10, 0)).to.deep.equal({ count: 1, limit: 10, offset: 0, journals: [journal] });
  });

  it('refuses an unknown journal with not_found, and lists no marks for it', async () => {
    listed = [];
    for (const call of [() => service.get(9), () => service.trademarks(9, 10, 0)]) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(AppError);
      expect((err as AppError).code).to.equal('not_found');
      expect((err as AppError).message).to.equal('journal 9 not found');
    }
    expect(listed).to.deep.equal([]);
  });

  it("counts a journal's marks from the journal, not from the page", async () => {
    const res = await service.trademarks(7, 1, 5);
    expect(res).to.deep.equal({ journal_id: 7, journal_number: '2101', count: 2, limit: 1, offset: 5, results: [] });
  });
});
