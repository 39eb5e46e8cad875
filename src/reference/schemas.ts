import { classNumber, classParam, enumParam, limitParam, offsetParam, textParam } from '../schema/params.ts';
import { z } from '../schema/zod.ts';

// ---- request parts ----

const Q_MAX = 200;

/** An optional text filter; empty means "no filter", so a blank search box lists everything. */
const optionalQ = (description: string) => textParam('q', Q_MAX).optional().openapi({ description });

export const ITEM_TYPES = ['nice', 'tm', 'both'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

const itemType = enumParam(ITEM_TYPES, 'type must be one of nice, tm, both')
  .default('both')
  .openapi({
    description:
      '`nice`: WIPO Nice items (`item_a`); `tm`: Indian classification items (`item_b`; none are available yet, ' +
      'so this returns no items); `both` (default): every item',
  });

export const INSTRUMENTS = ['affidavit', 'power_of_attorney'] as const;

export const WellKnownQuery = z.object({
  q: optionalQ('Case-insensitive match on mark or proprietor: substring, or similar spelling (trigram)'),
  limit: limitParam(50, 100),
  offset: offsetParam,
});

export const ProhibitedQuery = z.object({
  q: optionalQ(
    'Case-insensitive substring of subject, description or a match term; also matches when a match term ' +
      'appears as whole words inside q, so a candidate mark such as "UNO FOODS" finds the United Nations entry',
  ),
  limit: limitParam(50, 100),
  offset: offsetParam,
});

export const InnQuery = z.object({
  q: optionalQ('Matched against the English INN: exact, then prefix, then substring, then similar spelling (trigram)'),
  limit: limitParam(50, 100),
  offset: offsetParam,
});

export const StampDutyQuery = z.object({
  state: textParam('state', 100).optional().openapi({
    description: 'State or union territory: name (any case), ISO 3166-2 code (IN-MH) or short code (MH)',
    example: 'Maharashtra',
  }),
  instrument: enumParam(INSTRUMENTS, 'instrument must be one of affidavit, power_of_attorney').optional(),
});

export const VIENNA_LEVELS = ['category', 'division', 'section'] as const;

export const ViennaQuery = z.object({
  code: textParam('code', 20)
    .min(1, 'code must not be empty')
    .optional()
    .openapi({
      description:
        'Only this Vienna code and the codes below it (03.01: the division and its sections). Written as the register prints ' +
        'it (03.01.01), or 3.1.1 or 030101; an unknown code is a 400',
      example: '03.01',
    }),
  level: enumParam(VIENNA_LEVELS, 'level must be one of category, division, section').optional(),
  q: optionalQ('Case-insensitive substring of the description'),
  limit: limitParam(100, 1000),
  offset: offsetParam,
});

export const ClassParams = z.object({ class_number: classNumber.openapi({ description: 'Nice class, 1-45', example: 25 }) });

export const ClassItemsQuery = z.object({ type: itemType, limit: limitParam(50, 200), offset: offsetParam });

export const ClassSearchQuery = z.object({
  q: textParam('q', Q_MAX).min(1, 'q must not be empty').openapi({
    description: 'Keywords; whole words are matched by English full-text search, partial words by trigram similarity',
    example: 'shirts',
  }),
  type: itemType,
  class: classParam('class').optional().openapi({ description: 'Restrict to one Nice class (1-45)' }),
  limit: limitParam(20, 100),
  offset: offsetParam,
});

// ---- responses ----

const coverage = z.string().openapi({ description: 'How complete this data set is; read it before treating a miss as a clearance' });
const pageFields = { count: z.number().int().openapi({ description: 'Total matches' }), limit: z.number().int(), offset: z.number().int() };

export const WellKnownMark = z
  .object({
    id: z.number().int(),
    mark: z.string().openapi({ example: "7 O'CLOCK" }),
    proprietor: z.string().nullable(),
    source_kind: z.string().openapi({ description: 'registry_list, journal_notice, court_decision or article' }),
    date_or_journal: z.string().nullable().openapi({ description: 'Determining authority, journal or case, and date' }),
    source_url: z.string().nullable(),
    confidence: z
      .string()
      .openapi({ description: 'high (official list row), medium (independent reports agree) or low (one secondary source)' }),
  })
  .openapi('WellKnownMark');

export const WellKnownMarkList = z.object({ ...pageFields, results: z.array(WellKnownMark), coverage }).openapi('WellKnownMarkList');

export const ProhibitedMark = z
  .object({
    id: z.string().openapi({ example: 'EN-1' }),
    legal_basis: z.string(),
    kind: z.string().openapi({ description: 'emblem, name_and_emblem, name_and_portrait or statutory_ground' }),
    subject: z.string(),
    description: z.string().nullable(),
    match_terms: z.array(z.string()).openapi({ description: 'Words that suggest the entry; empty for statutory grounds' }),
    sources: z.array(z.string()),
    confidence: z.string(),
  })
  .openapi('ProhibitedMark');

export const ProhibitedMarkList = z.object({ ...pageFields, results: z.array(ProhibitedMark), coverage }).openapi('ProhibitedMarkList');

export const NonProprietaryName = z
  .object({
    eaeu_code: z.string().openapi({ example: '005325' }),
    inn_en: z.string().openapi({ example: 'paracetamol' }),
    inn_la: z.string().nullable().openapi({ example: 'paracetamolum' }),
    inn_ru: z.string().nullable(),
    match: z
      .enum(['exact', 'prefix', 'substring', 'similar'])
      .nullable()
      .openapi({ description: 'How the name matched q; null without q' }),
  })
  .openapi('NonProprietaryName');

export const InnStemMatch = z
  .object({
    stem: z.string().openapi({ example: '-mab' }),
    position: z.enum(['suffix', 'prefix', 'infix', 'anywhere', 'prefix_and_suffix']),
    meanings: z.array(z.string()).openapi({ description: 'The WHO list gives some stems several meanings' }),
  })
  .openapi('InnStemMatch');

export const NonProprietaryNameList = z
  .object({
    ...pageFields,
    results: z.array(NonProprietaryName),
    matching_stems: z.array(InnStemMatch).openapi({
      description:
        'WHO INN stems that q contains in their position (e.g. ends with -mab); relevant to Trade Marks Act s.13(b). ' +
        'Stems that may sit mid-word are reported only when at least 3 letters long',
    }),
    coverage,
  })
  .openapi('NonProprietaryNameList');

export const StampDutyRow = z
  .object({
    id: z.number().int(),
    instrument: z.enum(INSTRUMENTS),
    state: z.string(),
    iso_3166_2: z.string().nullable().openapi({ example: 'IN-MH' }),
    amount_inr: z.number().nullable().openapi({ description: 'Null when the source gives no fixed amount (see basis and detail)' }),
    basis: z.string().nullable().openapi({ description: 'fixed, see schedule or n/a' }),
    detail: z.string().nullable(),
    source: z.string().nullable(),
    source_type: z.string().nullable(),
    confidence: z.string().nullable(),
  })
  .openapi('StampDuty');

export const StateRef = z.object({ iso_3166_2: z.string(), code: z.string(), name: z.string() }).openapi('StateRef');

export const StampDutyList = z
  .object({
    count: z.number().int(),
    // A union, not StateRef.nullable(): zod-to-openapi would mark the shared StateRef component itself nullable.
    state: z.union([StateRef, z.null()]).openapi({ description: 'The state the `state` filter resolved to; null without the filter' }),
    instrument: z.enum(INSTRUMENTS).nullable(),
    results: z.array(StampDutyRow),
    coverage,
  })
  .openapi('StampDutyList');

export const ViennaCode = z
  .object({
    code: z.string().openapi({ description: 'category.division.section, two digits a part', example: '03.01.01' }),
    level: z.enum(VIENNA_LEVELS),
    category: z.string().openapi({ example: '03' }),
    division: z
      .string()
      .nullable()
      .openapi({ description: "The division (a division's is itself); null for a category", example: '03.01' }),
    description: z.string().nullable().openapi({ example: 'Lions' }),
  })
  .openapi('ViennaCode');

export const ViennaCodeList = z.object({ ...pageFields, results: z.array(ViennaCode), coverage }).openapi('ViennaCodeList');

export const ClassSummary = z
  .object({
    class: z.number().int().min(1).max(45),
    item_count: z.number().int().openapi({ description: 'All items of the class' }),
    nice_item_count: z.number().int().openapi({ description: 'Items with a Nice item (`item_a`)' }),
    tm_item_count: z
      .number()
      .int()
      .openapi({ description: 'Items with an Indian classification item (`item_b`); 0 until a source exists' }),
    kind: z.enum(['goods', 'services']),
    heading: z.string(),
  })
  .openapi('ClassSummary');

export const ClassList = z
  .object({ count: z.number().int().openapi({ example: 45 }), classes: z.array(ClassSummary) })
  .openapi('ClassList');

export const PublicClassList = z
  .object({
    count: z.number().int().openapi({ example: 45 }),
    classes: z.array(ClassSummary.pick({ class: true, kind: true, heading: true }).openapi('PublicClass')),
  })
  .openapi('PublicClassList');

export const ClassItem = z
  .object({
    id: z.number().int(),
    item_a: z.string().nullable().openapi({ description: 'WIPO Nice item; alternative wordings are separated by " / "' }),
    item_b: z.string().nullable().openapi({ description: 'Indian classification item; null (no public source yet)' }),
    basic_number: z.string().nullable().openapi({ description: 'WIPO basic number', example: '250174' }),
  })
  .openapi('ClassItem');

export const ClassDetail = z
  .object({
    class: z.number().int().min(1).max(45),
    kind: z.enum(['goods', 'services']),
    heading: z.string(),
    explanatory_note: z.string().nullable(),
    includes: z.array(z.string()).openapi({ description: '"This class includes, in particular"' }),
    excludes: z.array(z.string()).openapi({ description: '"This class does not include, in particular"' }),
    type: z.enum(ITEM_TYPES),
    ...pageFields,
    items: z.array(ClassItem),
    coverage,
  })
  .openapi('ClassDetail');

export const ClassSearchResult = z
  .object({
    class: z.number().int().min(1).max(45),
    id: z.number().int(),
    item_a: z.string().nullable(),
    item_b: z.string().nullable(),
    basic_number: z.string().nullable(),
    rank: z
      .number()
      .openapi({ description: 'Higher is better: above 1 for full-text (whole word) matches, at most 1 for partial-word matches' }),
  })
  .openapi('ClassSearchResult');

export const ClassSearchResponse = z
  .object({
    query: z.string(),
    type: z.enum(ITEM_TYPES),
    class: z.number().int().nullable(),
    ...pageFields,
    results: z.array(ClassSearchResult),
    coverage,
  })
  .openapi('ClassSearchResponse');
