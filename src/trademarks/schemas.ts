import { z } from '../schema/zod.ts';

const isoDate = z.string().openapi({ format: 'date', example: '2019-04-12' });
const isoTime = z.string().openapi({ format: 'date-time', example: '2024-03-01T10:00:00Z' });

export const TrademarkSummary = z
  .object({
    application_number: z.string().openapi({ example: '4123456' }),
    word_mark: z.string().openapi({ description: 'Empty for a device mark without words', example: 'SUNRISE FOODS' }),
    class_number: z.number().int().min(1).max(45),
    status: z.string().openapi({ example: 'Registered' }),
    application_date: isoDate,
    expire_at: z.string().nullable().openapi({ description: 'DD/MM/YYYY; null when not registered', example: '12/04/2029' }),
    proprietor_name: z.string(),
    owner_id: z.string().nullable().openapi({
      description: "The owner entity the proprietor's name belongs to (GET /v1/owners/{owner_id}/); null until the name is grouped",
      example: 'own_3f2a9c0d1e4b5a67',
    }),
    state: z.string().nullable().openapi({ example: 'MAHARASHTRA' }),
    tm_type: z.string().openapi({ example: 'WORD' }),
    filing_mode: z.string().nullable().openapi({ example: 'E-FILING' }),
    alert: z.string(),
    slug: z.string().openapi({ example: 'sunrise-foods-4123456' }),
  })
  .openapi('TrademarkSummary');

export const StatusHistoryEntry = z
  .object({ id: z.number().int(), old_status: z.string().nullable(), new_status: z.string(), changed_at: isoTime })
  .openapi('StatusHistoryEntry');

export const AlertEntry = z
  .object({ id: z.number().int(), old_alert: z.string().nullable(), new_alert: z.string(), changed_at: isoTime })
  .openapi('AlertChange');

export const Proprietor = z
  .object({
    id: z.number().int(),
    name: z.string(),
    entity_type: z.string().nullable(),
    address: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string(),
    trading_as: z.string().nullable(),
  })
  .openapi('Proprietor');

export const Attorney = z
  .object({
    id: z.number().int(),
    name: z.string(),
    agent_code: z.string().nullable(),
    address: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
  })
  .openapi('Attorney');

export const Opposition = z
  .object({
    id: z.number().int(),
    opposition_number: z.string(),
    opponent: z.object({ name: z.string(), address: z.string().nullable() }),
    opposition_date: isoDate,
    status: z.string(),
    decision: z.string().nullable(),
    decision_date: isoDate.nullable(),
  })
  .openapi('Opposition');

export const Hearing = z
  .object({
    id: z.number().int(),
    hearing_date: isoDate,
    hearing_type: z.string(),
    virtual_room_link: z.string().nullable(),
    time_slot: z.string().nullable(),
    status: z.string(),
  })
  .openapi('Hearing');

export const DocumentMeta = z
  .object({
    id: z.number().int(),
    name: z.string(),
    document_type: z.string(),
    upload_date: isoDate,
    opposition_id: z.number().int().nullable(),
  })
  .openapi('DocumentMeta', {
    description: 'Document metadata only; download URLs come with the documents endpoints (not available yet)',
  });

export const ExamReport = z
  .object({
    id: z.number().int(),
    report_date: isoDate,
    objection_reasons: z.array(z.string()),
    reply_due_date: isoDate.nullable(),
    cited_application_numbers: z.array(z.string()),
  })
  .openapi('ExamReport');

export const CitedMark = z
  .object({
    cited_application_number: z.string(),
    exam_report_id: z.number().int(),
    report_date: isoDate,
    word_mark: z.string().nullable().openapi({ description: 'Null when the cited mark is not in the register' }),
    class_number: z.number().int().nullable(),
    status: z.string().nullable(),
    proprietor_name: z.string().nullable(),
  })
  .openapi('CitedMark');

export const SignedLink = z
  .object({ url: z.string(), expires_in: z.string().openapi({ example: '30 minutes' }), expires_at: isoTime })
  .openapi('SignedLink');

export const JournalRef = z.object({ id: z.number().int(), journal_number: z.string(), publication_date: isoDate }).openapi('JournalRef');

export const TrademarkDetail = TrademarkSummary.extend({
  goods_services: z.string().nullable(),
  used_since: z.string().nullable(),
  registry_office: z.string().nullable(),
  vienna_codes: z.array(z.string()).openapi({
    description:
      "Vienna codes of the figurative elements of the mark's logo, as the register prints them (03.01.01): the values of " +
      'the logo search filter vienna_codes (docs/logos.md)',
  }),
  classes: z.array(z.number().int().min(1).max(45)).openapi({
    description:
      'Every class the mark covers: [class_number] for one class; for a multi-class application (s.18(2), printed in the ' +
      'journal under class 99) all of them, class_number being the lowest (docs/journal.md)',
    example: [3, 5],
  }),
  international_registration: z.string().nullable().openapi({ description: 'The international registration of a Madrid designation' }),
  priority: z
    .object({ date: isoDate, application_number: z.string().nullable(), country: z.string().nullable() })
    .nullable()
    .openapi({ description: 'The priority claimed (s.154): the earlier application abroad, as the journal prints it' }),
  associated_with: z.array(z.string()).openapi({ description: 'Application numbers the mark is to be associated with (s.16)' }),
  conditions: z.array(z.string()).openapi({
    description: 'Conditions, limitations and disclaimers the mark was advertised with (s.17), one per paragraph',
  }),
  // A union, not .nullable(): zod-to-openapi would otherwise mark the shared component itself nullable.
  journal: z.union([JournalRef, z.null()]).openapi({ description: 'The journal that advertised the mark' }),
  logo: z.union([SignedLink, z.null()]).openapi({ description: 'The mark image as a 30-minute signed URL, when there is one' }),
  status_history: z.array(StatusHistoryEntry).optional(),
  proprietors: z.array(Proprietor).optional(),
  attorneys: z.array(Attorney).optional(),
  oppositions: z.array(Opposition).optional(),
  hearings: z.array(Hearing).optional(),
  documents: z.array(DocumentMeta).optional(),
  exam_reports: z.array(ExamReport).optional(),
  omitted_categories: z.array(z.string()).openapi({
    description:
      'Categories of linked data left out because the plan does not include them: whole tables, ' +
      'and opposition filings among the documents (cat_opp_docs); named whether or not the mark has any',
  }),
}).openapi('TrademarkDetail');

const envelope = <K extends string, T extends z.ZodType>(key: K, item: T, name: string) =>
  z
    .object({ application_number: z.string(), count: z.number().int() })
    .extend({ [key]: z.array(item) } as Record<K, z.ZodArray<T>>)
    .openapi(name);

export const StatusHistoryResponse = envelope('history', StatusHistoryEntry, 'StatusHistoryResponse');
export const AlertsResponse = envelope('alerts', AlertEntry, 'AlertsResponse');
export const CitedResponse = envelope('cited', CitedMark, 'CitedResponse');
export const ProprietorResponse = envelope('proprietors', Proprietor, 'ProprietorResponse');
export const AttorneyResponse = envelope('attorneys', Attorney, 'AttorneyResponse');
export const OppositionsResponse = envelope('oppositions', Opposition, 'OppositionsResponse');
export const HearingsResponse = envelope('hearings', Hearing, 'HearingsResponse');
export const ExamReportResponse = envelope('reports', ExamReport, 'ExamReportResponse');
