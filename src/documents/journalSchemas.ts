import { listingFilters } from '../schema/markFilters.ts';
import { Page } from '../schema/params.ts';
import { z } from '../schema/zod.ts';
import { TrademarkSummary } from '../trademarks/schemas.ts';

export const Journal = z
  .object({
    id: z.number().int(),
    journal_number: z.string().openapi({ example: '2065' }),
    publication_date: z.string().openapi({ format: 'date' }),
    page_count: z.number().int().nullable(),
    has_pdf: z.boolean().openapi({
      description: 'Whether the journal PDF is stored (GET /v1/journals/{journal_id}/download/ links to it)',
    }),
  })
  .openapi('Journal');

export const JournalList = z
  .object({ count: z.number().int(), limit: z.number().int(), offset: z.number().int(), journals: z.array(Journal) })
  .openapi('JournalList');

export const JournalDetail = Journal.extend({
  trademark_count: z.number().int().openapi({ description: 'Marks advertised in this journal' }),
}).openapi('JournalDetail');

/** Paging and the filters of the fields a journal's marks carry (docs/documents.md). */
export const JournalTrademarksQuery = Page.extend(listingFilters('marks'));

export const JournalTrademarks = z
  .object({
    journal_id: z.number().int(),
    journal_number: z.string(),
    count: z.number().int().openapi({ description: "The journal's marks the filters keep (all of them without filters)" }),
    limit: z.number().int(),
    offset: z.number().int(),
    results: z.array(TrademarkSummary),
  })
  .openapi('JournalTrademarks');
