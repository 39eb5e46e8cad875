import type { Services } from '../../root.ts';
import { appNoParam } from '../../schema/params.ts';
import { z } from '../../schema/zod.ts';
import { tableCategories } from '../../trademarks/gate.ts';
import * as S from '../../trademarks/schemas.ts';
import type { LinkedTable } from '../../trademarks/sql.ts';
import type { Api } from '../endpoint.ts';
import { viewerOf } from '../viewer.ts';

const params = z.object({ app_no: appNoParam });
const tags = ['Trademarks'];

interface Linked<T extends z.ZodType> {
  suffix: string;
  table: LinkedTable;
  /** The envelope's list key. */
  key: string;
  response: T;
  operationId: string;
  summary: string;
}

export function trademarkRoutes(api: Api, { trademarks: service }: Pick<Services, 'trademarks'>): void {
  api.add({
    method: 'get',
    path: '/v1/trademarks/:app_no/',
    operationId: 'getTrademark',
    tags,
    security: 'apiKey',
    summary: 'Trademark detail: core data plus the linked tables the plan enables',
    params,
    response: S.TrademarkDetail,
    errors: [404],
    handler: ({ params, req }) => service.detail(params.app_no, viewerOf(req)),
  });

  // The per-table endpoints differ only in path, envelope key and table. The table's category comes
  // from the gate (none for the contract's ungated cited marks): Api.add refuses the request before
  // validation and documents the 403.
  const linked = <T extends z.ZodType>(d: Linked<T>) => {
    const [category] = tableCategories(d.table);
    return api.add({
      method: 'get',
      path: `/v1/trademarks/:app_no/${d.suffix}/`,
      operationId: d.operationId,
      tags,
      security: 'apiKey',
      summary: category ? `${d.summary} (${category})` : d.summary,
      category,
      params,
      response: d.response,
      errors: [404],
      handler: async ({ params, req }) => {
        const r = await service.linked(params.app_no, d.table, viewerOf(req));
        return { application_number: r.application_number, count: r.count, [d.key]: r.rows } as z.infer<T>;
      },
    });
  };

  linked({
    suffix: 'status',
    table: 'status_history',
    key: 'history',
    response: S.StatusHistoryResponse,
    operationId: 'getStatusHistory',
    summary: 'Status history',
  });
  linked({
    suffix: 'alerts',
    table: 'alerts',
    key: 'alerts',
    response: S.AlertsResponse,
    operationId: 'getAlerts',
    summary: 'Alert change history',
  });
  linked({
    suffix: 'cited',
    table: 'cited',
    key: 'cited',
    response: S.CitedResponse,
    operationId: 'getCitedMarks',
    summary: 'Marks cited against the application in examination reports',
  });
  linked({
    suffix: 'proprietor',
    table: 'proprietors',
    key: 'proprietors',
    response: S.ProprietorResponse,
    operationId: 'getProprietor',
    summary: 'Proprietor detail; joint proprietors are listed in order',
  });
  linked({
    suffix: 'attorney',
    table: 'attorneys',
    key: 'attorneys',
    response: S.AttorneyResponse,
    operationId: 'getAttorney',
    summary: 'Attorney or agent detail',
  });
  linked({
    suffix: 'oppositions',
    table: 'oppositions',
    key: 'oppositions',
    response: S.OppositionsResponse,
    operationId: 'getOppositions',
    summary: 'Oppositions',
  });
  linked({
    suffix: 'hearings',
    table: 'hearings',
    key: 'hearings',
    response: S.HearingsResponse,
    operationId: 'getHearings',
    summary: 'Hearings',
  });
  linked({
    suffix: 'exam-report',
    table: 'exam_reports',
    key: 'reports',
    response: S.ExamReportResponse,
    operationId: 'getExamReports',
    summary: 'Examination reports with objection reasons and cited application numbers',
  });
}
