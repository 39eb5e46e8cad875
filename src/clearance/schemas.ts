import { ACCEPTED } from '../logos/imageInput.ts';
import { enumParam, limitParam, offsetParam, textParam } from '../schema/params.ts';
import { UploadField } from '../schema/upload.ts';
import { z } from '../schema/zod.ts';
import { GROUP_NAMES, isGroup, type StatusGroup } from '../search/statusGroups.ts';
import { RISK_LEVELS, Threat } from '../threats/schemas.ts';
import { SignedLink, TrademarkSummary } from '../trademarks/schemas.ts';
import { GROUND_KINDS } from './registrability.ts';

// POST /v1/clearance/: a proposed mark (words and/or a logo) screened in the classes asked for. One
// schema reads the JSON body and the multipart form alike: in a form every field is text, a list is
// one field separated by commas or the field repeated.

export const MAX_CLASSES = 45;
const DEFAULT_STATUS: StatusGroup[] = ['live', 'pending'];

const listOf = (v: string | (string | number)[]) =>
  (Array.isArray(v) ? v.map(String) : v.split(',')).map((x) => x.trim()).filter((x) => x !== '');

const CLASSES_MESSAGE = 'classes must be one or more Nice classes (1-45), each once: an array such as [29, 30] or "29,30"';

/** The classes screened: at least one, each 1-45 and given once (a class twice would be screened and charged twice). */
const classes = z
  .union([z.string().max(200), z.array(z.union([z.number(), z.string().max(10)])).max(MAX_CLASSES)], { error: CLASSES_MESSAGE })
  .transform((v, ctx) => {
    const parts = listOf(v);
    const numbers = parts.map((p) => (/^\d{1,2}$/.test(p) ? Number(p) : Number.NaN));
    const bad = parts.find((_, i) => !(numbers[i] >= 1 && numbers[i] <= 45));
    if (!parts.length || bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: bad === undefined ? CLASSES_MESSAGE : `classes: ${bad} is not a Nice class (1-45)` });
      return z.NEVER;
    }
    const twice = numbers.find((c, i) => numbers.indexOf(c) !== i);
    if (twice !== undefined) {
      ctx.addIssue({ code: 'custom', message: `classes: ${twice} is given twice; name each class once` });
      return z.NEVER;
    }
    return numbers;
  })
  .openapi({
    anyOf: [{ type: 'array', items: { type: 'integer', minimum: 1, maximum: 45 }, minItems: 1 }, { type: 'string' }],
    description:
      'The Nice classes to screen (1-45, each once): an array, or a string separated by commas (29,30). One clearances credit ' +
      'each. Required unless goods_services is given',
  });

const STATUS_MESSAGE = `status must be status groups (${GROUP_NAMES.join(', ')}): an array or a string separated by commas`;

/** Status groups only (src/search/statusGroups.ts): a clearance asks which kinds of mark stand in the way, not which labels. */
const status = z
  .union([z.string().max(100), z.array(z.string().max(20)).max(GROUP_NAMES.length)], { error: STATUS_MESSAGE })
  .transform((v, ctx) => {
    const parts = listOf(v);
    const bad = parts.find((g) => !isGroup(g));
    if (!parts.length || bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: bad === undefined ? STATUS_MESSAGE : `status: unknown group "${bad}"; ${STATUS_MESSAGE}` });
      return z.NEVER;
    }
    return [...new Set(parts.map((g) => g.toLowerCase() as StatusGroup))];
  })
  .default(DEFAULT_STATUS)
  .openapi({
    anyOf: [{ type: 'array', items: { type: 'string', enum: [...GROUP_NAMES] } }, { type: 'string' }],
    description:
      'Only marks of these status groups: live (registered), pending (applications on their way), dead (refused, abandoned, ' +
      'withdrawn, removed); an array or separated by commas. Default live,pending',
  });

const logoUrl = z
  .string({ error: 'logo_url must be an http or https URL' })
  .trim()
  .max(2048, 'logo_url must be at most 2048 characters')
  .refine((s) => /^https?:\/\/[^\s]+$/i.test(s) && URL.canParse(s), { error: 'logo_url must be an http or https URL' })
  .openapi({ format: 'uri', description: `The proposed logo: an http or https URL, on a public host, of a ${ACCEPTED} of at most 5 MB` });

const fields = {
  word_mark: textParam('word_mark', 500)
    .optional()
    .openapi({ description: 'The proposed words (empty or absent for a logo alone); at least one of word_mark and a logo' }),
  classes: classes.optional(),
  goods_services: textParam('goods_services', 2000)
    .optional()
    .openapi({
      description:
        'The goods or services the mark is for, in your words (phrases separated by commas or semicolons): findings in classes ' +
        'unrelated to yours that cover goods of the same words count as related; without classes, the classes the phrases fall ' +
        'in (by the Nice items) are screened, at most 6, and classes_from_goods says which',
    }),
  logo_url: logoUrl.optional(),
  risk_level: enumParam(RISK_LEVELS, 'risk_level must be Low, Medium or High')
    .optional()
    .openapi({ description: 'The lowest risk level listed (High: High only; Medium: High and Medium); default all' }),
  status,
  limit: limitParam(50, 100),
  offset: offsetParam,
};

export const ClearanceBody = z.object(fields).openapi('ClearanceRequest');

/** Another page of a kept clearance. */
export const ClearancePageQuery = z.object({
  limit: limitParam(50, 100).openapi({ description: 'Conflicts per page (default 50, maximum 100)' }),
  offset: offsetParam.openapi({ description: 'Conflicts to skip, from the riskiest (default 0)' }),
});
export const ClearanceParams = z.object({ clearance_id: z.string().openapi({ format: 'uuid' }) });

export const ClearanceForm = z
  .object({ ...fields, uploaded_file: UploadField(`The proposed logo: a ${ACCEPTED} of at most 5 MB`).optional() })
  .openapi('ClearanceForm');

export type ClearanceInput = z.infer<typeof ClearanceForm>;

const Ground = z
  .object({
    ground: z.enum(GROUND_KINDS),
    basis: z.string().openapi({ description: 'The provision the ground comes from', example: 'Trade Marks Act 1999, s.11(2)' }),
    matched: z.string().openapi({ description: 'The listed name or word it met, as the list spells it', example: 'PAYTM' }),
    reason: z.string().openapi({ description: 'What it means, in a sentence a client understands' }),
  })
  .openapi('RegistrabilityGround');

const Registrability = z
  .object({ verdict: z.enum(['no_objection_found', 'objection_likely']), grounds: z.array(Ground) })
  .openapi('Registrability');

const risks = z.object({ High: z.number().int(), Medium: z.number().int(), Low: z.number().int() });

export const ClearanceResult = z
  .object({
    application_number: TrademarkSummary.shape.application_number,
    word_mark: TrademarkSummary.shape.word_mark,
    class_number: TrademarkSummary.shape.class_number,
    status: TrademarkSummary.shape.status,
    application_date: TrademarkSummary.shape.application_date,
    proprietor_name: TrademarkSummary.shape.proprietor_name,
    goods_services: z.string().nullable().openapi({
      description: 'What the mark covers, as its goods and services read (an excerpt of about 160 characters; whole in the reports)',
    }),
    logo_url: z.union([SignedLink, z.null()]).openapi({ description: "The mark's logo as a 30-minute signed URL, when it has one" }),
    risk_level: Threat.shape.risk_level,
    overall_similarity_score: Threat.shape.overall_similarity_score,
    word_similarity_percentage: Threat.shape.word_similarity_percentage,
    phonetic_similarity_percentage: Threat.shape.phonetic_similarity_percentage,
    visual_similarity_percentage: Threat.shape.visual_similarity_percentage,
    matching_criteria: Threat.shape.matching_criteria,
    reasons: z.array(z.string()).openapi({
      description:
        'What the analysis found, in words: shared distinctive word SUNRISE; sounds alike: SHRI / SHREE; Hindi SURAJ = SUN; ' +
        'logo 0.91 alike; related class 30 ↔ 29 (docs/clearance.md lists them all)',
    }),
  })
  .openapi('ClearanceResult');

export const ClearanceResponse = z
  .object({
    query: z.object({
      word_mark: z.string().nullable().openapi({ description: 'The words screened, as given; null for a logo alone' }),
      logo: z
        .object({
          source: z.enum(['upload', 'url']),
          model: z.string().openapi({ description: 'The image model whose vectors the logo was compared by' }),
        })
        .nullable(),
      goods_services: z.string().nullable().openapi({ description: 'The goods and services given, as given; null when none' }),
      risk_level: z.enum(RISK_LEVELS).nullable(),
      status: z.array(z.enum(GROUP_NAMES as [StatusGroup, ...StatusGroup[]])),
      limit: z.number().int(),
      offset: z.number().int(),
    }),
    classes: z.array(z.number().int()).openapi({ description: 'The classes screened, in ascending order' }),
    classes_from_goods: z
      .array(
        z.object({
          class_number: z.number().int(),
          matched: z
            .array(z.object({ phrase: z.string(), item: z.string() }))
            .openapi({ description: 'The phrases of goods_services placed in the class, and the Nice item that placed each' }),
        }),
      )
      .nullable()
      .openapi({
        description:
          'The classes goods_services falls in, most phrases first (screened when classes were not given); null without goods_services',
      }),
    registrability: Registrability.nullable().openapi({
      description:
        'What an examiner asks before the register: well-known marks (s.11(2)), INN names (s.13(b)), prohibited names and ' +
        'emblems (s.9(2)(d)). Null in a clearance kept from before it was judged. docs/clearance.md, Registrability',
    }),
    overall_risk: z
      .enum(RISK_LEVELS)
      .nullable()
      .openapi({ description: "The riskiest conflict's level, raised to High by a well-known mark; null when neither" }),
    count: z.number().int().openapi({ description: 'Marks of the status groups and risk levels asked for (of at most 500 kept)' }),
    groups: z.object({
      risk_level: risks.openapi({ description: 'The marks counted, by risk level' }),
      class_number: z
        .array(z.object({ class_number: z.number().int(), count: z.number().int() }))
        .openapi({ description: 'The marks counted, by their class (the classes with any), ascending' }),
    }),
    results: z.array(ClearanceResult).openapi({ description: 'Highest overall_similarity_score first' }),
  })
  .openapi('ClearanceResponse');

/** POST /v1/clearance/'s answer: the clearance, under the id its reports are asked for by. */
export const Clearance = z
  .object({
    clearance_id: z.string().openapi({
      format: 'uuid',
      description:
        "This clearance's id, for its reports: GET /v1/reports/clearance/{clearance_id}/pdf/ and …/xlsx/ (kept 90 days; docs/clearance.md)",
    }),
    ...ClearanceResponse.shape,
  })
  .openapi('Clearance');
