import * as S from '../../owners/schemas.ts';
import type { Services } from '../../root.ts';
import type { Api } from '../endpoint.ts';

const tags = ['Owners'];

export function ownerRoutes(api: Api, { owners: service }: Pick<Services, 'owners'>): void {
  api.add({
    method: 'get',
    path: '/v1/owners/',
    operationId: 'searchOwners',
    tags,
    security: 'apiKey',
    summary: 'Owner entities by name, with their marks counted by status group, class and state',
    query: S.OwnerSearchQuery,
    response: S.OwnerList,
    handler: ({ query }) => service.search(query.q, query.limit, query.offset),
  });

  api.add({
    method: 'get',
    path: '/v1/owners/:owner_id/',
    operationId: 'getOwner',
    tags,
    security: 'apiKey',
    summary: 'An owner entity and every proprietor name grouped into it',
    params: S.OwnerParams,
    response: S.OwnerDetail,
    errors: [404],
    handler: ({ params }) => service.get(params.owner_id),
  });

  api.add({
    method: 'get',
    path: '/v1/owners/:owner_id/trademarks/',
    operationId: 'listOwnerTrademarks',
    tags,
    security: 'apiKey',
    summary: "An owner's marks, in ascending application number, optionally filtered",
    description:
      "Filters as a journal's marks take them (docs/documents.md): class_number and classes, status (labels or the groups live, " +
      'pending, dead), tm_type, filing_mode, state, application_date_from and _to. A value the register does not have is a 400.',
    params: S.OwnerParams,
    query: S.OwnerTrademarksQuery,
    response: S.OwnerTrademarks,
    errors: [404],
    handler: ({ params, query }) => service.trademarks(params.owner_id, query.limit, query.offset, query),
  });
}
