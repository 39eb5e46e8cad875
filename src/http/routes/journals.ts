import * as S from '../../documents/journalSchemas.ts';
import type { Services } from '../../root.ts';
import { idParam, Page } from '../../schema/params.ts';
import { z } from '../../schema/zod.ts';
import type { Api } from '../endpoint.ts';

const params = z.object({ journal_id: idParam('journal_id') });
const tags = ['Journals'];

export function journalRoutes(api: Api, { journals: service }: Pick<Services, 'journals'>): void {
  api.add({
    method: 'get',
    path: '/v1/journals/',
    operationId: 'listJournals',
    tags,
    security: 'apiKey',
    summary: 'Trade Marks Journals, newest first (cat_journal)',
    query: Page,
    response: S.JournalList,
    category: 'cat_journal',
    handler: ({ query }) => service.list(query.limit, query.offset),
  });

  api.add({
    method: 'get',
    path: '/v1/journals/:journal_id/',
    operationId: 'getJournal',
    tags,
    security: 'apiKey',
    summary: 'Journal metadata',
    params,
    response: S.JournalDetail,
    errors: [404],
    handler: ({ params }) => service.get(params.journal_id),
  });

  api.add({
    method: 'get',
    path: '/v1/journals/:journal_id/trademarks/',
    operationId: 'listJournalTrademarks',
    tags,
    security: 'apiKey',
    summary: 'Marks advertised in a journal, in ascending application number, optionally filtered (cat_journal)',
    description:
      'Filters (docs/documents.md), as word-mark search takes them: class_number and classes, status (labels or the groups ' +
      'live, pending, dead), tm_type, filing_mode, state, application_date_from and _to. A value the register does not have is a 400.',
    params,
    query: S.JournalTrademarksQuery,
    response: S.JournalTrademarks,
    errors: [404],
    category: 'cat_journal',
    handler: ({ params, query }) => service.trademarks(params.journal_id, query.limit, query.offset, query),
  });
}
