import * as S from '../../documents/documentSchemas.ts';
import type { Services } from '../../root.ts';
import { appNoParam, idParam, intParam } from '../../schema/params.ts';
import { z } from '../../schema/zod.ts';
import type { Api } from '../endpoint.ts';
import { viewerOf } from '../viewer.ts';

// Document ids are the registry's own (bigint); larger than a journal id may be.
const docParams = z.object({ doc_id: intParam('doc_id', 1, Number.MAX_SAFE_INTEGER, { type: 'doc_id must be a positive integer' }) });
const markParams = z.object({ app_no: appNoParam });
const journalParams = z.object({ journal_id: idParam('journal_id') });
const perLink = { resource: 'doc_views' as const, deferred: true };
const SESSION_EXPIRED = 'the session has expired: your plan is no longer active; reopen the document once the plan is active again';
const LINK_NOTE =
  'Each link handed out costs one doc_views credit (a listing of N documents costs N; an empty listing one api_calls); ' +
  'when fewer remain than the request needs it is refused whole with 429. A link works for 30 minutes, and only while the plan is active.';
const INACTIVE_NOTE = 'With an inactive plan: 403 subscription_inactive saying the session expired and the document must be reopened.';

/** A mark's documents and journal downloads, each link charged as it is handed out. */
export function documentRoutes(api: Api, { documents: service }: Pick<Services, 'documents'>): void {
  api.add({
    method: 'get',
    path: '/v1/trademarks/:app_no/documents/',
    operationId: 'listDocuments',
    tags: ['Documents'],
    security: 'apiKey',
    summary: "A mark's documents with 30-minute links (cat_documents); opposition filings are under opp-docs",
    description: LINK_NOTE,
    category: 'cat_documents',
    cost: perLink,
    params: markParams,
    response: S.DocumentList,
    errors: [404],
    handler: ({ params, req, charge }) => service.documents(params.app_no, viewerOf(req), charge),
  });

  api.add({
    method: 'get',
    path: '/v1/trademarks/:app_no/opp-docs/',
    operationId: 'listOppositionDocuments',
    tags: ['Documents'],
    security: 'apiKey',
    summary: "Documents filed in the mark's oppositions, with 30-minute links (cat_opp_docs)",
    description: LINK_NOTE,
    category: 'cat_opp_docs',
    cost: perLink,
    params: markParams,
    response: S.OppositionDocumentList,
    errors: [404],
    handler: ({ params, req, charge }) => service.oppositionDocuments(params.app_no, viewerOf(req), charge),
  });

  api.add({
    method: 'get',
    path: '/v1/documents/:doc_id/url/',
    operationId: 'getDocumentUrl',
    tags: ['Documents'],
    security: 'apiKey',
    summary: 'A fresh 30-minute link to one document (cat_documents, or cat_opp_docs for an opposition filing)',
    description: `${LINK_NOTE} ${INACTIVE_NOTE}`,
    cost: perLink,
    inactiveMessage: SESSION_EXPIRED,
    params: docParams,
    response: S.DocumentUrl,
    errors: [403, 404],
    handler: ({ params, req, charge }) => service.url(params.doc_id, viewerOf(req), charge),
  });

  api.add({
    method: 'get',
    path: '/v1/journals/:journal_id/download/',
    operationId: 'downloadJournal',
    tags: ['Journals'],
    security: 'apiKey',
    summary: 'A 30-minute link to the journal PDF (plan must be active)',
    description: `${LINK_NOTE} 404 when the journal is unknown or has no PDF.`,
    cost: perLink,
    params: journalParams,
    response: S.JournalDownload,
    errors: [404],
    handler: ({ params, req, charge }) => service.journal(params.journal_id, viewerOf(req), charge),
  });
}
