import type { Services } from '../../root.ts';
import { appNoParam } from '../../schema/params.ts';
import { z } from '../../schema/zod.ts';
import * as S from '../../threats/schemas.ts';
import type { Api } from '../endpoint.ts';

export function threatRoutes(api: Api, { threats }: Pick<Services, 'threats'>): void {
  api.add({
    method: 'get',
    path: '/v1/trademarks/:app_no/threats/',
    operationId: 'getThreats',
    tags: ['Trademarks'],
    security: 'apiKey',
    summary: 'Marks that could be confused with this one: word, sound, logo and logo text, with calibrated risk levels (cat_threats)',
    description:
      'Candidates come from the search index (spelling variants, sound-alikes after Indian romanisation, shared distinctive ' +
      'words, prefix and suffix, joined and split forms), from the nearest logo vectors and from the words read in logos. The mark ' +
      "itself and its proprietor's other marks are left out. Scores, the class table and the thresholds: docs/threats.md.",
    category: 'cat_threats',
    params: z.object({ app_no: appNoParam }),
    query: S.ThreatsQuery,
    response: S.ThreatsResponse,
    errors: [404],
    handler: ({ params, query }) => threats.threats(params.app_no, query),
  });
}
