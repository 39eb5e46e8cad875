import { expect } from 'chai';
import { COMPARED_MAX } from '../../src/threats/compare.ts';
import type { Threat } from '../../src/threats/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks } from '../helpers/marks.ts';

// A word mark of 200,000 characters, written to the database by other means than the importer (which
// refuses it): its threats and sound-alikes once never answered, comparing and cutting it grew with the
// square of its length. Only its first words are read now.
const LONG_WORD = 'Q'.repeat(200_000);

describe('threats and sound-alikes of a 200,000-character word mark', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await insertMarks(t.deps.db, [
      { app: '7100001', mark: `SUNRISE ${LONG_WORD}`, cls: 30 },
      { app: '7100002', mark: LONG_WORD, cls: 30 },
      { app: '7100003', mark: 'SUNRISE', cls: 30 },
      { app: '7100004', mark: 'SUNRIZE FOODS', cls: 30 },
      // A candidate as long as the register's longest marks may be, with a word for every comparison.
      { app: '7100005', mark: `SUNRISE ${Array.from({ length: 600 }, (_, i) => `W${i}`).join(' ')}`, cls: 30 },
    ]);
  });
  after(async () => t.close());

  const get = async (path: string) => {
    const res = await t.get(path);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
    return res.body;
  };

  it('answers threats, comparing the mark by its first words', async function () {
    this.timeout(30_000);
    const body = await get('/v1/trademarks/7100001/threats/');
    const found = new Map((body.threats as Threat[]).map((x) => [x.threat_application_number, x]));
    // Read as SUNRISE: the same mark first, then its spelling variant.
    expect(found.get('7100003')).to.include({ matching_criteria: 'exact', overall_similarity_score: 100 });
    expect(found.has('7100004')).to.equal(true);
    expect((await get('/v1/trademarks/7100002/threats/')).application_number).to.equal('7100002');
  });

  it('answers sound-alikes with the words it read', async function () {
    this.timeout(30_000);
    const body = await get('/v1/trademarks/7100001/phonetic/');
    expect(body.word_mark).to.have.length(LONG_WORD.length + 8);
    expect(body.normalised).to.equal('SUNRISE');
    expect(body.sound_alikes.map((a: { application_number: string }) => a.application_number)).to.include('7100004');
    const word = await get('/v1/trademarks/7100002/phonetic/');
    expect(word.normalised.length).to.be.at.most(COMPARED_MAX);
  });

  it('answers threats of a mark of hundreds of words, and of a mark among such candidates', async function () {
    this.timeout(30_000);
    expect((await get('/v1/trademarks/7100005/threats/')).application_number).to.equal('7100005');
    const body = await get('/v1/trademarks/7100003/threats/');
    expect((body.threats as Threat[]).map((x) => x.threat_application_number)).to.include('7100004');
  });
});
