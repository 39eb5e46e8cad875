import { ERROR_CODES } from '../errors.ts';
import { z } from '../schema/zod.ts';

export const ErrorBody = z
  .object({
    error: z.string().openapi({ description: 'Human-readable message' }),
    code: z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]]),
    request_id: z.string(),
    details: z.unknown().optional(),
  })
  .openapi('Error');
