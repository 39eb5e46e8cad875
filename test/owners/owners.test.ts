import { expect } from 'chai';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { insertMarks, type MarkSpec } from '../helpers/marks.ts';

// Owner entities (docs/owners.md): the register's proprietor names grouped into owners, found by name, listed with
// their marks, and named by id in search results and detail; a later name joins its owner and keeps its id, and a
// name that shows two entities are one merges them, the merged id still answering.

const mark = (app: string, owner: string, extra: Partial<MarkSpec> = {}): MarkSpec => ({ app, mark: `OWNED ${app}`, owner, ...extra });

const MARKS: MarkSpec[] = [
  mark('5100001', 'M/S ABC FOODS PVT. LTD.', { cls: 30, state: 'DELHI' }),
  mark('5100002', 'ABC FOODS PRIVATE LIMITED', { cls: 29, state: 'DELHI' }),
  mark('5100003', 'A.B.C. Foods Pvt Ltd', { cls: 30, status: 'Refused', state: 'HARYANA' }),
  // A firm of the same words is another legal person.
  mark('5100004', 'ABC FOODS', { cls: 30 }),
  mark('5100005', 'RAJESH KUMAR TRADING AS SHREE RAM FOODS'),
  mark('5100006', 'SHREE RAM FOODS'),
  // Two people trading as one name are two owners, and the bare name is neither's.
  mark('5100007', 'SURESH GUPTA TRADING AS GANGA SWEETS'),
  mark('5100008', 'MAHESH VERMA TRADING AS GANGA SWEETS'),
  mark('5100009', 'GANGA SWEETS'),
  mark('5100010', 'DABUR INDIA LIMITED', { cls: 3 }),
  mark('5100011', 'डाबर इंडिया लिमिटेड', { cls: 5 }),
  mark('5100012', 'ZENITH TRADERS'),
  mark('5100013', 'ALPHA TRADERS'),
];

interface Owner {
  id: string;
  name: string;
  marks: number;
  statuses: Record<string, number>;
  classes: { class_number: number; marks: number }[];
  states: { state: string; marks: number }[];
}

describe('owner entities', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await insertMarks(t.deps.db, MARKS);
    expect(await t.deps.services.owners.catchUp({ force: true })).to.equal(MARKS.length);
  });
  after(async () => t.close());

  const ownerOf = async (app: string): Promise<string> => {
    const res = await t.get(`/v1/trademarks/${app}/`);
    expect(res.status).to.equal(200);
    return res.body.owner_id;
  };

  it('groups the spellings of one company, and keeps a firm, two traders and their trade name apart', async () => {
    const abc = await ownerOf('5100001');
    expect(abc).to.match(/^own_[0-9a-f]{16}$/);
    expect(await ownerOf('5100002')).to.equal(abc);
    expect(await ownerOf('5100003')).to.equal(abc);
    expect(await ownerOf('5100004')).to.not.equal(abc);
    expect(await ownerOf('5100006')).to.equal(await ownerOf('5100005'));
    const ganga = new Set([await ownerOf('5100007'), await ownerOf('5100008'), await ownerOf('5100009')]);
    expect(ganga.size).to.equal(3);
    expect(await ownerOf('5100011')).to.equal(await ownerOf('5100010'));
  });

  it('finds owners by the beginning of their name, an exact name first, with marks by status group, class and state', async () => {
    const abc = await ownerOf('5100001');
    const res = await t.get('/v1/owners/?q=abc foods');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ query: 'abc foods', count: 2, limit: 50, offset: 0 });
    const owners = res.body.owners as Owner[];
    const company = owners.find((o) => o.id === abc)!;
    const firm = owners.find((o) => o.id !== abc)!;
    expect(firm).to.deep.include({ name: 'ABC FOODS', marks: 1 });
    expect(company.marks).to.equal(3);
    expect(company.statuses).to.deep.equal({ live: 2, pending: 0, dead: 1, other: 0 });
    expect(company.classes).to.deep.equal([
      { class_number: 30, marks: 2 },
      { class_number: 29, marks: 1 },
    ]);
    expect(company.states).to.deep.equal([
      { state: 'DELHI', marks: 2 },
      { state: 'HARYANA', marks: 1 },
    ]);
    const page = await t.get('/v1/owners/?q=ABC%20FOODS&limit=1&offset=1');
    expect(page.body.owners.map((o: Owner) => o.id)).to.deep.equal([owners[1].id]);
    // Longer names after: ABC FOODS INTERNATIONAL would come after both.
    expect((await t.get('/v1/owners/?q=ganga')).body.count).to.equal(3);
  });

  it('answers an owner with every name grouped into it, and its marks filtered as a listing filters', async () => {
    const id = await ownerOf('5100001');
    const res = await t.get(`/v1/owners/${id}/`);
    expect(res.status).to.equal(200);
    expect(res.body.names.map((n: { name: string }) => n.name).sort()).to.deep.equal(
      ['A.B.C. Foods Pvt Ltd', 'ABC FOODS PRIVATE LIMITED', 'M/S ABC FOODS PVT. LTD.'].sort(),
    );
    const marks = await t.get(`/v1/owners/${id}/trademarks/`);
    expect(marks.status).to.equal(200);
    expect(marks.body).to.include({ owner_id: id, count: 3 });
    expect(marks.body.results.map((r: { application_number: string }) => r.application_number)).to.deep.equal([
      '5100001',
      '5100002',
      '5100003',
    ]);
    expect(marks.body.results.every((r: { owner_id: string }) => r.owner_id === id)).to.equal(true);
    const live = await t.get(`/v1/owners/${id}/trademarks/?status=live&class_number=30`);
    expect(live.body.count).to.equal(1);
    expect(live.body.results[0].application_number).to.equal('5100001');
  });

  it('names the owner in word-mark search results', async () => {
    const res = await t.get('/v1/trademarks/?word_mark=OWNED%205100002&match_type=EXACT');
    expect(res.status).to.equal(200);
    const r = res.body.results.find((x: { application_number: string }) => x.application_number === '5100002');
    expect(r.owner_id).to.equal(await ownerOf('5100001'));
  });

  it('joins a later spelling to its owner, keeping the id, and merges two owners a name shows are one', async () => {
    const abc = await ownerOf('5100001');
    const zenith = await ownerOf('5100012');
    const alpha = await ownerOf('5100013');
    expect(zenith).to.not.equal(alpha);
    await insertMarks(t.deps.db, [
      mark('5100020', 'M/s. A B C FOODS PRIVATE LTD'),
      mark('5100021', 'ZENITH TRADERS (FORMERLY ALPHA TRADERS)'),
    ]);
    expect(await t.deps.services.owners.catchUp({ force: true })).to.equal(2);
    expect(await ownerOf('5100020')).to.equal(abc);
    const merged = await ownerOf('5100021');
    expect(await ownerOf('5100012')).to.equal(merged);
    expect(await ownerOf('5100013')).to.equal(merged);
    const gone = [zenith, alpha].find((id) => id !== merged)!;
    const res = await t.get(`/v1/owners/${gone}/`);
    expect(res.status).to.equal(200);
    expect(res.body.id).to.equal(merged);
    expect(res.body.marks).to.equal(3);
    // Nothing new: nothing grouped, nothing changed.
    expect(await t.deps.services.owners.catchUp({ force: true })).to.equal(0);
    expect(await ownerOf('5100001')).to.equal(abc);
  });

  it('refuses what names no owner: 400 naming the parameter, 404 for an id of no owner', async () => {
    const noName = await t.get('/v1/owners/?q=M%2FS');
    expect(noName.status).to.equal(400);
    expect(noName.body.details[0].parameter).to.equal('q');
    expect((await t.get('/v1/owners/')).status).to.equal(400);
    const badId = await t.get('/v1/owners/nobody/');
    expect(badId.status).to.equal(400);
    expect(badId.body.details[0].parameter).to.equal('owner_id');
    expect((await t.get('/v1/owners/own_0000000000000000/')).status).to.equal(404);
    expect((await t.get('/v1/owners/own_0000000000000000/trademarks/')).status).to.equal(404);
    const unknown = await t.get('/v1/owners/?q=abc&colour=red');
    expect(unknown.status).to.equal(400);
    expect(unknown.body.details.map((d: { parameter: string }) => d.parameter)).to.deep.equal(['colour']);
  });
});
