import { ERROR_CODES } from '../errors.ts';
import { logoFilters } from '../schema/markFilters.ts';
import { enumParam, intParam, textParam } from '../schema/params.ts';
import { UploadField } from '../schema/upload.ts';
import { z } from '../schema/zod.ts';
import { STRATEGIES } from '../search/strategies.ts';
import { SignedLink } from '../trademarks/schemas.ts';
import { ACCEPTED } from './imageInput.ts';

export const LEVELS = ['high', 'medium', 'low'] as const;
export type Level = (typeof LEVELS)[number];
/**
 * copy: the same drawing, however altered (the model's vectors, re-ranked with HOG); concept: the same thing
 * drawn by another hand, by the concept score (models/manifest.json `concept`, docs/logos.md).
 */
export const LIKENESS = ['copy', 'concept'] as const;
export type Likeness = (typeof LIKENESS)[number];
export const MAX_BULK = 100;

const levelMessage = 'similarity_level must be high, medium or low (or an array of them)';
const Level = enumParam(LEVELS, levelMessage);

/** One level or several; the loosest given applies (DESIGN.md). */
const levels = (def: Level) =>
  z
    .union([Level.transform((l) => [l]), z.array(Level).min(1, levelMessage)], { error: levelMessage })
    .default([def])
    .openapi({
      description: `high, medium or low, or an array of them (the loosest applies); default ${def}. Minimum similarities: docs/logos.md`,
    });

const queryText = textParam('query_text', 200)
  .pipe(z.string().min(1, 'query_text must not be empty'))
  .openapi({ description: 'Words to find in logos (searched like word marks: spelling variants and sound-alikes match)' });
const imgCnt = intParam('img_cnt', 1, 100, { type: 'img_cnt must be an integer from 1 to 100' })
  .default(50)
  .openapi({ description: 'Most results (default 50, maximum 100)' });
const imageUrl = z
  .string({ error: 'image_url is required: an http or https URL' })
  .trim()
  .max(2048, 'image_url must be at most 2048 characters')
  .refine((s) => /^https?:\/\/[^\s]+$/i.test(s) && URL.canParse(s), { error: 'image_url must be an http or https URL' })
  .openapi({ format: 'uri', description: `An http or https URL of a ${ACCEPTED} image on a public host` });

const regionMessage =
  'region must be x,y,w,h: the left, top, width and height of the part to search, in whole pixels of the image, w and h at least 16';
const region = z
  .string({ error: regionMessage })
  .trim()
  .regex(/^\d{1,5},\d{1,5},\d{1,5},\d{1,5}$/, regionMessage)
  .transform((v) => {
    const [left, top, width, height] = v.split(',').map(Number);
    return { left, top, width, height };
  })
  .refine((b) => b.width >= 16 && b.height >= 16, { error: regionMessage })
  .optional()
  .openapi({
    type: 'string',
    example: '120,40,300,220',
    description:
      'Search only this part of the image, as a user crops it: x,y,w,h in pixels of the image as shown (turned as its EXIF says; an ' +
      'SVG as drawn, 512 px on its longer side). A box not inside the image is a 400 naming region. The part is searched as the ' +
      'image would be, logo regions within it included',
  });

const likenessMessage = 'likeness must be copy or concept';
const likeness = enumParam(LIKENESS, likenessMessage)
  .default('copy')
  .openapi({
    description:
      'copy (default): the same drawing, however altered (re-drawn in colour, cropped, photographed). concept: the same thing drawn ' +
      'by another hand (a lion, a rising sun, a lotus), by the concept score: the model blended with the HOG descriptor at the weight ' +
      'chosen on validation concepts, its candidates its own nearest neighbours, with its own minimum similarities (docs/logos.md)',
  });
const likenessOut = z.enum(LIKENESS).openapi({
  description: 'The likeness that scored the results: copy when concept was asked of a model that has no concept score (the HOG fallback)',
});

export const TextSearchBody = z
  .object({
    query_text: queryText,
    similarity_level: levels('low'),
    max_results: intParam('max_results', 1, 500, { type: 'max_results must be an integer from 1 to 500' })
      .default(50)
      .openapi({ description: 'Most results (default 50, maximum 500)' }),
    ...logoFilters,
  })
  .openapi('LogoTextSearchRequest');

export const ImageSearchForm = z
  .object({
    uploaded_file: UploadField(`The logo: a ${ACCEPTED} image of at most 5 MB`),
    similarity_level: levels('high'),
    img_cnt: imgCnt,
    likeness,
    region,
    ...logoFilters,
  })
  .openapi('LogoImageSearchForm');

export const ImageUrlBody = z
  .object({
    image_url: imageUrl,
    similarity_level: levels('high'),
    img_cnt: imgCnt,
    likeness,
    region,
    ...logoFilters,
  })
  .openapi('LogoImageUrlSearchRequest');

export const BulkTextBody = z
  .object({
    queries: z
      .array(z.object({ query_text: queryText, similarity_level: levels('low') }), {
        error: 'queries must be an array of {query_text, similarity_level}',
      })
      .min(1, 'queries must hold at least one query')
      .max(MAX_BULK, `queries may hold at most ${MAX_BULK} items`),
    max_results_per_query: intParam('max_results_per_query', 1, 500, {
      type: 'max_results_per_query must be an integer from 1 to 500',
    }).default(50),
    ...logoFilters,
  })
  .openapi('LogoBulkTextRequest');

export const BulkImageForm = z
  .object({
    uploaded_files: z
      .array(UploadField(`A ${ACCEPTED} image of at most 5 MB`), { error: 'uploaded_files is required: one to 100 images' })
      .min(1, 'uploaded_files must hold at least one image')
      .max(MAX_BULK, `uploaded_files may hold at most ${MAX_BULK} images`),
    similarity_level: levels('high'),
    img_cnt: imgCnt,
    likeness,
    ...logoFilters,
  })
  .openapi('LogoBulkImageForm');

export const BulkUrlBody = z
  .object({
    image_urls: z
      .array(imageUrl, { error: 'image_urls must be an array of URLs' })
      .min(1, 'image_urls must hold at least one URL')
      .max(MAX_BULK, `image_urls may hold at most ${MAX_BULK} URLs`),
    similarity_level: levels('high'),
    img_cnt: imgCnt,
    likeness,
    ...logoFilters,
  })
  .openapi('LogoBulkImageUrlRequest');

const common = {
  application_number: z.string(),
  word_mark: z.string(),
  class_number: z.number().int(),
  status: z.string(),
  vienna_codes: z.array(z.string()).openapi({
    description: "Vienna codes of the logo's figurative elements (the mark's), as the register prints them; empty when it has none",
    example: ['03.01.01', '27.05.17'],
  }),
  logo: SignedLink.openapi({ description: 'The logo image, a 30-minute signed URL' }),
};

export const ImageResult = z
  .object({
    ...common,
    clip_similarity: z
      .number()
      .openapi({ description: 'Cosine similarity of the two images under `model` (1 is identical); results are ordered by it' }),
    model: z.string().openapi({ description: 'The image model that scored clip_similarity' }),
  })
  .openapi('LogoImageResult');

export const TextResult = z
  .object({
    ...common,
    text_score: z
      .number()
      .int()
      .min(0)
      .max(100)
      .openapi({ description: "How well the logo's words match the query, 0-100, as word-mark search scores; results are ordered by it" }),
    match: z.enum(STRATEGIES).openapi({ description: 'How the words matched (the word-mark search strategy)' }),
    logo_text: z.string().openapi({ description: 'The words read from the logo (OCR) or supplied with it' }),
    clip_similarity: z.null().openapi({ description: 'Always null here: no image was given to compare with (image search fills it)' }),
    model: z.string().openapi({ description: "The OCR that read the logo's words" }),
  })
  .openapi('LogoTextResult');

const levelOut = z.enum(LEVELS).openapi({ description: 'The level applied (the loosest asked for)' });

export const ImageSearchResponse = z
  .object({
    model: z.string().openapi({ description: 'The image model that produced clip_similarity' }),
    likeness: likenessOut,
    similarity_level: levelOut,
    min_similarity: z.number().openapi({ description: "The level's minimum clip_similarity for this model" }),
    img_cnt: z.number().int(),
    count: z.number().int(),
    response_ms: z.number().int(),
    results: z.array(ImageResult),
  })
  .openapi('LogoImageSearchResponse');

export const TextSearchResponse = z
  .object({
    query_text: z.string(),
    similarity_level: levelOut,
    min_score: z.number().int().openapi({ description: "The level's minimum text_score" }),
    max_results: z.number().int(),
    count: z.number().int().openapi({ description: 'Logos matching at the level (results holds the first max_results)' }),
    response_ms: z.number().int(),
    results: z.array(TextResult),
  })
  .openapi('LogoTextSearchResponse');

const ItemError = z
  .object({
    code: z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]]),
    error: z.string(),
  })
  .openapi('LogoBulkItemError', {
    description:
      'Why this item has no results, as the error body words it; a failed item costs no credit, ' +
      'except an image URL that ran to its deadline',
  });

const imageItem = (key: 'file' | 'image_url') =>
  z.object({
    index: z.number().int().openapi({ description: 'Position of the item in the request, from 0' }),
    ...(key === 'file' ? { file: z.string().openapi({ description: "The uploaded file's name" }) } : { image_url: z.string() }),
    model: z.string().nullable(),
    likeness: likenessOut.nullable(),
    min_similarity: z.number().nullable(),
    count: z.number().int(),
    results: z.array(ImageResult),
    error: ItemError.nullable(),
  });

export const BulkImageResponse = z
  .object({
    requested: z.number().int(),
    charged: z.number().int().openapi({ description: 'logo_searches credits this request cost: one per distinct item that was searched' }),
    likeness: z.enum(LIKENESS).openapi({ description: "The likeness asked for (each item's own says what scored it)" }),
    similarity_level: levelOut,
    img_cnt: z.number().int(),
    response_ms: z.number().int(),
    results: z.array(imageItem('file')),
  })
  .openapi('LogoBulkImageResponse');

export const BulkUrlResponse = BulkImageResponse.extend({ results: z.array(imageItem('image_url')) }).openapi('LogoBulkImageUrlResponse');

export const BulkTextResponse = z
  .object({
    requested: z.number().int(),
    charged: z.number().int(),
    max_results_per_query: z.number().int(),
    response_ms: z.number().int(),
    results: z.array(
      z.object({
        index: z.number().int(),
        query_text: z.string(),
        similarity_level: levelOut,
        min_score: z.number().int(),
        count: z.number().int(),
        results: z.array(TextResult),
      }),
    ),
  })
  .openapi('LogoBulkTextResponse');

export const ViennaForm = z
  .object({
    uploaded_file: UploadField(`The logo: a ${ACCEPTED} image of at most 5 MB`),
    max_results: intParam('max_results', 1, 20, { type: 'max_results must be an integer from 1 to 20' })
      .default(5)
      .openapi({ description: 'Most suggestions (default 5, maximum 20)' }),
  })
  .openapi('LogoViennaForm');

export const ViennaResponse = z
  .object({
    model: z.string().openapi({ description: 'The image model whose nearest logos voted' }),
    neighbours: z.number().int().openapi({ description: 'How many of the nearest registered logos with Vienna codes voted' }),
    count: z.number().int().openapi({ description: 'How many sections were voted for (suggestions holds the first max_results)' }),
    response_ms: z.number().int(),
    suggestions: z.array(
      z
        .object({
          code: z.string().openapi({ example: '03.01.01', description: 'A Vienna section: category.division.section' }),
          description: z.string().nullable().openapi({ description: "The section's description in the shipped classification" }),
          score: z
            .number()
            .openapi({ description: "The section's share of the votes, 0-1: the nearer a logo holding it, the more its vote counts" }),
          marks: z.number().int().openapi({ description: 'How many of the voting logos hold it' }),
        })
        .openapi('LogoViennaSuggestion'),
    ),
  })
  .openapi('LogoViennaResponse');
