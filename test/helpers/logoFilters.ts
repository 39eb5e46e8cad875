import { expect } from 'chai';
import { type ImageServer, startImageServer } from './imageServer.ts';
import { addLogos, createLogoApp, type DrawSpec, drawLogo, indexPending, type LogoTestApp } from './logos.ts';

/** A mark of a logo-filter test: its drawing, its supplied words, and the register columns to give it. */
export interface FilterMark {
  app: string;
  draw: DrawSpec;
  supplied?: string;
}

export interface LogoFilterFixture<H> {
  t: LogoTestApp;
  server: ImageServer;
  /** The query image, served at `${server.origin}/q.png` too. */
  query: Buffer;
  text(body: object): Promise<{ count: number; results: H[] }>;
  image(fields: Record<string, string | string[]>): Promise<{ count: number; results: H[] }>;
}

/**
 * The logo app the filter tests share (mocha hooks of the calling describe): `marks` added and indexed,
 * each mark's register row updated with `columns(m)`, and searchers for the text SUNRISE and for
 * `queryDraw`'s image at similarity level low.
 */
export function logoFilterFixture<M extends FilterMark, H>(
  marks: M[],
  columns: (m: M) => Record<string, unknown>,
  queryDraw: DrawSpec,
): LogoFilterFixture<H> {
  const f = {} as LogoFilterFixture<H>;
  before(async () => {
    f.query = await drawLogo(queryDraw);
    f.server = await startImageServer({ '/q.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(f.query) });
    f.t = await createLogoApp({ IMAGE_FETCH_TEST_ALLOW: f.server.hostPort, IMAGE_FETCH_TEST_CA: f.server.caFile });
    await addLogos(
      f.t.app,
      marks.map((m) => ({ app: m.app, mark: m.supplied ?? '', draw: m.draw, supplied: m.supplied })),
    );
    for (const m of marks) await f.t.app.deps.db('trademarks').where({ application_number: m.app }).update(columns(m));
    expect(await indexPending(f.t)).to.deep.equal({ done: marks.length, failed: 0 });
  });
  after(async () => {
    await f.t?.close();
    await f.server?.close();
  });
  f.text = async (body) => {
    const res = await f.t.app.post('/v1/logo-search/text/').send({ query_text: 'SUNRISE', ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  f.image = async (fields) => {
    let req = f.t.app.post('/v1/logo-search/image/').attach('uploaded_file', f.query, 'q.png').field('similarity_level', 'low');
    for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) req = req.field(k, x);
    const res = await req;
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  return f;
}
