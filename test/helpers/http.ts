import { expect } from 'chai';
import type request from 'supertest';

/** A 400 whose details name exactly the given parameter. */
export function expectBadParam(res: request.Response, parameter: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body.code).to.equal('validation_error');
  expect(res.body.error).to.contain(parameter);
  expect(res.body.details.map((d: { parameter: string }) => d.parameter)).to.deep.equal([parameter]);
}

type Parser = (res: request.Response, callback: (err: Error | null, body: unknown) => void) => void;

/** A supertest parser that keeps the body as bytes, whatever its type: `.buffer(true).parse(binary)`. */
export const binary: Parser = (res, callback) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
};
