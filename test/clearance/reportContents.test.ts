import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { binary } from '../helpers/http.ts';
import { insertMarks } from '../helpers/marks.ts';
import { pdfText } from '../helpers/pdf.ts';

// What a clearance report says beyond the conflicts (issue 41, item 5): a first page with the summary (name,
// verdict, top risk, grounds), the register's coverage date and a disclaimer; page numbers; each proposal's grounds;
// every conflict with its whole goods and services.

const GOODS = `${Array.from({ length: 12 }, (_, i) => `edible oil number ${i}`).join('; ')}; and the last words of these goods`;

describe('clearance reports: summary, grounds, coverage, goods', () => {
  let t: TestApp;
  let id: string;
  before(async () => {
    t = await createTestApp();
    await insertMarks(t.deps.db, [{ app: '8400001', mark: 'SUNRISE OIL', cls: 29, goods: GOODS }]);
    await t.deps.db('import_runs').insert({ source: 'test', baseline: true, finished_at: '2026-11-30T08:00:00Z' });
    await t.deps.search.sync();
    const res = await t.post('/v1/clearance/').send({ word_mark: 'PAYTM SUNRISE', classes: [29] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    id = res.body.clearance_id;
  });
  after(() => t.close());

  const file = async (kind: 'pdf' | 'xlsx') => {
    const res = await t.get(`/v1/reports/clearance/${id}/${kind}/`).buffer(true).parse(binary);
    expect(res.status).to.equal(200);
    return res.body as Buffer;
  };

  it('opens with the summary, the coverage date and the disclaimer, numbers its pages, and prints goods whole', async () => {
    const text = (await pdfText(await file('pdf'))).replace(/\s+/g, ' ');
    expect(text).to.contain('Summary').and.contain('PAYTM SUNRISE').and.contain('objection likely (1)');
    expect(text).to.contain('well-known: PAYTM (Trade Marks Act 1999, s.11(2))');
    expect(text).to.contain('Register coverage: records as last imported 2026-11-30');
    expect(text).to.contain('it is not legal advice');
    expect(text).to.match(/Page 1 of \d/);
    expect(text).to.contain('Registrability: objection likely (1)');
    expect(text).to.contain('the last words of these goods');
    expect(text.indexOf('Summary')).to.be.lessThan(text.indexOf('Proposal: PAYTM SUNRISE'));
  });

  it('lists goods whole and each proposal verdict, top risk and grounds in the workbook, with the coverage', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await file('xlsx')) as unknown as ArrayBuffer);
    const conflicts = wb.getWorksheet('Conflicts')!;
    const head = (conflicts.getRow(1).values as string[]).slice(1);
    expect(String(conflicts.getRow(2).getCell(head.indexOf('goods_services') + 1).value)).to.equal(GOODS);
    const proposals = wb.getWorksheet('Proposals')!;
    const cols = (proposals.getRow(1).values as string[]).slice(1);
    const row = proposals.getRow(2);
    expect(row.getCell(cols.indexOf('overall_risk') + 1).value).to.equal('High');
    expect(row.getCell(cols.indexOf('verdict') + 1).value).to.equal('objection likely (1)');
    expect(String(row.getCell(cols.indexOf('grounds') + 1).value)).to.match(/^well-known PAYTM \(Trade Marks Act 1999, s\.11\(2\)\)/);
    const about = wb.getWorksheet('Report')!;
    const values = new Map<string, unknown>();
    about.eachRow((r) => values.set(String(r.getCell(1).value), r.getCell(2).value));
    expect((values.get('register_coverage') as Date).toISOString()).to.equal('2026-11-30T08:00:00.000Z');
    expect(String(values.get('disclaimer'))).to.contain('not legal advice');
  });
});
