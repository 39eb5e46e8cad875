import { expect } from 'chai';
import PDFDocument from 'pdfkit';
import type { JournalEntry } from '../../src/ingest/journal/layout.ts';
import { parsePage } from '../../src/ingest/journal/parse.ts';
import { JournalFileError, readPdfLines } from '../../src/ingest/journal/read.ts';
import { renderJournal } from '../../src/ingest/journal/render.ts';

// Journal pages (issue 43, the first part: docs/journal.md): a journal we render ourselves in the published layout
// (a word mark, a device mark, one with an agent and one without, a Madrid registration, goods long enough to wrap,
// conditions), read back through pdf.js field by field, exactly; a damaged page is reported with its number and the
// rest read; what is no journal PDF is refused saying why.

const base = { journal_number: '2216', publication_date: '2025-07-07' };
const ENTRIES: JournalEntry[] = [
  {
    ...base,
    class_number: 5,
    word_mark: 'DHANVANTRI CARE',
    application_number: '5895457',
    application_date: '2023-04-17',
    international_registration: null,
    proprietor: {
      name: 'DHANVANTRI HEALTHCARE PRIVATE LIMITED',
      address: ['PLOT NO. 14, MIDC AREA, ANDHERI (EAST)', 'MUMBAI - 400093, MAHARASHTRA'],
      kind: 'Private Limited Company',
    },
    agent: { name: 'R. K. DEWAN & CO.', address: ['PODAR CHAMBERS, S. A. BRELVI ROAD, FORT, MUMBAI - 400001'] },
    used_since: '2013-09-25',
    office: 'MUMBAI',
    goods_services:
      'Pharmaceutical and veterinary preparations; sanitary preparations for medical purposes; dietetic food and substances ' +
      'adapted for medical use; food for babies; dietary supplements for humans and animals; plasters, materials for dressings.',
    conditions: ['NO RIGHT TO THE EXCLUSIVE USE OF THE WORD CARE.'],
  },
  {
    ...base,
    class_number: 30,
    word_mark: null,
    application_number: '5901122',
    application_date: '2023-05-02',
    international_registration: null,
    proprietor: {
      name: 'RAMESH KUMAR GUPTA TRADING AS GUPTA SWEETS',
      address: ['12, CHANDNI CHOWK, DELHI - 110006'],
      kind: 'PROPRIETORSHIP',
    },
    agent: null,
    used_since: null,
    office: 'DELHI',
    goods_services: 'Sweets, namkeen, biscuits and confectionery.',
    conditions: ['Applicant claims rights in all colours as shown in the label.', 'Device of a lamp.'],
  },
  {
    ...base,
    class_number: 9,
    word_mark: 'NORDLICHT',
    application_number: '1623344',
    application_date: '2021-11-30',
    international_registration: '1623344',
    proprietor: { name: 'NORDLICHT TECHNIK GMBH', address: ['HAUPTSTRASSE 5, 80331 MÜNCHEN, GERMANY'], kind: 'Body Incorporate' },
    agent: { name: 'LALL & SETHI', address: ['D-17, N.D.S.E.-II, NEW DELHI - 110049'] },
    used_since: null,
    office: 'DELHI',
    goods_services: 'Scientific and electric apparatus; computer software.',
    conditions: [],
  },
];

describe('journal pages: the published layout read back', () => {
  it('reads each field of each entry exactly, and reports a damaged page by its number', async () => {
    const pdf = await renderJournal(ENTRIES, { damaged: [3] });
    const pages = await readPdfLines(pdf);
    expect(pages).to.have.length(4);
    const results = pages.map((lines, i) => parsePage(i + 1, lines));
    expect(results[2]).to.deep.equal({
      page: 3,
      refused: 'no journal header (Trade Marks Journal No: …, date, class) at the top of the page',
    });
    const read = results.filter((r) => 'entry' in r).map((r) => (r as { entry: JournalEntry }).entry);
    expect(read).to.deep.equal(ENTRIES);
  });

  it('refuses what is no journal PDF, saying why', async () => {
    const refusal = async (data: Buffer) => {
      try {
        await readPdfLines(data);
      } catch (err) {
        expect(err).to.be.instanceOf(JournalFileError);
        return (err as Error).message;
      }
      expect.fail('read');
    };
    expect(await refusal(Buffer.from('hello, not a journal'))).to.match(/^not a PDF/);
    const pdf = await renderJournal(ENTRIES);
    expect(await refusal(pdf.subarray(0, Math.floor(pdf.length / 3)))).to.match(/truncated or damaged$/);
    const locked = new PDFDocument({ userPassword: 'secret', pdfVersion: '1.7' });
    const chunks: Buffer[] = [];
    locked.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise((resolve) => locked.on('end', resolve));
    locked.text('Trade Marks Journal No: 2216 , 07/07/2025    Class 1');
    locked.end();
    await ended;
    expect(await refusal(Buffer.concat(chunks))).to.match(/^the PDF is encrypted/);
  });
});
