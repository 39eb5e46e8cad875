import { finished } from 'node:stream/promises';
import type { Response } from 'express';
import { EXPORT_MAX_ROWS, type GeneratedFile } from '../../documents/reportService.ts';
import type { Services } from '../../root.ts';
import { appNoParam, intParam } from '../../schema/params.ts';
import { z } from '../../schema/zod.ts';
import { SearchQuery } from '../../search/schemas.ts';
import { contentDisposition } from '../../storage/objectStore.ts';
import type { Api } from '../endpoint.ts';
import { viewerOf } from '../viewer.ts';

const tags = ['Reports'];

const ExportQuery = SearchQuery.pick({ word_mark: true, match_type: true, class_number: true, classes: true, status: true }).extend({
  max_rows: intParam('max_rows', 1, EXPORT_MAX_ROWS, { type: `max_rows must be an integer from 1 to ${EXPORT_MAX_ROWS}` })
    .default(EXPORT_MAX_ROWS)
    .openapi({ description: `Rows to export, in result order (default and maximum ${EXPORT_MAX_ROWS.toLocaleString('en')})` }),
});

/** Streams a generated file as the response body; resolves when the client has it all. */
async function send(res: Response, file: GeneratedFile): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', contentDisposition(file.filename, 'attachment'));
  res.setHeader('Cache-Control', 'no-store');
  // A client that goes away mid-file fails the request (and its credit is given back).
  await Promise.all([file.write(res), finished(res)]);
}

const ClearanceReportParams = z.object({
  // Named as batch clearance names it; a single clearance's clearance_id is taken here too.
  job_id: z.string().max(100).openapi({
    format: 'uuid',
    description: "A batch clearance's job_id (POST /v1/clearance/batch/) or a single clearance's clearance_id (POST /v1/clearance/)",
  }),
});

const CLEARANCE_REPORT =
  'Of a single clearance (its clearance_id, kept 90 days) or a batch clearance (its job_id, once it has ended: 409 ' +
  'job_not_finished while it runs). An id of another account, an unknown or an expired one is 404. The clearance feature, as clearance. ' +
  'docs/clearance.md, Reports.';

export function reportRoutes(api: Api, { reports }: Pick<Services, 'reports'>): void {
  api.add({
    method: 'get',
    path: '/v1/reports/trademarks/:app_no/pdf/',
    operationId: 'trademarkPdfReport',
    tags,
    security: 'apiKey',
    summary: 'A PDF report of one trademark: core data, logo and the linked tables the plan opens; one pdf_reports credit',
    description: 'Sections whose category is not on the plan say so instead of listing rows. 429 quota_exceeded when pdf_reports is spent.',
    contentType: 'application/pdf',
    cost: { resource: 'pdf_reports', deferred: true },
    params: z.object({ app_no: appNoParam }),
    response: z.any(),
    errors: [404],
    handler: async ({ params, req, res, charge }) => send(res, await reports.trademarkPdf(params.app_no, viewerOf(req), charge)),
  });

  api.add({
    method: 'get',
    path: '/v1/reports/search/xlsx/',
    operationId: 'searchExcelExport',
    tags,
    security: 'apiKey',
    summary: 'A search exported as an xlsx workbook (up to 10,000 rows); one excel_reports credit',
    description:
      'The same search as GET /v1/trademarks/ (word_mark, match_type, class_number, classes, status). Sheets: Results ' +
      '(every result field, in result order), Groups (counts over all matches) and Search (the parameters, the match count and the ' +
      'rows written). Streamed as it is made. 429 quota_exceeded when excel_reports is spent.',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    cost: { resource: 'excel_reports', deferred: true },
    query: ExportQuery,
    response: z.any(),
    handler: async ({ query, res, charge }) => send(res, await reports.searchWorkbook(query, charge)),
  });
}

export function clearanceReportRoutes(api: Api, { clearanceReports }: Pick<Services, 'clearanceReports'>): void {
  api.add({
    method: 'get',
    path: '/v1/reports/clearance/:job_id/pdf/',
    operationId: 'clearancePdfReport',
    tags,
    security: 'apiKey',
    summary:
      'A clearance or batch clearance as a PDF: each proposal, its conflicts with risk badges, reasons and logos; one pdf_reports credit',
    description:
      `${CLEARANCE_REPORT} Each proposal (words, classes, logo) then each conflict it listed: a risk badge (colour and words), ` +
      'the reasons, status, owner, application date and scores, and the proposal’s and the mark’s logo thumbnails side by side. ' +
      'At most 2,000 conflicts are drawn (the xlsx has them all). 429 quota_exceeded when pdf_reports is spent.',
    feature: 'clearance',
    contentType: 'application/pdf',
    cost: { resource: 'pdf_reports', deferred: true },
    params: ClearanceReportParams,
    response: z.any(),
    errors: [404, 409],
    handler: async ({ params, caller, res, charge }) =>
      send(res, await clearanceReports.report(params.job_id, 'pdf', caller.accountId, charge)),
  });

  api.add({
    method: 'get',
    path: '/v1/reports/clearance/:job_id/xlsx/',
    operationId: 'clearanceExcelReport',
    tags,
    security: 'apiKey',
    summary: 'A clearance or batch clearance as an xlsx workbook: one row per conflict, with its proposal; one excel_reports credit',
    description:
      `${CLEARANCE_REPORT} Sheets: Conflicts (one row per conflict listed, its proposal's index, words and classes in the first ` +
      'columns; application_date a date; the risk_level cell coloured; a frozen header and an autofilter), Proposals (one row per ' +
      'proposal: its counts by risk level, or why it was not screened) and Report. 429 quota_exceeded when excel_reports is spent.',
    feature: 'clearance',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    cost: { resource: 'excel_reports', deferred: true },
    params: ClearanceReportParams,
    response: z.any(),
    errors: [404, 409],
    handler: async ({ params, caller, res, charge }) =>
      send(res, await clearanceReports.report(params.job_id, 'xlsx', caller.accountId, charge)),
  });
}
