import { z } from '../zod.ts';
import { AppError } from '../../errors.ts';

export type Where = 'path' | 'query' | 'body';

/** Turns zod issues into the `details` of a 400: one entry per offending parameter. */
export function validationError(where: Where, issues: z.core.$ZodIssue[]): AppError {
  const details = issues.map((i) => ({
    in: where,
    parameter: i.path.length ? i.path.join('.') : '(body)',
    message: i.message,
  }));
  const names = [...new Set(details.map((d) => d.parameter))].join(', ');
  return new AppError('validation_error', `invalid ${where} parameter${details.length > 1 ? 's' : ''}: ${names}`, details);
}

// C0 controls but tab, newline and carriage return; DEL; C1 controls; and UTF-16 halves without their pair
// (JSON's \ud800 escape). None belongs in any field, and PostgreSQL refuses NUL in text with an error.
const FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udfff]/u;

/** The path of every string (or object key) in a parsed JSON value, query or form holding a forbidden character. */
export function controlCharacters(value: unknown, at: (string | number)[] = [], out: z.core.$ZodIssue[] = []): z.core.$ZodIssue[] {
  const check = (s: string, path: (string | number)[]) => {
    const bad = FORBIDDEN_CHARACTER.exec(s);
    if (bad) {
      const cp = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      out.push({ code: 'custom', path, input: s, message: `contains a control character or unpaired surrogate (U+${cp}), which no field accepts` });
    }
  };
  if (typeof value === 'string') check(value, at);
  else if (Array.isArray(value)) value.forEach((v, i) => controlCharacters(v, [...at, i], out));
  // Plain objects only: an uploaded file's record is ours, not the client's text.
  else if (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    for (const [k, v] of Object.entries(value)) {
      check(k, [...at, k]);
      controlCharacters(v, [...at, k], out);
    }
  }
  return out;
}

/** The value as its schema reads it (an empty object where there is no schema), or a 400 naming each bad field. */
export function parseOrThrow<T extends z.ZodType>(schema: T | undefined, value: unknown, where: Where): z.infer<T> {
  if (!schema) return {} as z.infer<T>;
  // Checked once here for every schema, rather than in each string schema.
  const refused = controlCharacters(value);
  if (refused.length) throw validationError(where, refused);
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw validationError(where, r.error.issues);
  return r.data;
}
