import { expect } from 'chai';
import PDFDocument from 'pdfkit';
import type { JournalEntry } from '../../src/ingest/journal/layout.ts';
import { parsePage } from '../../src/ingest/journal/parse.ts';
import { JournalFileError, readPdf, readPdfLines } from '../../src/ingest/journal/read.ts';
import { renderJournal } from '../../src/ingest/journal/render.ts';
import { ENTRIES, printed } from '../helpers/journal.ts';

// Journal pages (issue 43, the first part: docs/journal.md): a journal we render ourselves in the published layout
// (a word mark, a device mark, one with an agent and one without, a Madrid registration, goods long enough to wrap,
// conditions), read back through pdf.js field by field, exactly; a damaged page is reported with its number and the
// rest read; what is no journal PDF is refused saying why.

describe('journal pages: the published layout read back', () => {
  it('reads each field of each entry exactly, and reports a damaged page by its number', async () => {
    const pdf = await renderJournal(await printed(), { damaged: [3] });
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

  it("takes the device mark's image from its page, and no image from the pages without one", async () => {
    const pages = await readPdf(await renderJournal(await printed()));
    expect(pages.map((p) => p.images.length)).to.deep.equal([0, 1, 0]);
    const [image] = pages[1].images;
    expect(image).to.deep.include({ width: 96, height: 72 });
    // The disc's centre is red, its corner white, whatever the channels the PDF stored.
    const at = (x: number, y: number) => Array.from(image.data.subarray((y * 96 + x) * image.channels, (y * 96 + x + 1) * image.channels));
    expect(at(48, 36).slice(0, 3)).to.deep.equal([200, 30, 30]);
    expect(at(2, 2).slice(0, 3)).to.deep.equal([255, 255, 255]);
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
