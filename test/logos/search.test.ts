import { expect } from 'chai';
import { addLogos, createLogoApp, drawLogo, indexPending, type LogoTestApp, servedModel } from '../helpers/logos.ts';

// Text and image logo search end to end: logos indexed by the real sidecar (OCR + embedding), then
// searched through the API.

const MARKS = [
  { app: '5000001', mark: 'SUNRISE', draw: { slug: 'apple', text: 'SUNRISE' } },
  { app: '5000002', mark: 'GOLDEN LEAF', draw: { slug: 'leaflet', text: 'GOLDEN LEAF' } },
  { app: '5000003', mark: '', draw: { slug: 'github' } },
  { app: '5000004', mark: '', draw: { slug: 'docker' } },
  { app: '5000005', mark: 'SHREE GANESH', draw: { slug: 'python' }, supplied: 'SHREE GANESH' },
  { app: '5000006', mark: '', draw: { slug: 'firefox' } },
];

describe('logo search', function () {
  this.timeout(60_000);
  let t: LogoTestApp;

  before(async () => {
    t = await createLogoApp();
    await addLogos(t.app, MARKS);
    const r = await indexPending(t);
    expect(r).to.deep.equal({ done: MARKS.length, failed: 0 });
  });
  after(() => t.close());

  describe('POST /v1/logo-search/text/', () => {
    it('finds a logo by the words OCR read in it, with a text score, its logo link and the OCR named', async () => {
      const res = await t.app.post('/v1/logo-search/text/').send({ query_text: 'sunrise' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.similarity_level).to.equal('low');
      const hit = res.body.results[0];
      expect(hit).to.include({ application_number: '5000001', word_mark: 'SUNRISE', match: 'exact', clip_similarity: null });
      expect(hit.text_score).to.equal(100);
      expect(hit.logo_text).to.contain('SUNRISE');
      expect(hit.model).to.match(/tesseract/);
      expect(hit.logo.url).to.match(/\/files\/logos\/5000001\.png\?/);
      expect(hit.logo.expires_in).to.equal('30 minutes');
    });

    it('matches spelling variants and sound-alikes as word-mark search does, and high keeps only close matches', async () => {
      const variant = await t.app.post('/v1/logo-search/text/').send({ query_text: 'SUNRIZE' });
      expect(variant.body.results.map((r: { application_number: string }) => r.application_number)).to.include('5000001');
      const sound = await t.app.post('/v1/logo-search/text/').send({ query_text: 'SHRI GANESH' });
      expect(sound.body.results[0]).to.include({ application_number: '5000005' });
      // One letter off a one-word text is near, which high keeps (OCR misreads); a sound-alike is not.
      const near = await t.app.post('/v1/logo-search/text/').send({ query_text: 'SUNRIZE', similarity_level: ['high'] });
      expect(near.body.results.map((r: { match: string }) => r.match)).to.deep.equal(['near']);
      const strict = await t.app.post('/v1/logo-search/text/').send({ query_text: 'SOONRYS', similarity_level: ['high'] });
      expect(strict.body.results).to.deep.equal([]);
      const loose = await t.app.post('/v1/logo-search/text/').send({ query_text: 'SOONRYS', similarity_level: ['low'] });
      expect(loose.body.results.map((r: { application_number: string }) => r.application_number)).to.include('5000001');
      expect(strict.body.min_score).to.equal(66);
      // In an array the loosest level applies.
      const both = await t.app.post('/v1/logo-search/text/').send({ query_text: 'SUNRIZE', similarity_level: ['high', 'medium'] });
      expect(both.body.similarity_level).to.equal('medium');
      expect(both.body.results.map((r: { application_number: string }) => r.application_number)).to.include('5000001');
    });

    it('refuses an empty or wordless query_text and max_results over 500', async () => {
      for (const body of [
        { query_text: '' },
        { query_text: '   ' },
        {},
        { query_text: 'x', max_results: 501 },
        { query_text: 'x', similarity_level: ['huge'] },
      ]) {
        const res = await t.app.post('/v1/logo-search/text/').send(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.code).to.equal('validation_error');
      }
      const punct = await t.app.post('/v1/logo-search/text/').send({ query_text: '!!!' });
      expect(punct.status).to.equal(400);
      expect(punct.body.details[0].parameter).to.equal('query_text');
    });
  });

  describe('POST /v1/logo-search/image/', () => {
    it('ranks the registered logo first for a recoloured copy, orders by clip_similarity and names the model', async () => {
      const query = await drawLogo({ slug: 'github', ink: [200, 30, 30], size: 140 });
      const res = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', query, 'query.png').field('similarity_level', 'low');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.model).to.equal(servedModel(t.sidecar));
      expect(res.body.results[0]).to.include({ application_number: '5000003', model: servedModel(t.sidecar) });
      expect(res.body.results[0].clip_similarity).to.be.greaterThan(0.9);
      const sims = res.body.results.map((r: { clip_similarity: number }) => r.clip_similarity);
      expect(sims).to.deep.equal([...sims].sort((a, b) => b - a));
      expect(sims.every((s: number) => s >= res.body.min_similarity)).to.equal(true);
      expect(res.body.results[0].logo.url).to.match(/\/files\/logos\/5000003\.png\?/);
    });

    it('takes a JPEG, keeps img_cnt, and high is stricter than low', async () => {
      const query = await drawLogo({ slug: 'docker', format: 'jpeg' });
      const low = await t.app
        .post('/v1/logo-search/image/')
        .attach('uploaded_file', query, 'q.jpg')
        .field('similarity_level', 'low')
        .field('img_cnt', '2');
      expect(low.status, JSON.stringify(low.body)).to.equal(200);
      expect(low.body.results.length).to.be.at.most(2);
      expect(low.body.results[0].application_number).to.equal('5000004');
      const high = await t.app.post('/v1/logo-search/image/').attach('uploaded_file', query, 'q.jpg');
      expect(high.body.similarity_level).to.equal('high');
      expect(high.body.min_similarity).to.be.greaterThan(low.body.min_similarity);
    });
  });
});
