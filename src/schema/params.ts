import { z } from './zod.ts';

// Path and query parameters several endpoints share; every message names the parameter.

// Digits only: z.coerce.number would read '0x7', ' 7', '7e0' and '1e1' as numbers. Anything else is
// left as text for the number schema to refuse. A preprocess (not string→transform) so the OpenAPI
// document describes the parameter as the integer it is, with its range.
const digits = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v);

/** A whole number in the path or query string; every message names the parameter. */
export const intParam = (name: string, min: number, max: number, messages: { type?: string; min?: string; max?: string } = {}) => {
  const type = messages.type ?? `${name} must be an integer from ${min} to ${max}`;
  return z.preprocess(
    digits,
    // Aborting on the integer check: a 30-digit number is one mistake, not two.
    z
      .number({ error: type })
      .int({ error: type, abort: true })
      .min(min, messages.min ?? type)
      .max(max, messages.max ?? type),
  );
};

/**
 * Free text from the query string, trimmed. NUL is refused here because PostgreSQL text cannot hold it:
 * it would otherwise reach the database and come back as a 500.
 */
export const textParam = (name: string, max: number) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a single string`) })
    .trim()
    .refine((s) => !s.includes('\0'), { error: `${name} must not contain NUL characters`, abort: true })
    .max(max, `${name} must be at most ${max} characters`);

export const limitParam = (def: number, max: number) =>
  intParam('limit', 1, max, { min: 'limit must be at least 1', max: `limit must be at most ${max}` })
    .default(def)
    .openapi({ description: `Page size (default ${def}, maximum ${max})` });

const OFFSET_MAX = 10_000_000;
export const offsetParam = intParam('offset', 0, OFFSET_MAX, {
  type: 'offset must be a non-negative integer',
  max: `offset must be at most ${OFFSET_MAX}`,
})
  .default(0)
  .openapi({ description: 'Rows to skip (default 0)' });

/** A Nice class number, 1-45, named after its parameter so a 400 says which one is wrong. */
export const classParam = (name: string) => intParam(name, 1, 45, { type: `${name} must be an integer between 1 and 45` });
export const classNumber = classParam('class_number');

export const idParam = (name: string) =>
  intParam(name, 1, 2 ** 31 - 1, { type: `${name} must be a positive integer`, max: `${name} is too large` });

// Application numbers are digit strings; anything else cannot name a mark.
export const appNoParam = z
  .string()
  .regex(/^\d{1,12}$/, 'app_no must be an application number (digits only)')
  .openapi({ description: 'Trademark application number', example: '1234567' });

export const Page = z.object({ limit: limitParam(50, 100), offset: offsetParam });

/** A closed list's own spelling of a value given in any case; a value the list lacks comes back as given. */
export function canonicalCase<T extends string>(values: readonly T[]): (s: string) => string {
  const byLower = new Map(values.map((v) => [v.toLowerCase(), v]));
  return (s) => byLower.get(s.toLowerCase()) ?? s;
}

/**
 * One value of a closed list, in the query or a body, read in any case (risk_level=high is High) and
 * handed on as the list spells it: a client should not have to guess our capitals. The OpenAPI document
 * lists the canonical values. `message` names the parameter and the values.
 */
export const enumParam = <const T extends readonly [string, ...string[]]>(values: T, message: string) => {
  const canonical = canonicalCase(values);
  return z.preprocess((v) => (typeof v === 'string' ? canonical(v) : v), z.enum(values, { error: message }));
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether an id in a path is a UUID at all: anything else is not found (PostgreSQL would refuse to compare it with a uuid column). */
export const isUuid = (s: string): boolean => UUID.test(s);
