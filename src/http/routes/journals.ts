import { z } from '../zod.ts';
import type { Api } from '../endpoint.ts';
import { idParam, Page } from '../schemas.ts';
import { notFound } from '../../errors.ts';
import * as S from '../../documents/journalSchemas.ts';
import type { JournalRepository } from '../../documents/journalRepository.ts';

const params = z.object({ journal_id: idParam('journal_id') });
const tags = ['Journals'];

export function journalRoutes(api: Api, journals: JournalRepository): void {
  api.add({
    method: 'get', path: '/v1/journals/', operationId: 'listJournals', tags, security: 'apiKey',
    summary: 'Trade Marks Journals, newest first (cat_journal)', query: Page, response: S.JournalList,
    category: 'cat_journal',
    handler: async ({ query }) => {
      const { count, rows } = await journals.list(query.limit, query.offset);
      return { count, limit: query.limit, offset: query.offset, journals: rows };
    },
  });

  api.add({
    method: 'get', path: '/v1/journals/:journal_id/', operationId: 'getJournal', tags, security: 'apiKey',
    summary: 'Journal metadata', params, response: S.JournalDetail, errors: [404],
    handler: async ({ params }) => {
      const j = await journals.get(params.journal_id);
      if (!j) throw notFound(`journal ${params.journal_id}`);
      return j;
    },
  });

  api.add({
    method: 'get', path: '/v1/journals/:journal_id/trademarks/', operationId: 'listJournalTrademarks', tags, security: 'apiKey',
    summary: 'Marks advertised in a journal, by application number (cat_journal)',
    params, query: Page, response: S.JournalTrademarks, errors: [404],
    category: 'cat_journal',
    handler: async ({ params, query }) => {
      const j = await journals.get(params.journal_id);
      if (!j) throw notFound(`journal ${params.journal_id}`);
      const results = await journals.trademarks(j.id, query.limit, query.offset);
      return { journal_id: j.id, journal_number: j.journal_number, count: j.trademark_count, limit: query.limit, offset: query.offset, results };
    },
  });
}
