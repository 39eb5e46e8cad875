import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import express from 'express';
import sharp from 'sharp';
import request from 'supertest';
import { REPORT_LIMITS, type TrademarkReport, writeTrademarkPdf } from '../../src/documents/pdfReport.ts';
import { ReportService } from '../../src/documents/reportService.ts';
import { errorHandler } from '../../src/http/errorHandler.ts';
import { reportRoutes } from '../../src/http/routes/reports.ts';
import { OwnerRepository } from '../../src/owners/repository.ts';
import { SearchCache } from '../../src/search/cache.ts';
import { SearchService } from '../../src/search/service.ts';
import type { DetailRow } from '../../src/trademarks/repository.ts';
import { TrademarkRepository } from '../../src/trademarks/repository.ts';
import type { Client } from '../helpers/app.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { binary } from '../helpers/http.ts';
import { insertMarks, SEARCH_RESULT_FIELDS } from '../helpers/marks.ts';
import { pdfText, writtenPdf } from '../helpers/pdf.ts';
import { seedRegistry } from '../helpers/seed.ts';
import { standInApi } from '../helpers/standIn.ts';

async function workbook(buf: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb;
}

const fetchFile = (c: Pick<Client, 'get'>, path: string) => c.get(path).buffer(true).parse(binary);

/** The Search sheet as parameter → value. */
function searchSheet(wb: ExcelJS.Workbook): Map<string, unknown> {
  const meta = new Map<string, unknown>();
  wb.getWorksheet('Search')!.eachRow((row, n) => n > 1 && meta.set(String(row.getCell(1).value), row.getCell(2).value));
  return meta;
}

describe('reports: a trademark as PDF, a search as xlsx', () => {
  let t: TestApp;
  const MARKS = 2300;
  const ZENITH = 10_050;

  before(async () => {
    t = await createTestApp();
    await seedRegistry(t.deps.db);
    // Enough SUNRISE marks that an export reads several pages of the search.
    await insertMarks(
      t.deps.db,
      Array.from({ length: MARKS }, (_, i) => ({
        app: String(5_000_000 + i),
        mark: `SUNRISE ${['TEA', 'RICE', 'SOAP', 'GOLD'][i % 4]} ${i}`,
        cls: 29 + (i % 3),
        status: i % 5 ? 'Registered' : 'Objected',
        state: i % 2 ? 'KERALA' : 'GOA',
      })),
    );
    // More ZENITH marks than an export may hold.
    for (let i = 0; i < ZENITH; i += 2000) {
      await insertMarks(
        t.deps.db,
        Array.from({ length: Math.min(2000, ZENITH - i) }, (_, k) => ({ app: String(6_000_000 + i + k), mark: `ZENITH ${i + k}` })),
      );
    }
    const logo = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .png()
      .toBuffer();
    await t.deps.db('logos').insert({ application_number: '4000001', object_key: 'logos/4000001.png' });
    await t.deps.store.put('logos/4000001.png', logo);
  });
  after(async () => t.close());

  it('makes a PDF of one mark with its core data, logo and linked tables, and charges one pdf_reports', async () => {
    const c = await t.client();
    const res = await fetchFile(c, '/v1/reports/trademarks/4000001/pdf/');
    expect(res.status, String(res.body)).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/pdf');
    expect(res.headers['content-disposition']).to.equal('attachment; filename="4000001 SUNRISE FOODS report.pdf"');
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
    const text = await pdfText(pdf);
    for (const s of [
      'Trade mark 4000001',
      'SUNRISE FOODS',
      'Registered',
      '2019-04-12',
      '12/04/2029',
      'tea, coffee', // core data
      '2019-04-12 New Application',
      '2020-01-10 New Application -> Registered', // status history, the first without a status before it
      'SUNRISE AGRO PRIVATE LIMITED, Company', // proprietor
      'OPP-900001 filed 2019-10-01 by SUNSHINE FOODS LTD', // opposition
      'Show Cause',
      'https://vc.example.in/r/61', // hearing
      'Section 11(1)', // examination report
      '2019-06-01 Examination Report: Examination Report (document 71)',
      'TM-O: Notice of Opposition (document 72, opposition 51)', // documents
    ])
      expect(text, s).to.contain(s);
    expect(text).to.not.contain('- ->');
    expect(pdf.includes('/Subtype /Image'), 'the logo is embedded').to.equal(true);
    expect(await t.used(c.account.accountId, 'pdf_reports')).to.equal(1);
    expect(await t.used(c.account.accountId, 'api_calls')).to.equal(0);
  });

  it('prints a Hindi mark and proprietor in an embedded Devanagari font, text that copies out', async () => {
    await insertMarks(t.deps.db, [{ app: '4300001', mark: 'सूरज', owner: 'सूरज भारत (SURAJ FOODS)' }]);
    await t.deps.db('status_history').insert({
      id: 43_000,
      application_number: '4300001',
      old_status: 'नया आवेदन',
      new_status: 'Registered',
      changed_at: '2020-01-01T00:00:00Z',
    });
    const res = await fetchFile(await t.client(), '/v1/reports/trademarks/4300001/pdf/');
    expect(res.status).to.equal(200);
    const pdf = res.body as Buffer;
    const text = (await pdfText(pdf)).replace(/[ \t]+/g, ' ');
    expect(text).to.contain('Trade mark 4300001\nसूरज\n');
    expect(text).to.contain('Word mark सूरज').and.contain('Proprietor सूरज भारत (SURAJ FOODS)');
    expect(text).to.contain('2020-01-01 नया आवेदन -> Registered');
    // Embedded, and as a subset: the whole font is 68 KB.
    expect(pdf.includes('/FontFile2'), 'a font is embedded').to.equal(true);
    expect(pdf.length).to.be.below(40_000);
  });

  it('embeds no font in a report all in Latin letters', async () => {
    const res = await fetchFile(await t.client(), '/v1/reports/trademarks/4000001/pdf/');
    expect(res.status).to.equal(200);
    expect((res.body as Buffer).includes('/FontFile2')).to.equal(false);
  });

  it('leaves out the sections the plan does not open, and says so', async () => {
    const c = await t.without('cat_oppositions', 'cat_documents');
    const res = await fetchFile(c, '/v1/reports/trademarks/4000001/pdf/');
    expect(res.status).to.equal(200);
    const text = await pdfText(res.body as Buffer);
    expect(text).to.contain('Not on your plan (cat_oppositions).').and.contain('Not on your plan (cat_documents).');
    expect(text).not.to.contain('OPP-900001').and.not.to.contain('document 71');
    expect(text).to.contain('Show Cause');
  });

  it('cuts a 10 MB goods description and rows past the size limit, saying so, and stays small', async function () {
    this.timeout(60_000);
    // Written straight to the table: the importer refuses such values (docs/ingest.md#limits).
    await insertMarks(t.deps.db, [{ app: '4100001', mark: 'HUGE GOODS' }]);
    await t.deps
      .db('trademarks')
      .where({ application_number: '4100001' })
      .update({ goods_services: 'G'.repeat(10_000_000) });
    await t.deps.db('status_history').insert(
      Array.from({ length: 400 }, (_, i) => ({
        id: 41_000 + i,
        application_number: '4100001',
        new_status: `STATUS${i} ${'s'.repeat(1000)}`,
        changed_at: '2020-01-01T00:00:00Z',
      })),
    );
    const res = await fetchFile(await t.client(), '/v1/reports/trademarks/4100001/pdf/');
    expect(res.status).to.equal(200);
    const pdf = res.body as Buffer;
    expect(pdf.length).to.be.below(3 << 20);
    const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
    expect(text).to.contain(`[shortened: the first ${REPORT_LIMITS.value.toLocaleString('en')} of 10,000,000 characters]`);
    expect(text)
      .to.contain('STATUS0 ')
      .and.to.match(/… [\d,]+ more not printed: the report's size limit was reached\./);
    expect(text).not.to.contain('STATUS399 ');
  });

  /** A mark of `rows` status history entries, counting how many of them the report has read. */
  function countedReport(rows: number): { report: TrademarkReport; read: () => number } {
    let read = 0;
    const history = Array.from({ length: rows }, (_, i) => ({ changed_at: '2020-01-01T00:00:00Z', old_status: null, new_status: `S${i}` }));
    const mark = {
      application_number: '4200001',
      word_mark: 'COUNTED',
      class_number: 30,
      status: 'Registered',
      application_date: '2020-01-01',
      vienna_codes: [],
      journal: null,
      goods_services: 'tea',
      logo_key: null,
      status_history: new Proxy(history, {
        get: (a, k) => {
          if (typeof k === 'string' && /^\d+$/.test(k)) read++;
          return Reflect.get(a, k);
        },
      }),
    } as unknown as DetailRow;
    return { report: { mark, omitted: [], logo: null, generatedAt: new Date(0) }, read: () => read };
  }

  it('stops making a report as soon as its reader goes away', async () => {
    const { report, read } = countedReport(5000);
    // A reader that leaves after the first bytes.
    const out = new Writable({
      write(_chunk, _enc, cb) {
        cb();
        this.destroy();
      },
    });
    const err = await writeTrademarkPdf(report, out).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).to.equal('the client went away: report abandoned');
    expect(read()).to.be.below(5000);
    // Read to the end, the same report reads every row.
    const whole = countedReport(5000);
    await writeTrademarkPdf(whole.report, new Writable({ write: (_c, _e, cb) => cb() }));
    expect(whole.read()).to.equal(5000);
  });

  it('stops making a PDF when the HTTP client disconnects mid-file', async function () {
    this.timeout(30_000);
    const { report, read } = countedReport(5000);
    let writing: Promise<unknown> | undefined;
    const service = new ReportService(
      { detail: async () => report.mark } as unknown as TrademarkRepository,
      {} as SearchService,
      t.deps.store,
    );
    const stub = {
      trademarkPdf: async (...args: Parameters<ReportService['trademarkPdf']>) => {
        const file = await service.trademarkPdf(...args);
        return { ...file, write: (out: Writable) => (writing = Promise.resolve(file.write(out))) };
      },
    } as unknown as ReportService;
    const { api, router } = standInApi(t, { ipPerMinute: 1000, keyPerSecond: 1000, publicSearchPerHour: 60 });
    reportRoutes(api, { reports: stub });
    const server = http.createServer(express().use(router).use(errorHandler(t.deps.log))).listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const c = await t.client();
      await new Promise<void>((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port: (server.address() as AddressInfo).port,
            path: '/v1/reports/trademarks/4200001/pdf/',
            headers: { 'X-API-Key': c.account.key },
          },
          (res) => {
            expect(res.statusCode).to.equal(200);
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          },
        );
        req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
      });
      const err = await writing!.then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).to.equal('the client went away: report abandoned');
      expect(read()).to.be.below(5000);
    } finally {
      server.close();
    }
  });

  it('ends a report that takes longer than its time limit with a note', async () => {
    const { report, read } = countedReport(50);
    let now = 0;
    // A clock that moves one second each time it is read: five pieces of the report fit in five seconds.
    const pdf = await writtenPdf((out) =>
      writeTrademarkPdf(report, out, { limits: { ...REPORT_LIMITS, ms: 5000 }, clock: () => (now += 1000) }),
    );
    const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
    expect(text).to.contain('Application number').and.to.contain('Report cut short: making it took longer than 5 s.');
    expect(text).not.to.contain('Goods and services');
    expect(read()).to.equal(0);
  });

  it('answers 404 for an unknown mark, 400 for a bad number, and neither costs a credit', async () => {
    const c = await t.client();
    expect((await c.get('/v1/reports/trademarks/9999999/pdf/')).status).to.equal(404);
    const bad = await c.get('/v1/reports/trademarks/abc/pdf/');
    expect(bad.status).to.equal(400);
    expect(bad.body.details[0].parameter).to.equal('app_no');
    expect(await t.used(c.account.accountId, 'pdf_reports')).to.equal(0);
  });

  it('refuses reports with 429 once pdf_reports or excel_reports is spent', async () => {
    const c = await t.client({ quotas: { pdf_reports: 1, excel_reports: 1 } });
    expect((await fetchFile(c, '/v1/reports/trademarks/4000002/pdf/')).status).to.equal(200);
    const pdf = await c.get('/v1/reports/trademarks/4000002/pdf/');
    expect(pdf.status).to.equal(429);
    expect(pdf.body).to.include({ code: 'quota_exceeded' });
    expect(pdf.body.details).to.include({ resource: 'pdf_reports', limit: 1, remaining: 0 });
    expect((await fetchFile(c, '/v1/reports/search/xlsx/?word_mark=SUNRYZE&max_rows=5')).status).to.equal(200);
    const xlsx = await c.get('/v1/reports/search/xlsx/?word_mark=SUNRYZE');
    expect(xlsx.status).to.equal(429);
    expect(xlsx.body.details).to.include({ resource: 'excel_reports' });
    expect(await t.used(c.account.accountId, 'excel_reports')).to.equal(1);
  });

  it("exports a search as xlsx: every result field in result order, a groups sheet, and the search's parameters", async () => {
    const c = await t.client();
    const res = await fetchFile(c, '/v1/reports/search/xlsx/?word_mark=sunrise&classes=29,30,31');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).to.equal('attachment; filename="search sunrise.xlsx"');
    const wb = await workbook(res.body as Buffer);
    expect(wb.worksheets.map((w) => w.name)).to.deep.equal(['Results', 'Groups', 'Search']);
    const sheet = wb.getWorksheet('Results')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).to.deep.equal(SEARCH_RESULT_FIELDS);

    const api = await c.get('/v1/trademarks/?word_mark=sunrise&classes=29,30,31&limit=100');
    const count = api.body.count as number;
    expect(count).to.be.greaterThan(MARKS);
    expect(sheet.rowCount - 1).to.equal(count);
    // The first hundred rows are the API's first page, field for field.
    for (let i = 0; i < 100; i++) {
      const row = sheet.getRow(i + 2);
      const r = api.body.results[i];
      // An empty text cell reads back as no value.
      const cells = header.map((_h, k) => row.getCell(k + 1).value ?? '');
      expect(cells, `row ${i}`).to.deep.equal(header.map((h) => r[h as string] ?? ''));
    }
    // And the rows past the first page of the export are the search's later pages (no repeats, none missing).
    const apps = new Set<string>();
    sheet.eachRow((row, n) => n > 1 && apps.add(String(row.getCell(1).value)));
    expect(apps.size).to.equal(count);

    const groups = wb.getWorksheet('Groups')!;
    const byFacet = new Map<string, number>();
    groups.eachRow((row, n) => {
      if (n === 1) return;
      const facet = String(row.getCell(1).value);
      byFacet.set(facet, (byFacet.get(facet) ?? 0) + Number(row.getCell(3).value));
    });
    expect(byFacet.get('class_number')).to.equal(count);
    expect(byFacet.get('status')).to.equal(count);
    const kerala = api.body.groups.state.find((b: Record<string, number>) => 'KERALA' in b).KERALA;
    let found = 0;
    groups.eachRow((row) => {
      if (row.getCell(1).value === 'state' && row.getCell(2).value === 'KERALA') found = Number(row.getCell(3).value);
    });
    expect(found).to.equal(kerala);

    const meta = searchSheet(wb);
    expect(meta.get('word_mark')).to.equal('sunrise');
    expect(meta.get('classes')).to.equal('29,30,31');
    expect(meta.get('count')).to.equal(count);
    expect(meta.get('rows')).to.equal(count);
    expect(await t.used(c.account.accountId, 'excel_reports')).to.equal(1);
  });

  /** A fresh client's export of a search, read back. */
  async function exported(query: string): Promise<{ c: Client; wb: ExcelJS.Workbook }> {
    const c = await t.client();
    const res = await fetchFile(c, `/v1/reports/search/xlsx/?${query}`);
    expect(res.status).to.equal(200);
    return { c, wb: await workbook(res.body as Buffer) };
  }

  it('exports at most 10,000 rows, and says how many matched', async () => {
    const { c, wb } = await exported('word_mark=ZENITH&match_type=SMART');
    expect(wb.getWorksheet('Results')!.rowCount - 1).to.equal(10_000);
    const meta = searchSheet(wb);
    const api = await c.get('/v1/trademarks/?word_mark=ZENITH&limit=1');
    expect(api.body.count).to.be.at.least(ZENITH);
    expect(meta.get('count')).to.equal(api.body.count);
    expect(meta.get('rows')).to.equal(10_000);
  });

  it('pages through the search without filling the search cache', async () => {
    const keys = () => t.deps.redis.keys(`${t.deps.config.RATE_LIMIT_PREFIX}:search:*`);
    const before = (await keys()).length;
    await exported('word_mark=ZENITHS&match_type=SMART&max_rows=3000'); // a search no other test made
    expect((await keys()).length).to.equal(before);
    // The same search asked through the API is cached (written after the answer), so the count above could have moved.
    await (await t.client()).get('/v1/trademarks/?word_mark=ZENITHS&limit=3');
    for (let i = 0; i < 100 && (await keys()).length === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await keys()).length).to.equal(before + 1);
  });

  it('gives the credit back when an export fails after it has begun', async () => {
    // The search fails on its second page, after the first rows are on their way to the client.
    const real = new SearchService(
      t.deps.search,
      new TrademarkRepository(t.deps.db),
      new SearchCache(t.deps.redis, 'test-export', 0, t.deps.log),
      new OwnerRepository(t.deps.db),
    );
    const failing = {
      async search(p: Parameters<SearchService['search']>[0]) {
        if (p.cursor) throw new Error('the index went away');
        return { ...(await real.search(p)), next_cursor: 'more' };
      },
    };
    const { api, router } = standInApi(t, { ipPerMinute: 1000, keyPerSecond: 1000, publicSearchPerHour: 60 });
    reportRoutes(api, {
      reports: new ReportService(new TrademarkRepository(t.deps.db), failing as unknown as SearchService, t.deps.store),
    });
    const app = express().use(router).use(errorHandler(t.deps.log));
    const c = await t.client();
    const res = await request(app)
      .get('/v1/reports/search/xlsx/?word_mark=SUNRISE&max_rows=2000')
      .set('X-API-Key', c.account.key)
      .buffer(true)
      .parse(binary)
      .then(
        () => null,
        (err: Error) => err,
      );
    // The headers had gone out: the connection is cut, so the client sees a broken transfer, never a short file.
    expect(res).to.be.instanceOf(Error);
    expect(await t.used(c.account.accountId, 'excel_reports')).to.equal(0);
  });

  it('stops at max_rows, and refuses more than 10,000 or a bad search with 400 at no cost', async () => {
    const { c, wb } = await exported('word_mark=SUNRISE&max_rows=1500&status=objected');
    const sheet = wb.getWorksheet('Results')!;
    expect(sheet.rowCount - 1).to.equal(Math.min(1500, MARKS / 5));
    sheet.eachRow((row, n) => n > 1 && expect(row.getCell(4).value).to.equal('Objected'));
    for (const [q, param] of [
      ['word_mark=SUNRISE&max_rows=10001', 'max_rows'],
      ['word_mark=SUNRISE&max_rows=0', 'max_rows'],
      ['word_mark=SUNRISE&status=Nonsense', 'status'],
      ['max_rows=5', 'word_mark'],
    ]) {
      const bad = await c.get(`/v1/reports/search/xlsx/?${q}`);
      expect(bad.status, q).to.equal(400);
      expect(
        bad.body.details.map((d: { parameter: string }) => d.parameter),
        q,
      ).to.deep.equal([param]);
    }
    expect(await t.used(c.account.accountId, 'excel_reports')).to.equal(1);
  });
});
