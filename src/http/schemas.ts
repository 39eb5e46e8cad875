import { z } from './zod.ts';
import { ERROR_CODES } from '../errors.ts';

export const ErrorBody = z
  .object({
    error: z.string().openapi({ description: 'Human-readable message' }),
    code: z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]]),
    request_id: z.string(),
    details: z.unknown().optional(),
  })
  .openapi('Error');

/** Query strings arrive as text; these coerce and name the limits in their messages. */
export const limitParam = (def: number, max: number) =>
  z.coerce.number().int('limit must be an integer').min(1, 'limit must be at least 1').max(max, `limit must be at most ${max}`).default(def)
    .openapi({ description: `Page size (default ${def}, maximum ${max})` });

export const offsetParam = z.coerce.number().int('offset must be an integer').min(0, 'offset must not be negative').max(10_000_000).default(0)
  .openapi({ description: 'Rows to skip (default 0)' });

export const classNumber = z.coerce.number().int('class_number must be an integer').min(1, 'class_number must be between 1 and 45').max(45, 'class_number must be between 1 and 45');

export const idParam = (name: string) => z.coerce.number().int(`${name} must be an integer`).min(1, `${name} must be a positive integer`).max(2 ** 31 - 1, `${name} is too large`);

// Application numbers are digit strings; anything else cannot name a mark.
export const appNoParam = z.string().regex(/^\d{1,12}$/, 'app_no must be an application number (digits only)')
  .openapi({ description: 'Trademark application number', example: '1234567' });

export const Page = z.object({ limit: limitParam(50, 100), offset: offsetParam });
