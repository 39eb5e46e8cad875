import { ClearanceResult } from '../clearance/schemas.ts';
import { ownerIdParam } from '../owners/schemas.ts';
import { intParam, textParam } from '../schema/params.ts';
import { z } from '../schema/zod.ts';
import { RISK_LEVELS } from '../threats/schemas.ts';

// Similarity watches (/user/v1/watches/, docs/watches.md): a proposed mark watched in its classes for
// new filings it could be confused with, each hit sent to a webhook as trademark.similar_filed.

const CLASSES_MESSAGE = 'classes must be an array of one or more Nice classes (1-45), such as [29, 30]';

const classes = z
  .array(z.number({ error: CLASSES_MESSAGE }).int(CLASSES_MESSAGE), { error: CLASSES_MESSAGE })
  .min(1, CLASSES_MESSAGE)
  .max(45, CLASSES_MESSAGE)
  .superRefine((list, ctx) => {
    const bad = list.find((c) => c < 1 || c > 45);
    if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `classes: ${bad} is not a Nice class (1-45)` });
  })
  .transform((list) => [...new Set(list)].sort((a, b) => a - b))
  .openapi({ description: 'The Nice classes watched (1-45): new filings in these and their cognate classes are analysed' });

const wordMark = textParam('word_mark', 500).openapi({ description: 'The words watched (at least one of word_mark and logo_url)' });

const logoUrl = z
  .string({ error: 'logo_url must be an http or https URL' })
  .trim()
  .max(2048, 'logo_url must be at most 2048 characters')
  .refine((s) => /^https?:\/\/[^\s]+$/i.test(s) && URL.canParse(s), { error: 'logo_url must be an http or https URL' })
  .openapi({ format: 'uri', description: 'The logo watched: fetched once, at creation, as logo search fetches image_url, and embedded' });

const minRisk = z
  .enum(RISK_LEVELS, { error: 'min_risk must be Low, Medium or High' })
  .openapi({ description: 'The lowest risk level that fires the watch (default Medium)' });

const webhookId = z
  .string({ error: 'webhook_id must be the id (UUID) of one of your webhooks' })
  .uuid('webhook_id must be the id (UUID) of one of your webhooks')
  .openapi({
    description:
      "The webhook that also receives trademark.similar_filed for this watch's hits: one of yours. Optional: hits are recorded " +
      'and listed (GET /user/v1/watches/hits/) with or without one',
  });

const excludeOwners = z
  .array(ownerIdParam, { error: 'exclude_owner_ids must be an array of owner ids' })
  .max(50, 'exclude_owner_ids must hold at most 50 owner ids')
  .transform((list) => [...new Set(list)])
  .openapi({ description: 'Owner entities whose filings this watch never reports (GET /v1/owners/)' });

const includeOwn = z.boolean({ error: 'include_own must be true or false' }).openapi({
  description: 'Whether filings by your own owner entity (PUT /user/v1/watches/owner/) are reported too; by default they are not',
});

export const CreateWatch = z
  .object({
    word_mark: wordMark.optional(),
    logo_url: logoUrl.optional(),
    owner_id: ownerIdParam.optional().openapi({
      description: 'An owner watch: every new filing by this owner entity (in classes, when given; in any class when not)',
    }),
    portfolio: z
      .literal(true, { error: 'portfolio must be true when given' })
      .optional()
      .openapi({
        description:
          'A portfolio watch: new filings confusingly similar to any live mark of your own owner entity (PUT /user/v1/watches/owner/), ' +
          'each mark in its own and cognate classes',
      }),
    classes: classes.optional().openapi({
      description:
        'The Nice classes watched (1-45): new filings in these and their cognate classes are analysed. Required for a watch of words ' +
        "or a logo; an owner watch without them follows every class; a portfolio watch takes its marks' own",
    }),
    min_risk: minRisk.default('Medium'),
    webhook_id: webhookId.optional(),
    exclude_owner_ids: excludeOwners.default([]),
    include_own: includeOwn.default(false),
  })
  .strict()
  .openapi('CreateWatchRequest');

export const UpdateWatch = z
  .object({
    word_mark: wordMark.nullable().optional().openapi({ description: 'New words (null: none, when the watch has a logo)' }),
    classes: classes.optional(),
    min_risk: minRisk.optional(),
    webhook_id: webhookId.nullable().optional().openapi({ description: 'Another of your webhooks, or null for none' }),
    exclude_owner_ids: excludeOwners.optional(),
    include_own: includeOwn.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'nothing to update: give word_mark, classes, min_risk or webhook_id' })
  .openapi('UpdateWatchRequest');

export type CreateWatchInput = z.infer<typeof CreateWatch>;
export type UpdateWatchInput = z.infer<typeof UpdateWatch>;

export const Watch = z
  .object({
    id: z.string(),
    kind: z.enum(['mark', 'owner', 'portfolio']).openapi({
      description: "mark: words and/or a logo; owner: an owner entity's filings; portfolio: your own live marks",
    }),
    word_mark: z.string().nullable(),
    owner_id: z.string().nullable().openapi({ description: 'The owner entity an owner watch follows' }),
    exclude_owner_ids: z.array(z.string()),
    include_own: z.boolean(),
    logo: z.object({ url: z.string(), model: z.string().openapi({ description: 'The image model its vector was made by' }) }).nullable(),
    classes: z.array(z.number().int()),
    min_risk: z.enum(RISK_LEVELS),
    webhook_id: z.string().nullable().openapi({ description: 'The webhook its hits are also sent to; null for none' }),
    webhook_active: z.boolean().nullable().openapi({
      description:
        'Whether that webhook is on (false: turned off, or disabled after failed deliveries: hits are recorded but not sent); null: none',
    }),
    hits: z.number().int().openapi({ description: 'Filings that have fired this watch so far (its recorded hits)' }),
    new_hits: z.number().int().openapi({ description: 'Of those, the hits still in state new' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Watch');

export const WatchList = z
  .object({
    count: z.number().int(),
    monitored_marks: z.object({ used: z.number().int(), limit: z.number().int().nullable() }).openapi({
      description: "Your webhooks' distinct monitored marks plus your watches, against the plan's limit (null: unlimited)",
    }),
    watches: z.array(Watch),
  })
  .openapi('WatchList');

export const WatchParams = z.object({ watch_id: z.string().uuid('watch_id must be a watch id (UUID)') });

export const DeletedWatch = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedWatch');

export const PreviewQuery = z.object({
  journal_id: intParam('journal_id', 1, 2_147_483_647, {
    type: 'journal_id must be a journal id (a positive integer)',
    min: 'journal_id must be a journal id (a positive integer)',
    max: 'journal_id must be a journal id (a positive integer)',
  }).openapi({ description: 'The journal (GET /v1/journals/) whose marks the watch is run against' }),
});

/** A mark that fires a watch: as a clearance lists it, without the logo link; a filing of a followed owner has no risk. */
export const WatchHit = ClearanceResult.omit({ logo_url: true })
  .extend({
    match: z.enum(['similar', 'owner']).openapi({
      description: 'similar: scored as a clearance scores it; owner: filed by the owner an owner watch follows (no likeness scored)',
    }),
    risk_level: ClearanceResult.shape.risk_level.nullable().openapi({ description: 'null for an owner hit' }),
    matching_criteria: ClearanceResult.shape.matching_criteria.nullable().openapi({ description: 'null for an owner hit' }),
  })
  .openapi('WatchHit');
export type HitResult = z.infer<typeof WatchHit>;

export const WatchPreview = z
  .object({
    watch_id: z.string(),
    journal: z.object({ id: z.number().int(), journal_number: z.string(), publication_date: z.string() }),
    marks: z.number().int().openapi({ description: "The journal's marks" }),
    count: z.number().int().openapi({ description: 'Marks that would have fired the watch' }),
    results: z.array(WatchHit).openapi({ description: 'Highest overall_similarity_score first' }),
  })
  .openapi('WatchPreview');

export const EstimateWatch = z
  .object({
    word_mark: textParam('word_mark', 500).openapi({ description: 'The words the watch would watch' }),
    classes,
    min_risk: minRisk.default('Medium'),
    journals: intParam('journals', 1, 12, { type: 'journals must be an integer from 1 to 12' })
      .default(4)
      .openapi({ description: 'How many of the latest journals to run it over (default 4, at most 12)' }),
  })
  .strict()
  .openapi('EstimateWatchRequest');

export type EstimateWatchInput = z.infer<typeof EstimateWatch>;

export const WatchEstimate = z
  .object({
    journals: z.array(
      z.object({
        id: z.number().int(),
        journal_number: z.string(),
        publication_date: z.string(),
        marks: z.number().int().openapi({ description: "The journal's marks in the watch's classes and their cognates" }),
        hits: z.number().int().openapi({ description: 'Of those, the marks that would have fired the watch' }),
      }),
    ),
    hits: z.number().int().openapi({ description: 'Hits over those journals' }),
    hits_per_journal: z.number().openapi({ description: 'Their mean per journal, to one decimal' }),
    examples: z.array(WatchHit).openapi({ description: 'Up to 10 of the hits, highest overall_similarity_score first' }),
  })
  .openapi('WatchEstimate');

export const AccountOwner = z
  .object({
    owner_id: z.string().nullable().openapi({ description: 'Your own owner entity (GET /v1/owners/); null: none set' }),
    name: z.string().nullable(),
  })
  .openapi('AccountOwner');

export const SetAccountOwner = z
  .object({
    owner_id: ownerIdParam.nullable().openapi({ description: 'Your own owner entity, or null for none' }),
  })
  .strict()
  .openapi('SetAccountOwnerRequest');

export const BackfillRequest = z
  .object({
    journals: intParam('journals', 1, 52, { type: 'journals must be an integer from 1 to 52' })
      .default(4)
      .openapi({ description: 'How many of the latest journals to run the watch over (default 4, at most 52: a year)' }),
  })
  .strict()
  .openapi('WatchBackfillRequest');

export const Backfill = z
  .object({
    id: z.string(),
    watch_id: z.string(),
    journals: z.number().int(),
    state: z.enum(['queued', 'running', 'done', 'failed']),
    journals_done: z.number().int(),
    marks: z.number().int().openapi({ description: "The journals' marks met so far" }),
    hits: z.number().int().openapi({ description: 'Hits recorded by this backfill (pairs already recorded are not counted)' }),
    error: z.string().nullable(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .openapi('WatchBackfill');

export const BackfillList = z.object({ count: z.number().int(), backfills: z.array(Backfill) }).openapi('WatchBackfillList');
