import type { Invalid, Where } from '../../errors.ts';
import type { z } from '../../schema/zod.ts';

// zod's object schemas drop keys they do not name, so a misspelt parameter (clas_number) would be
// read as absent and answered as if the filter were not there. This walk finds such keys instead.

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  getter?: () => z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema that reads the client's value, past optional, nullable, default, preprocess, pipe and transform. */
function reader(schema: z.ZodType): Def {
  for (let def = defOf(schema); ; ) {
    if (def.innerType) def = defOf(def.innerType);
    else if (def.getter) def = defOf(def.getter());
    else if (def.type === 'pipe') {
      // A preprocess is a transform piped into the schema that reads its result; otherwise the input side reads.
      const first = reader(def.in!);
      def = first.type === 'transform' ? defOf(def.out!) : first;
    } else return def;
  }
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v));

function unknownIssue(where: Where, path: (string | number)[], key: string, takes: string[]): Invalid {
  const noun = where === 'query' ? 'parameter' : 'field';
  const none = path.length ? 'no fields' : where === 'query' ? 'no query parameters' : 'no body';
  const whose = path.length ? path.join('.') : 'this endpoint';
  return {
    parameter: [...path, key].join('.'),
    message: `unknown ${noun} ${key}: ${whose} takes ${takes.length ? takes.join(', ') : none}`,
  };
}

/**
 * Each own key of the value, at any depth, that its schema does not name; a loose object (any
 * catchall but never) takes any key. Recursion follows the schema, so its depth is the schema's. Unions,
 * records and intersections are not looked into: no request schema has one, and zod reads them as declared.
 */
export function unknownKeys(schema: z.ZodType | undefined, value: unknown, where: Where): Invalid[] {
  const out: Invalid[] = [];
  if (!schema) {
    if (isPlainObject(value)) for (const key of Object.keys(value)) out.push(unknownIssue(where, [], key, []));
    else if (value != null) out.push({ parameter: '(body)', message: 'this endpoint takes no body' });
    return out;
  }
  const walk = (s: z.ZodType, v: unknown, path: (string | number)[]) => {
    const def = reader(s);
    if (def.type === 'object' && isPlainObject(v)) {
      const shape = def.shape!;
      const open = def.catchall !== undefined && defOf(def.catchall).type !== 'never';
      for (const key of Object.keys(v)) {
        if (Object.hasOwn(shape, key)) walk(shape[key], v[key], [...path, key]);
        else if (!open) out.push(unknownIssue(where, path, key, Object.keys(shape)));
      }
    } else if (def.type === 'array' && Array.isArray(v)) {
      v.forEach((item, i) => {
        walk(def.element!, item, [...path, i]);
      });
    }
  };
  walk(schema, value, []);
  return out;
}
