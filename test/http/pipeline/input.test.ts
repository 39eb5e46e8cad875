import { expect } from 'chai';
import type { Request, Response } from 'express';
import { AppError } from '../../../src/errors.ts';
import { readInput } from '../../../src/http/pipeline/input.ts';
import { controlCharacters, parseOrThrow } from '../../../src/http/pipeline/validate.ts';
import { z } from '../../../src/schema/zod.ts';
import { refusal, rejection } from './support.ts';

describe('request pipeline: reading and checking the input', () => {
  describe('parseOrThrow', () => {
    const schema = z.object({ n: z.coerce.number().int(), names: z.array(z.string()).optional() });

    it('reads a value through its schema, and gives an empty object where there is none', () => {
      expect(parseOrThrow(schema, { n: '3' }, 'query')).to.deep.equal({ n: 3 });
      expect(parseOrThrow(undefined, {}, 'body')).to.deep.equal({});
      expect(parseOrThrow(undefined, undefined, 'query')).to.deep.equal({});
      // Express fills path parameters from the route: nothing there is the client's to misspell.
      expect(parseOrThrow(undefined, { app_no: '1' }, 'path')).to.deep.equal({});
    });

    it('refuses keys no schema names, nested ones by their path, and any key where there is no schema', () => {
      const nested = z.object({
        q: z.string().optional(),
        items: z.array(z.object({ a: z.string() })).optional(),
        inner: z.object({ b: z.number() }).nullable().default(null),
        loose: z.looseObject({}).optional(),
        strict: z.strictObject({ c: z.number() }).optional(),
      });
      const err = refusal(() =>
        parseOrThrow(
          nested,
          { q: 'x', zz: 1, items: [{ a: 'y', yy: 2 }], inner: { b: 1, xx: 3 }, loose: { any: 1 }, strict: { c: 1, d: 1 } },
          'body',
        ),
      );
      expect(err.details).to.deep.equal([
        { in: 'body', parameter: 'zz', message: 'unknown field zz: this endpoint takes q, items, inner, loose, strict' },
        { in: 'body', parameter: 'items.0.yy', message: 'unknown field yy: items.0 takes a' },
        { in: 'body', parameter: 'inner.xx', message: 'unknown field xx: inner takes b' },
        { in: 'body', parameter: 'strict.d', message: 'unknown field d: strict takes c' },
      ]);
      // Read through a preprocess and a transform alike; inherited names are no parameters.
      const piped = z.preprocess((v) => v, z.object({ a: z.string() }));
      expect(refusal(() => parseOrThrow(piped, { a: 'x', b: 'y' }, 'query')).message).to.equal('invalid query parameter: b');
      const transformed = z.object({ a: z.string() }).transform((v) => v.a);
      expect(refusal(() => parseOrThrow(transformed, { a: 'x', b: 'y' }, 'query')).message).to.equal('invalid query parameter: b');
      expect(refusal(() => parseOrThrow(schema, JSON.parse('{"n":"1","__proto__":1,"constructor":2}'), 'query')).message).to.equal(
        'invalid query parameters: __proto__, constructor',
      );
      // Unknown and invalid together, in one 400.
      expect(refusal(() => parseOrThrow(schema, { n: 'x', m: 1 }, 'query')).message).to.equal('invalid query parameters: m, n');
      expect(refusal(() => parseOrThrow(undefined, { page: '2' }, 'query')).details).to.deep.equal([
        { in: 'query', parameter: 'page', message: 'unknown parameter page: this endpoint takes no query parameters' },
      ]);
    });

    it('refuses with a 400 naming where and each bad parameter', () => {
      const err = refusal(() => parseOrThrow(schema, { n: 'x', names: [1] }, 'body'));
      expect(err).to.be.instanceOf(AppError);
      expect(err.code).to.equal('validation_error');
      expect(err.message).to.equal('invalid body parameters: n, names.0');
      expect((err.details as { in: string; parameter: string }[]).map((d) => [d.in, d.parameter])).to.deep.equal([
        ['body', 'n'],
        ['body', 'names.0'],
      ]);
      expect(refusal(() => parseOrThrow(z.string(), 5, 'body')).details).to.deep.include.members([
        { in: 'body', parameter: '(body)', message: 'Invalid input: expected string, received number' },
      ]);
    });

    it('refuses control characters and unpaired surrogates in values and keys before the schema reads them', () => {
      const err = refusal(() => parseOrThrow(schema, { n: '1', names: ['ok', 'a\u0000b'], 'k\u0085': 'v' }, 'body'));
      expect(err.details).to.deep.equal([
        {
          in: 'body',
          parameter: 'names.1',
          message: 'contains a control character or unpaired surrogate (U+0000), which no field accepts',
        },
        {
          in: 'body',
          parameter: 'k\u0085',
          message: 'contains a control character or unpaired surrogate (U+0085), which no field accepts',
        },
      ]);
      expect(controlCharacters({ text: 'tab\tnewline\ncr\r and 🙂' })).to.deep.equal([]);
      expect(controlCharacters(['\ud800'])[0].message).to.contain('U+D800');
      // An uploaded file's record is not the client's text.
      expect(
        controlCharacters({
          file: new (class {
            path = '\u0001';
          })(),
        }),
      ).to.deep.equal([]);
    });

    it('walks a body nested 100,000 levels deep without overflowing the stack, and names the path to what it refuses', () => {
      let deep: unknown = ['\u0000'];
      for (let i = 0; i < 100_000; i++) deep = [deep];
      const [issue] = controlCharacters({ a: deep });
      expect(issue.path).to.have.length(100_002); // 'a', then an index per level
      expect(issue.path.slice(0, 3)).to.deep.equal(['a', 0, 0]);
      let clean: unknown = 'fine';
      for (let i = 0; i < 100_000; i++) clean = { k: clean };
      expect(controlCharacters(clean)).to.deep.equal([]);
    });
  });

  describe('readInput', () => {
    const def = {
      params: z.object({ id: z.string().regex(/^\d+$/) }),
      query: z.object({ page: z.coerce.number().int().default(1) }),
      body: z.object({ name: z.string() }),
    };
    const req = (params: object, query: object, body?: object) => ({ params, query, body }) as unknown as Request;
    const res = {} as Response;

    it('checks path, query and body, in that order', async () => {
      expect(await readInput(def, req({ id: '7' }, {}, { name: 'a' }), res)).to.deep.equal({
        params: { id: '7' },
        query: { page: 1 },
        body: { name: 'a' },
      });
      expect((await rejection(readInput(def, req({ id: 'x' }, { page: 'y' }, {}), res))).message).to.equal('invalid path parameter: id');
      expect((await rejection(readInput(def, req({ id: '7' }, { page: 'y' }, {}), res))).message).to.equal('invalid query parameter: page');
      expect((await rejection(readInput(def, req({ id: '7' }, {}, {}), res))).message).to.equal('invalid body parameter: name');
    });

    it('reads a multipart form only once path and query are sound, and checks the body it gives', async () => {
      let reads = 0;
      // Stands in for the multer reader: it fills req.body from the form.
      const multipart = async (r: Request) => {
        reads++;
        r.body = { name: 'from the form' };
      };
      const form = { ...def, multipart };
      await rejection(readInput(form, req({ id: 'x' }, {}), res));
      await rejection(readInput(form, req({ id: '7' }, { page: 'y' }), res));
      expect(reads).to.equal(0);
      expect((await readInput(form, req({ id: '7' }, {}), res)).body).to.deep.equal({ name: 'from the form' });
      expect(reads).to.equal(1);
      const failing = {
        ...def,
        multipart: async () => {
          throw new AppError('validation_error', 'cut off');
        },
      };
      expect((await rejection(readInput(failing, req({ id: '7' }, {}), res))).message).to.equal('cut off');
    });
  });
});
