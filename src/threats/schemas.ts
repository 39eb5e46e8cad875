import { enumParam, limitParam, offsetParam } from '../schema/params.ts';
import { z } from '../schema/zod.ts';
import { PARAMS } from './score.ts';

const T = PARAMS.thresholds;

export const RISK_LEVELS = ['Low', 'Medium', 'High'] as const;
const pct = (description: string) => z.number().min(0).max(100).openapi({ description });

export const ThreatsQuery = z.object({
  risk_level: enumParam(RISK_LEVELS, 'risk_level must be Low, Medium or High')
    .optional()
    .openapi({ description: 'Only threats of this risk level (any case)' }),
  limit: limitParam(50, 100),
  offset: offsetParam,
});

export const Threat = z
  .object({
    threat_application_number: z.string(),
    threat_word_mark: z.string(),
    word_similarity_percentage: pct(
      'How alike the words look: edit distance, Jaro-Winkler, trigrams and the first syllable, ' +
        'over the whole marks and word by word weighted by distinctiveness',
    ),
    phonetic_similarity_percentage: pct(
      'How alike the words sound after Indian romanisation: Double Metaphone and Soundex, over the whole marks and word by word',
    ),
    visual_similarity_percentage: pct("Cosine similarity of the two logos' image vectors × 100; 0 when either mark has no indexed logo"),
    overall_similarity_score: pct(
      "The marks' similarity (text — spelling, sound, or 0.8 × meaning for a Hindi/English translation — or logos when they " +
        'look more alike) × class relation factor × dead-mark factor × later-filing factor',
    ),
    risk_level: z.enum(RISK_LEVELS).openapi({
      description:
        `By overall_similarity_score: High from ${T.high}, Medium from ${T.medium}, ` +
        `Low from ${T.low} (below ${T.low} a mark is not listed)`,
    }),
    matching_criteria: z.enum(['exact', 'word', 'visual', 'logo']).openapi({
      description:
        'exact: the same words ignoring case, punctuation and spaces; word: the words look, sound or mean alike (a translation); ' +
        "visual: the logos look alike; logo: this mark's words are read in the other's logo",
    }),
    threat_class_number: z.number().int().min(1).max(45),
    threat_status: z.string(),
    class_relation: z
      .enum(['same', 'related', 'unrelated'])
      .openapi({ description: "The other mark's class against this one's (docs/threats.md)" }),
  })
  .openapi('Threat');

export const ThreatsResponse = z
  .object({
    application_number: z.string(),
    count: z.number().int().openapi({ description: 'Threats of the risk level asked for (all when none), of at most 500 kept per mark' }),
    from_cache: z.boolean().openapi({ description: 'The analysis was read from the cache (kept per mark until the register changes)' }),
    threats: z.array(Threat).openapi({ description: 'Highest overall_similarity_score first' }),
  })
  .openapi('ThreatsResponse');
