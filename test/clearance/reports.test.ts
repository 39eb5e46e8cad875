import { Queue } from 'bullmq';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import type request from 'supertest';
import { CLEARANCE_BATCH_QUEUE } from '../../src/clearance/batchService.ts';
import type { ClearanceReport, ReportProposal } from '../../src/clearance/reportModel.ts';
import { PDF_LIMITS, writeClearancePdf } from '../../src/clearance/reportPdf.ts';
import { CLEARANCE_RETENTION_DAYS } from '../../src/clearance/repository.ts';
import { startClearanceBatchWorker } from '../../workers/clearanceBatch.ts';
import type { Client } from '../helpers/app.ts';
import { binary } from '../helpers/http.ts';
import { type ImageServer, startImageServer } from '../helpers/imageServer.ts';
import { addLogos, createLogoApp, drawLogo, type LogoTestApp } from '../helpers/logos.ts';
import { insertMarks } from '../helpers/marks.ts';
import { pdfText, writtenPdf } from '../helpers/pdf.ts';
import { until } from '../webhooks/support.ts';

// GET /v1/reports/clearance/{job_id}/pdf/ and …/xlsx/: a single clearance (its clearance_id) and a
// batch (its job_id) as reports; the proposal's logo kept as a thumbnail when it is screened, the
// marks' logos read from the object store; charged once, gated as clearance, scoped to the account.

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CONFLICT_HEADERS = [
  'proposal_index',
  'proposal_word_mark',
  'proposal_classes',
  'application_number',
  'word_mark',
  'class_number',
  'risk_level',
  'overall_similarity_score',
  'status',
  'proprietor_name',
  'application_date',
  'reasons',
  'goods_services',
  'word_similarity_percentage',
  'phonetic_similarity_percentage',
  'visual_similarity_percentage',
  'matching_criteria',
  'logo',
];

interface Result {
  application_number: string;
  word_mark: string;
  risk_level: string;
  application_date: string;
  proprietor_name: string;
  reasons: string[];
  logo_url: unknown;
}

const fetchFile = (c: Pick<Client, 'get'>, path: string) => c.get(path).buffer(true).parse(binary);

async function workbook(buf: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb;
}

/** Images a PDF embeds (each an XObject of subtype Image). */
const images = (pdf: Buffer) => pdf.toString('latin1').split('/Subtype /Image').length - 1;

describe('clearance reports (PDF and xlsx)', function () {
  this.timeout(90_000);
  let t: LogoTestApp;
  let server: ImageServer;
  let logo: Buffer;

  before(async () => {
    logo = await drawLogo({ slug: 'docker', size: 120, ink: [200, 30, 30] });
    server = await startImageServer({ '/logo.png': (res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(logo) });
    t = await createLogoApp({ IMAGE_FETCH_TEST_ALLOW: server.hostPort, IMAGE_FETCH_TEST_CA: server.caFile });
    await insertMarks(t.app.deps.db, [
      { app: '8200001', mark: 'SUNRISE OIL', cls: 29, owner: 'SUNRISE AGRO PVT LTD', date: '2012-04-01' },
      { app: '8200002', mark: 'SUNRIZE', cls: 30, date: '2016-09-30' },
      { app: '8200003', mark: 'KAVERI TEA', cls: 30 },
    ]);
    // A device mark with its logo in the store: its thumbnail stands beside the proposal's.
    await addLogos(t.app, [{ app: '8200004', mark: 'SUNRISE FOODS', draw: { slug: 'github' } }]);
    await t.app.deps.db('trademarks').where({ application_number: '8200004' }).update({ class_number: 30 });
    await t.app.deps.search.sync();
  });
  after(async () => {
    await t?.close();
    await server?.close();
  });

  /** A single clearance with words and an uploaded logo, by the client given. */
  async function clearance(c: Pick<Client, 'post'> = t.app) {
    const res = await c
      .post('/v1/clearance/')
      .field('word_mark', 'SUNRISE FOODS')
      .field('classes', '29,30')
      .attach('uploaded_file', logo, 'proposal.png');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { clearance_id: string; results: Result[]; count: number };
  }

  describe('a single clearance', () => {
    it('is kept under the clearance_id its answer gives, with its logo as a thumbnail in the store', async () => {
      const body = await clearance();
      expect(body.clearance_id).to.match(/^[0-9a-f-]{36}$/);
      const row = await t.app.deps.db('clearances').where({ id: body.clearance_id }).first();
      expect(row.account_id).to.equal(t.app.account.accountId);
      expect(row.logo_key).to.equal(`clearances/${body.clearance_id}/proposal.png`);
      const thumb = await t.app.deps.store.read(row.logo_key);
      expect(thumb.subarray(1, 4).toString()).to.equal('PNG');
    });

    it('as a PDF: the proposal, each conflict with risk badge, reasons, status, owner, date, both logos; one pdf_reports', async () => {
      const c = await t.app.client();
      const body = await clearance(c);
      const used = await t.app.used(c.account.accountId, 'api_calls');
      const res = await fetchFile(c, `/v1/reports/clearance/${body.clearance_id}/pdf/`);
      expect(res.status, String(res.body)).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/pdf');
      expect(res.headers['content-disposition']).to.match(/^attachment; filename="clearance SUNRISE FOODS [0-9a-f]{8}\.pdf"$/);
      const pdf = res.body as Buffer;
      expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
      const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
      expect(text).to.contain('Clearance report').and.contain('Proposal: SUNRISE FOODS').and.contain('Classes: 29, 30');
      expect(text).to.contain('Logo: shown on the right');
      const oil = body.results.find((r) => r.application_number === '8200001')!;
      expect(text).to.contain('8200001 SUNRISE OIL · class 29');
      expect(text).to.contain(`${oil.risk_level.toUpperCase()} RISK`);
      expect(text).to.contain('Owner: SUNRISE AGRO PVT LTD').and.contain('Applied: 2012-04-01').and.contain('Status: Registered');
      expect(text).to.contain('shared distinctive word SUNRISE');
      for (const r of body.results) expect(text, r.application_number).to.contain(r.application_number);
      // The proposal's thumbnail (in its header and beside each conflict, embedded once) and the device mark's logo.
      expect(body.results.find((r) => r.application_number === '8200004')!.logo_url).to.not.equal(null);
      expect(images(pdf)).to.equal(2);
      expect(await t.app.used(c.account.accountId, 'pdf_reports')).to.equal(1);
      expect(await t.app.used(c.account.accountId, 'excel_reports')).to.equal(0);
      expect(await t.app.used(c.account.accountId, 'api_calls'), 'a report costs no api_calls').to.equal(used);
    });

    it('keeps every conflict whatever page was asked for: the reports list them all, and GET pages them for free', async () => {
      const c = await t.app.client();
      const full = await clearance(c);
      expect(full.count).to.be.greaterThan(2);
      const res = await c.post('/v1/clearance/').send({ word_mark: 'SUNRISE FOODS', classes: [29, 30], limit: 2 });
      expect(res.body.results).to.have.length(2);
      const id = res.body.clearance_id as string;
      const used = await t.app.used(c.account.accountId, 'clearances');
      const rest = await c.get(`/v1/clearance/${id}/?offset=2&limit=100`);
      expect(rest.status, JSON.stringify(rest.body)).to.equal(200);
      expect(rest.body.query).to.include({ offset: 2, limit: 100 });
      expect(rest.body.count).to.equal(full.count);
      const apps = (rs: Result[]) => rs.map((r) => r.application_number);
      expect([...apps(res.body.results), ...apps(rest.body.results)]).to.deep.equal(apps(full.results));
      expect(await t.app.used(c.account.accountId, 'clearances'), 'a page read costs nothing').to.equal(used);
      const wb = await workbook((await fetchFile(c, `/v1/reports/clearance/${id}/xlsx/`)).body as Buffer);
      expect(wb.getWorksheet('Conflicts')!.rowCount - 1).to.equal(full.count);
      const text = (await pdfText((await fetchFile(c, `/v1/reports/clearance/${id}/pdf/`)).body as Buffer)).replace(/\s+/g, ' ');
      expect(text).to.not.contain('listed here');
      for (const r of full.results) expect(text, r.application_number).to.contain(r.application_number);
      const other = await t.app.client();
      expect((await other.get(`/v1/clearance/${id}/`)).status, "another account's").to.equal(404);
      expect((await c.get('/v1/clearance/not-a-uuid/')).status).to.equal(404);
    });

    it('as xlsx: a conflict a row, dates as dates, risk coloured, a frozen header, an autofilter; one excel_reports', async () => {
      const c = await t.app.client();
      const body = await clearance(c);
      const res = await fetchFile(c, `/v1/reports/clearance/${body.clearance_id}/xlsx/`);
      expect(res.status, String(res.body)).to.equal(200);
      expect(res.headers['content-type']).to.equal(XLSX);
      const wb = await workbook(res.body as Buffer);
      expect(wb.worksheets.map((w) => w.name)).to.deep.equal(['Conflicts', 'Proposals', 'Report']);
      const ws = wb.getWorksheet('Conflicts')!;
      expect((ws.getRow(1).values as unknown[]).slice(1)).to.deep.equal(CONFLICT_HEADERS);
      expect(ws.rowCount - 1).to.equal(body.results.length);
      expect(ws.views[0]).to.include({ state: 'frozen', ySplit: 1 });
      expect(ws.autoFilter).to.equal(`A1:R${body.results.length + 1}`);
      const col = (h: string) => CONFLICT_HEADERS.indexOf(h) + 1;
      body.results.forEach((r, i) => {
        const row = ws.getRow(i + 2);
        expect(row.getCell(col('application_number')).value).to.equal(r.application_number);
        expect(row.getCell(col('risk_level')).value).to.equal(r.risk_level);
        expect(row.getCell(col('proposal_word_mark')).value).to.equal('SUNRISE FOODS');
        expect(row.getCell(col('reasons')).value).to.equal(r.reasons.join('; '));
        expect(row.getCell(col('logo')).value).to.equal(r.logo_url ? 'yes' : 'no');
      });
      const oil = ws.getRow(body.results.findIndex((r) => r.application_number === '8200001') + 2);
      const date = oil.getCell(col('application_date')).value;
      expect(date).to.be.instanceOf(Date);
      expect((date as Date).toISOString()).to.equal('2012-04-01T00:00:00.000Z');
      const fill = oil.getCell(col('risk_level')).fill as ExcelJS.FillPattern;
      expect(fill.fgColor?.argb).to.match(/^FF(C62828|EF8F00|2E7D32)$/);
      const proposals = wb.getWorksheet('Proposals')!;
      expect(proposals.rowCount).to.equal(2);
      expect(proposals.views[0]).to.include({ state: 'frozen', ySplit: 1 });
      expect((proposals.getRow(2).values as unknown[]).slice(1, 5)).to.deep.equal([0, 'SUNRISE FOODS', '29, 30', 'yes']);
      expect(await t.app.used(c.account.accountId, 'excel_reports')).to.equal(1);
      expect(await t.app.used(c.account.accountId, 'pdf_reports')).to.equal(0);
    });
  });

  describe('refusals', () => {
    it("answers 404 for another account's id, an unknown id and a malformed one, charging nothing", async () => {
      const mine = await clearance();
      const job = await t.app.post('/v1/clearance/batch/').send({ proposals: [{ word_mark: 'SUNRISE', classes: [29] }] });
      expect(job.status).to.equal(202);
      const other = await t.app.client();
      for (const path of [
        `/v1/reports/clearance/${mine.clearance_id}/pdf/`,
        `/v1/reports/clearance/${mine.clearance_id}/xlsx/`,
        `/v1/reports/clearance/${job.body.job_id}/pdf/`,
        '/v1/reports/clearance/00000000-0000-4000-8000-000000000000/pdf/',
        '/v1/reports/clearance/00000000-0000-4000-8000-000000000000/xlsx/',
        '/v1/reports/clearance/not-an-id/pdf/',
      ]) {
        const res = await other.get(path);
        expect(res.status, path).to.equal(404);
        expect(res.body.code, path).to.equal('not_found');
      }
      expect(await t.app.used(other.account.accountId, 'pdf_reports')).to.equal(0);
      expect(await t.app.used(other.account.accountId, 'excel_reports')).to.equal(0);
    });

    it('forgets a clearance after 90 days: its report is 404, and a later clearance deletes it and its thumbnail', async () => {
      const c = await t.app.client();
      const old = await clearance(c);
      const key = `clearances/${old.clearance_id}/proposal.png`;
      expect(await t.app.deps.store.exists(key)).to.equal(true);
      await t.app.deps
        .db('clearances')
        .where({ id: old.clearance_id })
        .update({ created_at: t.app.deps.db.raw(`now() - interval '${CLEARANCE_RETENTION_DAYS} days 1 minute'`) });
      const res = await c.get(`/v1/reports/clearance/${old.clearance_id}/pdf/`);
      expect(res.status).to.equal(404);
      expect(await t.app.used(c.account.accountId, 'pdf_reports')).to.equal(0);
      const fresh = await clearance();
      expect(await t.app.deps.db('clearances').where({ id: old.clearance_id }).first()).to.equal(undefined);
      expect(await t.app.deps.store.exists(key)).to.equal(false);
      expect(await t.app.deps.db('clearances').where({ id: fresh.clearance_id }).first()).to.not.equal(undefined);
    });

    it('answers 409 job_not_finished for a batch still queued, charging nothing', async () => {
      const c = await t.app.client();
      // Written as the request writes it, never enqueued: it stays queued.
      const id = await t.app.deps.repos.clearanceBatches.create(c.account.accountId, [{ word_mark: 'SUNRISE', classes: [29] }]);
      for (const kind of ['pdf', 'xlsx']) {
        const res = await c.get(`/v1/reports/clearance/${id}/${kind}/`);
        expect(res.status).to.equal(409);
        expect(res.body.code).to.equal('job_not_finished');
        expect(res.body.error).to.contain('queued').and.contain('0 of 1 proposals answered');
      }
      expect(await t.app.used(c.account.accountId, 'pdf_reports')).to.equal(0);
      expect(await t.app.used(c.account.accountId, 'excel_reports')).to.equal(0);
    });

    it('is gated by the plan as clearance is, and refused with 429 once the report credits are spent', async () => {
      const body = await clearance();
      const gated = await t.app.client({ quotas: { clearances: 0 } });
      const res = await gated.get(`/v1/reports/clearance/${body.clearance_id}/pdf/`);
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('clearance_not_on_plan');
      const poor = await t.app.client({ quotas: { pdf_reports: 1, excel_reports: 0 } });
      const own = await clearance(poor);
      expect((await fetchFile(poor, `/v1/reports/clearance/${own.clearance_id}/pdf/`)).status).to.equal(200);
      const again = await poor.get(`/v1/reports/clearance/${own.clearance_id}/pdf/`);
      expect(again.status).to.equal(429);
      expect(again.body.details).to.include({ resource: 'pdf_reports' });
      const xlsx = await poor.get(`/v1/reports/clearance/${own.clearance_id}/xlsx/`);
      expect(xlsx.status).to.equal(429);
      expect(xlsx.body.details).to.include({ resource: 'excel_reports' });
      expect(await t.app.used(poor.account.accountId, 'pdf_reports')).to.equal(1);
      expect(await t.app.used(poor.account.accountId, 'excel_reports')).to.equal(0);
    });
  });

  describe('a batch', () => {
    let worker: ReturnType<typeof startClearanceBatchWorker>;
    before(async () => {
      const q = new Queue(CLEARANCE_BATCH_QUEUE, { connection: t.app.deps.connections.queues, prefix: t.app.deps.config.QUEUE_PREFIX });
      await q.obliterate({ force: true });
      await q.close();
      worker = startClearanceBatchWorker(t.app.deps, { intervalMs: 60_000 });
    });
    after(async () => {
      await worker?.close();
      const q = new Queue(CLEARANCE_BATCH_QUEUE, { connection: t.app.deps.connections.queues, prefix: t.app.deps.config.QUEUE_PREFIX });
      await q.obliterate({ force: true });
      await q.close();
    });

    async function finished(c: Client): Promise<{ id: string; answers: { index: number; result: { results: Result[] } | null }[] }> {
      const accepted = await c.post('/v1/clearance/batch/').send({
        proposals: [
          { word_mark: 'SUNRISE FOODS', classes: [29, 30] },
          { word_mark: 'KAVERI', classes: [30], logo_url: `${server.origin}/logo.png` },
          { word_mark: 'NOTHING LIKE IT', classes: [45] },
        ],
      });
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
      const id = accepted.body.job_id as string;
      let res!: request.Response;
      await until('the batch to end', async () => {
        res = await c.get(`/v1/clearance/batch/${id}/?limit=100`);
        return res.body.status === 'completed' || res.body.status === 'failed';
      });
      expect(res.body).to.include({ status: 'completed', errors: 0 });
      return { id, answers: res.body.results.proposals };
    }

    it('as a PDF: every proposal with its conflicts, the logo proposal with its thumbnail; one pdf_reports', async () => {
      const c = await t.app.client();
      const { id, answers } = await finished(c);
      expect(await t.app.deps.store.exists(`clearance-batches/${id}/1.png`), "the logo proposal's thumbnail").to.equal(true);
      const res = await fetchFile(c, `/v1/reports/clearance/${id}/pdf/`);
      expect(res.status, String(res.body)).to.equal(200);
      const pdf = res.body as Buffer;
      expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
      const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
      expect(text).to.contain('Batch clearance report').and.contain(`Job ${id}: 3 proposals, completed`);
      expect(text)
        .to.contain('Proposal 1 of 3: SUNRISE FOODS')
        .and.contain('Proposal 2 of 3: KAVERI')
        .and.contain('Proposal 3 of 3: NOTHING');
      expect(text).to.contain('8200001 SUNRISE OIL').and.contain('8200003 KAVERI TEA');
      expect(images(pdf)).to.be.at.least(2);
      const listed = answers.reduce((n, a) => n + (a.result?.results.length ?? 0), 0);
      expect(listed).to.be.greaterThan(2);
      expect(await t.app.used(c.account.accountId, 'pdf_reports')).to.equal(1);
    });

    it('lists a proposal answered with an error with its error, in both reports', async () => {
      const c = await t.app.client({ quotas: { clearances: 2 } });
      const accepted = await c.post('/v1/clearance/batch/').send({
        proposals: [
          { word_mark: 'SUNRISE FOODS', classes: [29, 30] },
          { word_mark: 'KAVERI', classes: [30] },
        ],
      });
      const id = accepted.body.job_id as string;
      await until('the batch to end', async () => (await c.get(`/v1/clearance/batch/${id}/`)).body.status === 'completed');
      const text = (await pdfText((await fetchFile(c, `/v1/reports/clearance/${id}/pdf/`)).body as Buffer)).replace(/\s+/g, ' ');
      expect(text).to.contain('Proposal 2 of 2: KAVERI').and.contain('Not screened: quota_exceeded');
      const wb = await workbook((await fetchFile(c, `/v1/reports/clearance/${id}/xlsx/`)).body as Buffer);
      const row = wb.getWorksheet('Proposals')!.getRow(3);
      expect(row.getCell(7).value).to.equal('no');
      expect(String(row.getCell(8).value)).to.match(/^quota_exceeded: /);
      const conflicts: unknown[] = [];
      wb.getWorksheet('Conflicts')!.eachRow((r, n) => n > 1 && conflicts.push(r.getCell(1).value));
      expect(conflicts.length).to.be.greaterThan(0);
      expect(
        conflicts.every((i) => i === 0),
        'only the screened proposal has conflicts',
      ).to.equal(true);
    });

    it('as xlsx: one Conflicts sheet with each conflict under its proposal index, and a Proposals sheet; one excel_reports', async () => {
      const c = await t.app.client();
      const { id, answers } = await finished(c);
      const res = await fetchFile(c, `/v1/reports/clearance/${id}/xlsx/`);
      expect(res.status, String(res.body)).to.equal(200);
      const wb = await workbook(res.body as Buffer);
      const ws = wb.getWorksheet('Conflicts')!;
      const expected = answers.flatMap((a) => (a.result?.results ?? []).map((r) => [a.index, r.application_number, r.risk_level]));
      const rows: unknown[][] = [];
      ws.eachRow((row, n) => n > 1 && rows.push([row.getCell(1).value, row.getCell(4).value, row.getCell(7).value]));
      expect(rows).to.deep.equal(expected);
      expect(ws.autoFilter).to.equal(`A1:R${expected.length + 1}`);
      expect(ws.views[0]).to.include({ state: 'frozen', ySplit: 1 });
      const proposals = wb.getWorksheet('Proposals')!;
      expect(proposals.rowCount).to.equal(4);
      expect(proposals.getRow(3).getCell(4).value, 'the second proposal had a logo').to.equal('yes');
      const report = new Map<string, unknown>();
      wb.getWorksheet('Report')!.eachRow((row, n) => n > 1 && report.set(String(row.getCell(1).value), row.getCell(2).value));
      expect(report.get('job_id')).to.equal(id);
      expect(report.get('proposals')).to.equal(3);
      expect(report.get('finished_at')).to.be.instanceOf(Date);
      expect(await t.app.used(c.account.accountId, 'excel_reports')).to.equal(1);
    });
  });
});

describe("a clearance PDF's bounds", () => {
  const conflict = (i: number) => ({
    application_number: String(8300000 + i),
    word_mark: `SUNRISE ${i}`,
    class_number: 30,
    status: 'Registered',
    application_date: '2020-01-01',
    proprietor_name: 'SUNRISE LTD',
    goods_services: 'bakery goods',
    logo_url: null,
    risk_level: 'High' as const,
    overall_similarity_score: 90,
    word_similarity_percentage: 90,
    phonetic_similarity_percentage: 90,
    visual_similarity_percentage: 0,
    matching_criteria: 'word' as const,
    reasons: ['related class 32 ↔ 30'],
  });
  /** A batch of `n` proposals of 10 conflicts each. */
  const report = (n: number): ClearanceReport => ({
    kind: 'batch',
    id: '00000000-0000-4000-8000-000000000009',
    title: 'bounds',
    status: 'completed',
    total: n,
    createdAt: '2026-11-26T10:00:00Z',
    finishedAt: '2026-11-26T10:01:00Z',
    generatedAt: new Date(),
    coverage: '2026-11-25T06:00:00.000Z',
    goods: async () => new Map(),
    async *proposals(): AsyncGenerator<ReportProposal> {
      for (let index = 0; index < n; index++) {
        const results = Array.from({ length: 10 }, (_, i) => conflict(index * 10 + i));
        yield {
          index,
          word_mark: `SUNRISE ${index}`,
          classes: [30],
          hasLogo: false,
          logoKey: null,
          status: ['live', 'pending'],
          risk_level: null,
          error: null,
          answer: {
            query: {
              word_mark: `SUNRISE ${index}`,
              goods_services: null,
              logo: null,
              risk_level: null,
              status: ['live', 'pending'],
              limit: 10,
              offset: 0,
            },
            classes: [30],
            classes_from_goods: null,
            registrability: { verdict: 'no_objection_found', grounds: [] },
            overall_risk: 'High',
            count: 10,
            groups: { risk_level: { High: 10, Medium: 0, Low: 0 }, class_number: [{ class_number: 30, count: 10 }] },
            results,
          },
        };
      }
    },
    logo: async () => null,
  });
  async function pdf(r: ClearanceReport, opts: Parameters<typeof writeClearancePdf>[2]): Promise<string> {
    return (await pdfText(await writtenPdf((out) => writeClearancePdf(r, out, opts)))).replace(/\s+/g, ' ');
  }

  it('draws at most its conflicts, still lists every proposal, and says how many it left out', async () => {
    const text = await pdf(report(3), { limits: { ...PDF_LIMITS, conflicts: 15 } });
    expect(text).to.contain('Proposal 3 of 3: SUNRISE 2');
    expect(text).to.contain('8300014 SUNRISE 14').and.not.contain('8300015 SUNRISE 15');
    expect(text).to.contain('15 more conflicts not drawn: a report draws at most 15. The xlsx report lists them all.');
    expect(text).to.contain('related class 32 ↔ 30');
  });

  it('prints Hindi proposals, marks and owners in an embedded Devanagari font, text that copies out', async () => {
    const r = report(1);
    const proposals = r.proposals;
    r.proposals = async function* () {
      for await (const p of proposals()) {
        const [x] = p.answer!.results;
        yield {
          ...p,
          word_mark: 'सूरज',
          answer: { ...p.answer!, results: [{ ...x, word_mark: 'सूरज भारत', proprietor_name: 'सूरज भारत (SURAJ LTD)' }] },
        };
      }
    };
    const pdf = await writtenPdf((out) => writeClearancePdf(r, out));
    const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
    expect(text).to.contain('Proposal 1 of 1: सूरज');
    expect(text).to.contain('8300000 सूरज भारत · class 30').and.contain('Owner: सूरज भारत (SURAJ LTD)');
    expect(text).to.contain('related class 32 ↔ 30');
    expect(pdf.includes('/FontFile2'), 'a font is embedded').to.equal(true);
  });

  it('ends with a note when it takes longer than its time limit', async () => {
    let now = 0;
    // A clock that moves a second each time it is read: a few pieces fit in five seconds.
    const text = await pdf(report(3), { limits: { ...PDF_LIMITS, ms: 5000 }, clock: () => (now += 1000) });
    expect(text).to.contain('Report cut short: making it took longer than 5 s.');
    expect(text).not.to.contain('Proposal 3 of 3');
  });
});
