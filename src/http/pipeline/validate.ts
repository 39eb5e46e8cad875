import { type Invalid, invalidParameters, type Where } from '../../errors.ts';
import type { z } from '../../schema/zod.ts';
import { isPlainObject, unknownKeys } from './unknownKeys.ts';

/** zod issues as the `details` of a 400: one entry per offending parameter. */
const invalid = (issues: z.core.$ZodIssue[]): Invalid[] =>
  issues.map((i) => ({ parameter: i.path.length ? i.path.join('.') : '(body)', message: i.message }));

// C0 controls but tab, newline and carriage return; DEL; C1 controls; and UTF-16 halves without their pair
// (JSON's \ud800 escape). None belongs in any field, and PostgreSQL refuses NUL in text with an error.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udfff]/u;

interface Step {
  key: string | number;
  up: Step | null;
}

const pathOf = (step: Step | null): (string | number)[] => {
  const out: (string | number)[] = [];
  for (let s = step; s; s = s.up) out.push(s.key);
  return out.reverse();
};

/**
 * The path of every string (or object key) in a parsed JSON value, query or form holding a forbidden
 * character. Walked with a stack of its own, each entry linked to its parent, so a body nested
 * thousands of levels deep neither overflows the call stack nor copies its path at every level.
 */
export function controlCharacters(value: unknown): z.core.$ZodIssue[] {
  const out: z.core.$ZodIssue[] = [];
  const check = (s: string, at: Step | null) => {
    const bad = FORBIDDEN_CHARACTER.exec(s);
    if (bad) {
      const cp = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      out.push({
        code: 'custom',
        path: pathOf(at),
        input: s,
        message: `contains a control character or unpaired surrogate (U+${cp}), which no field accepts`,
      });
    }
  };
  // Each entry: a value, where it is, and whether its own name (an object key) is to be checked first.
  const todo: [unknown, Step | null, boolean][] = [[value, null, false]];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [v, at, named] = next;
    if (named) check(String(at!.key), at);
    if (typeof v === 'string') check(v, at);
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) todo.push([v[i], { key: i, up: at }, false]);
    // Plain objects only: an uploaded file's record is ours, not the client's text.
    else if (isPlainObject(v)) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) todo.push([entries[i][1], { key: entries[i][0], up: at }, true]);
    }
  }
  return out;
}

/**
 * The value as its schema reads it (an empty object where there is no schema), or a 400 naming each bad
 * field: keys the schema does not name first, then what it refuses. Path parameters are Express's, from
 * the route, so only their values are checked.
 */
export function parseOrThrow<T extends z.ZodType>(schema: T | undefined, value: unknown, where: Where): z.infer<T> {
  if (!schema && where === 'path') return {} as z.infer<T>;
  // Checked once here for every schema, rather than in each string schema.
  const refused = controlCharacters(value);
  if (refused.length) throw invalidParameters(where, invalid(refused));
  const unknown = where === 'path' ? [] : unknownKeys(schema, value, where);
  if (!schema) {
    if (unknown.length) throw invalidParameters(where, unknown);
    return {} as z.infer<T>;
  }
  const r = schema.safeParse(value ?? {});
  if (r.success && !unknown.length) return r.data;
  const named = new Set(unknown.map((u) => u.parameter));
  // A strict object's own complaint about the same keys would name them twice.
  const issues = r.success
    ? []
    : r.error.issues.filter((i) => i.code !== 'unrecognized_keys' || i.keys.some((k) => !named.has([...i.path, k].join('.'))));
  throw invalidParameters(where, [...unknown, ...invalid(issues)]);
}
