import { limitParam, offsetParam } from '../schema/params.ts';
import { z } from '../schema/zod.ts';
import { normaliseMark, wordsOf } from '../search/normalise.ts';
import { ClearanceBody, ClearanceResponse } from './schemas.ts';

// POST /v1/clearance/batch/ and GET /v1/clearance/batch/{job_id}/: up to 1,000 proposals screened by
// the workers, each as POST /v1/clearance/ screens one (logos by logo_url only; JSON only).

export const MAX_PROPOSALS = 1000;

const NOTHING = 'give word_mark (with a letter or a digit), logo_url, or both';

/** One proposal: the single clearance's JSON fields, refused up front when it has neither words nor a logo. */
const Proposal = ClearanceBody.superRefine((p, ctx) => {
  if (!p.logo_url && !wordsOf(normaliseMark(p.word_mark ?? '')).length)
    ctx.addIssue({ code: 'custom', path: ['word_mark'], message: NOTHING });
}).openapi('ClearanceBatchProposal');

export type BatchProposal = z.infer<typeof Proposal>;

export const ClearanceBatchRequest = z
  .object({
    proposals: z
      .array(Proposal, { error: 'proposals must be an array of proposals' })
      .min(1, 'proposals must hold at least one proposal')
      .max(MAX_PROPOSALS, `proposals: at most ${MAX_PROPOSALS} per batch`)
      .openapi({
        description:
          `1 to ${MAX_PROPOSALS} proposals, each the JSON body of POST /v1/clearance/ (a logo by logo_url). ` +
          'Every proposal is checked before the job is accepted: a 400 names the first offending ones as proposals.<index>.<field>',
      }),
  })
  .openapi('ClearanceBatchRequest');

const STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

const progress = {
  job_id: z.string().openapi({ format: 'uuid' }),
  status: z.enum(STATUSES).openapi({
    description:
      'queued (no proposal answered yet), running, completed (every proposal answered), or failed (the workers gave up on ' +
      'some proposals after retries; those are answered with a service_unavailable error)',
  }),
  total: z.number().int().openapi({ description: 'Proposals in the job' }),
  done: z.number().int().openapi({ description: 'Proposals answered so far (with a result or an error)' }),
  status_url: z.string().openapi({ format: 'uri', description: "The job's absolute URL (also the 202's Location)" }),
};

export const ClearanceBatchAccepted = z.object(progress).openapi('ClearanceBatchAccepted');

export const ClearanceBatchQuery = z.object({
  limit: limitParam(10, 100).openapi({ description: 'Proposals per page of results (default 10, maximum 100)' }),
  offset: offsetParam.openapi({ description: 'Proposals to skip (default 0)' }),
});

const ProposalAnswer = z
  .object({
    index: z.number().int().openapi({ description: "The proposal's place in the request's proposals, from 0" }),
    status: z.enum(['done', 'error']),
    result: z.union([ClearanceResponse, z.null()]).openapi({ description: 'What POST /v1/clearance/ answers for this proposal' }),
    error: z
      .union([z.object({ code: z.string(), message: z.string() }), z.null()])
      .openapi({ description: 'Why the proposal could not be screened (quota_exceeded, an unusable logo_url…); it cost nothing' }),
  })
  .openapi('ClearanceBatchAnswer');

export const ClearanceBatchJob = z
  .object({
    ...progress,
    errors: z.number().int().openapi({ description: 'Proposals answered with an error so far' }),
    credits: z
      .object({ clearances: z.number().int(), logo_searches: z.number().int() })
      .openapi({ description: 'Credits the proposals answered so far cost' }),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    results: z
      .union([
        z.object({
          count: z.number().int().openapi({ description: 'Proposals in the job (the pages run over them)' }),
          limit: z.number().int(),
          offset: z.number().int(),
          proposals: z.array(ProposalAnswer),
        }),
        z.null(),
      ])
      .openapi({ description: "Once the job is completed or failed: a page of the proposals' answers, in request order; null before" }),
  })
  .openapi('ClearanceBatchJob');
