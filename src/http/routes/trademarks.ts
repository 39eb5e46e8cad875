import { z } from '../zod.ts';
import type { Api } from '../endpoint.ts';
import { viewerOf } from '../../accounts/access.ts';
import { appNoParam } from '../schemas.ts';
import * as S from '../../trademarks/schemas.ts';
import type { TrademarkService } from '../../trademarks/service.ts';
import type { LinkedTable } from '../../trademarks/sql.ts';

const params = z.object({ app_no: appNoParam });
const tags = ['Trademarks'];

export function trademarkRoutes(api: Api, service: TrademarkService): void {
  api.add({
    method: 'get', path: '/v1/trademarks/:app_no/', operationId: 'getTrademark', tags, security: 'apiKey',
    summary: 'Trademark detail: core data plus the linked tables the plan enables',
    params, response: S.TrademarkDetail, errors: [404],
    handler: ({ params, req }) => service.detail(params.app_no, viewerOf(req)),
  });

  // The per-table endpoints differ only in path, envelope key and category.
  const linked = <T extends z.ZodType>(
    suffix: string, table: LinkedTable, key: string, response: T, operationId: string, summary: string, gated: boolean,
  ) =>
    api.add({
      method: 'get', path: `/v1/trademarks/:app_no/${suffix}/`, operationId, summary, tags, security: 'apiKey',
      params, response, errors: gated ? [403, 404] : [404],
      handler: async ({ params, req }) => {
        const r = await service.linked(params.app_no, table, viewerOf(req));
        return { application_number: r.application_number, count: r.count, [key]: r.rows } as z.infer<T>;
      },
    });

  linked('status', 'status_history', 'history', S.StatusHistoryResponse, 'getStatusHistory', 'Status history (cat_status_history)', true);
  linked('alerts', 'alerts', 'alerts', S.AlertsResponse, 'getAlerts', 'Alert change history (cat_alert_changes)', true);
  linked('cited', 'cited', 'cited', S.CitedResponse, 'getCitedMarks', 'Marks cited against the application in examination reports', false);
  linked('proprietor', 'proprietors', 'proprietors', S.ProprietorResponse, 'getProprietor', 'Proprietor detail; joint proprietors are listed in order (cat_proprietor)', true);
  linked('attorney', 'attorneys', 'attorneys', S.AttorneyResponse, 'getAttorney', 'Attorney or agent detail (cat_attorney)', true);
  linked('oppositions', 'oppositions', 'oppositions', S.OppositionsResponse, 'getOppositions', 'Oppositions (cat_oppositions)', true);
  linked('hearings', 'hearings', 'hearings', S.HearingsResponse, 'getHearings', 'Hearings (cat_hearings)', true);
  linked('exam-report', 'exam_reports', 'reports', S.ExamReportResponse, 'getExamReports', 'Examination reports with objection reasons and cited application numbers (cat_exam_reports)', true);
}
