import { classNumber, textParam } from './params.ts';
import { z } from './zod.ts';

// Filters of marks by their register fields, as request parameters: word-mark search, a journal's
// marks and logo search take the same ones, so each is read and refused the same way everywhere.
// What the values mean (a status group, a tm_type the register has) is decided by
// src/trademarks/markFilter.ts once the request is valid.

const CLASS_LIST = /^\s*\d{1,2}(\s*,\s*\d{1,2})*\s*$/;
const CLASSES_MESSAGE = 'classes must be class numbers separated by commas, e.g. 29,30,43';
const CLASSES_RANGE = 'classes must be class numbers between 1 and 45';

/** Several Nice classes in the query string, comma-separated; each counted once. */
export const classList = z
  .string()
  .regex(CLASS_LIST, CLASSES_MESSAGE)
  .transform((s) => [...new Set(s.split(',').map((x) => Number(x.trim())))])
  .refine((list) => list.every((c) => c >= 1 && c <= 45), CLASSES_RANGE)
  .openapi({ type: 'string', description: 'Several Nice classes, comma-separated (e.g. 29,30,43); combined with class_number' });

/** Several values in the query string, comma-separated (e.g. Registered,Objected); each trimmed, repeats counted once. */
export const valueList = (name: string, description: string) =>
  textParam(name, 1000)
    .transform((s) => [...new Set(s.split(',').map((x) => x.trim()))].filter((x) => x !== ''))
    .refine((list) => list.length > 0, `${name} must name at least one value`)
    .openapi({ type: 'string', description });

/** Days since 1970-01-01 of a calendar date written YYYY-MM-DD or DD/MM/YYYY (as expire_at is shown). */
export function daysOf(s: string): number | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  const dmy = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  const parts = iso ? [iso[1], iso[2], iso[3]] : dmy ? [dmy[3], dmy[2], dmy[1]] : null;
  if (!parts) return null;
  const [y, m, d] = parts.map(Number);
  // setUTCFullYear, not Date.UTC, which reads years below 100 as 19xx.
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return Math.round(t.getTime() / 86_400_000);
}

/** An optional calendar date, as days since 1970-01-01. */
export const dateParam = (name: string, description: string) =>
  textParam(name, 10)
    .transform((s, ctx) => {
      const days = daysOf(s);
      if (days === null) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a date, YYYY-MM-DD or DD/MM/YYYY` });
        return z.NEVER;
      }
      return days;
    })
    .optional()
    .openapi({ type: 'string', format: 'date', description: `${description} (YYYY-MM-DD or DD/MM/YYYY, inclusive)` });

export const STATUS_DESCRIPTION =
  'Only marks with one of these statuses, comma-separated, as the register spells them (any case), or the groups live, ' +
  'pending and dead (docs/search.md); an unknown status is a 400 listing the known ones';

/**
 * The filters a listing of marks takes in its query string, by the fields its results carry:
 * class_number and classes (together: any of them), status (labels or groups), tm_type, filing_mode
 * and state (each any of the values given, any case), and the application date's range.
 */
export const listingFilters = (what: string) => ({
  class_number: classNumber.optional().openapi({ description: `Only ${what} in this Nice class (1-45); combined with classes` }),
  classes: classList.optional(),
  status: valueList('status', STATUS_DESCRIPTION).optional(),
  tm_type: valueList('tm_type', `Only ${what} of these types, comma-separated (e.g. WORD,DEVICE; any case)`).optional(),
  filing_mode: valueList('filing_mode', `Only ${what} of these filing modes, comma-separated (any case)`).optional(),
  state: valueList('state', `Only ${what} of these states, comma-separated (any case)`).optional(),
  application_date_from: dateParam('application_date_from', `Only ${what} applied for on or after this day`),
  application_date_to: dateParam('application_date_to', `Only ${what} applied for on or before this day`),
});

// In a JSON body a list is an array or, as in the query string, one string separated by commas; a
// multipart form sends either one field (a string, maybe comma-separated) or the field repeated (an array).

const splitList = (v: string | (string | number)[]) =>
  (Array.isArray(v) ? v.map(String) : v.split(',')).map((x) => x.trim()).filter((x) => x !== '');

/** Several Nice classes in a body: an array of class numbers, or a string separated by commas. */
export const classesField = z
  .union([z.string(), z.array(z.union([z.number(), z.string()]))], {
    error: 'classes must be an array of class numbers or a string of them separated by commas',
  })
  .transform((v, ctx) => {
    const parts = splitList(v);
    if (!parts.length || !parts.every((p) => /^\d{1,2}$/.test(p))) {
      ctx.addIssue({ code: 'custom', message: 'classes must be class numbers (1-45), e.g. [29, 30, 43] or "29,30,43"' });
      return z.NEVER;
    }
    return [...new Set(parts.map(Number))];
  })
  .refine((list) => list.every((c) => c >= 1 && c <= 45), CLASSES_RANGE)
  .openapi({
    anyOf: [{ type: 'array', items: { type: 'integer', minimum: 1, maximum: 45 } }, { type: 'string' }],
    description: 'Several Nice classes: an array, or a string separated by commas (e.g. 29,30,43); combined with class_number',
  });

/** Several values in a body: an array of strings, or one string separated by commas. */
export const valuesField = (name: string, description: string) =>
  z
    .union([z.string().max(1000, `${name} must be at most 1000 characters`), z.array(z.string().max(200)).max(100)], {
      error: `${name} must be an array of strings or a string of values separated by commas`,
    })
    .refine((v) => !(Array.isArray(v) ? v : [v]).some((s) => s.includes('\0')), `${name} must not contain NUL characters`)
    .transform((v) => [...new Set(splitList(v))])
    .refine((list) => list.length > 0, `${name} must name at least one value`)
    .openapi({ description });

export const VIENNA_DESCRIPTION =
  'Only logos with a figurative element of these Vienna codes, an array or separated by commas: a code matches itself and every ' +
  'code below it (03.01 matches 03.01.01), so a division or category finds its whole branch. Written as the register prints ' +
  'them (03.01.01) or 3.1.1 or 030101; GET /v1/reference/vienna-codes/ lists them, and an unknown code is a 400';

/** The filters logo search takes in its body, by the fields its results carry (class_number, status, vienna_codes). */
export const logoFilters = {
  class_number: classNumber.optional().openapi({ description: 'Only logos of marks in this Nice class (1-45); combined with classes' }),
  classes: classesField.optional(),
  status: valuesField('status', STATUS_DESCRIPTION.replace('comma-separated', 'an array or separated by commas')).optional(),
  vienna_codes: valuesField('vienna_codes', VIENNA_DESCRIPTION).optional(),
};
