import { listingFilters } from '../schema/markFilters.ts';
import { Page, textParam } from '../schema/params.ts';
import { z } from '../schema/zod.ts';
import { TrademarkSummary } from '../trademarks/schemas.ts';

// Owner entities (docs/owners.md): proprietor names of the register grouped into the owners they are.

export const ownerIdParam = z
  .string()
  .regex(/^own_[0-9a-f]{16}$/, 'owner_id must be an owner id: own_ and 16 hexadecimal digits')
  .openapi({ description: 'An owner entity id, as search results, detail and GET /v1/owners/ give it', example: 'own_3f2a9c0d1e4b5a67' });

export const OwnerParams = z.object({ owner_id: ownerIdParam });

export const OwnerSearchQuery = Page.extend({
  q: textParam('q', 200).openapi({
    description:
      "The beginning of the owner's name, read as names are grouped: M/S, titles, legal forms, punctuation and spacing folded away " +
      '("abc foods" finds M/S A.B.C. FOODS PVT. LTD.); an exact name comes first',
    example: 'SUNRISE FOODS',
  }),
});

export const OwnerTrademarksQuery = Page.extend(listingFilters('marks'));

const Count = (key: string, value: z.ZodType) => z.object({ [key]: value, marks: z.number().int() });

export const OwnerSummary = z
  .object({
    id: ownerIdParam,
    name: z.string().openapi({ description: 'The name most of its marks are filed under, when the entity was made' }),
    marks: z.number().int().openapi({ description: 'Marks of the register under any of its names' }),
    statuses: z
      .object({ live: z.number().int(), pending: z.number().int(), dead: z.number().int(), other: z.number().int() })
      .openapi({ description: 'Its marks by status group (live, pending, dead: docs/search.md); other for a status of no group' }),
    classes: z.array(Count('class_number', z.number().int())).openapi({ description: 'Its marks by class, most first' }),
    states: z.array(Count('state', z.string())).openapi({ description: "Its marks by the proprietor's state, most first" }),
  })
  .openapi('OwnerSummary');

export const OwnerList = z
  .object({
    query: z.string(),
    count: z.number().int().openapi({ description: 'Entities matching q' }),
    limit: z.number().int(),
    offset: z.number().int(),
    owners: z.array(OwnerSummary),
  })
  .openapi('OwnerList');

export const OwnerDetail = OwnerSummary.extend({
  names: z
    .array(z.object({ name: z.string(), marks: z.number().int() }))
    .openapi({ description: 'Every proprietor name of the register grouped into the entity, with its marks, most first' }),
}).openapi('OwnerDetail');

export const OwnerTrademarks = z
  .object({
    owner_id: ownerIdParam,
    name: z.string(),
    count: z.number().int().openapi({ description: "The owner's marks the filters keep" }),
    limit: z.number().int(),
    offset: z.number().int(),
    results: z.array(TrademarkSummary),
  })
  .openapi('OwnerTrademarks');
