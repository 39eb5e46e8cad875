import PDFDocument from 'pdfkit';
import { dmyOf, type PrintedEntry, SIZES } from './layout.ts';

// A journal written in the published layout (src/ingest/journal/layout.ts): the test journals, and the demo's delta as
// a journal a new user can import. One entry per page; `damaged` pages carry text that is no entry.

export interface RenderOptions {
  /** Page numbers (1-based) to write as a page no entry can be read from, in place of nothing. */
  damaged?: number[];
}

export async function renderJournal(entries: PrintedEntry[], opts: RenderOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 48, autoFirstPage: false, info: { Title: 'Trade Marks Journal' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  const line = (text: string, size: number, font = 'Helvetica', gap = 2) => {
    doc.font(font).fontSize(size).text(text, { lineGap: 0 });
    doc.moveDown(gap / size);
  };
  const pages = entries.length + (opts.damaged?.length ?? 0);
  let next = 0;
  for (let page = 1; page <= pages; page++) {
    doc.addPage();
    if (opts.damaged?.includes(page)) {
      line('%%%% unreadable scan %%%%', SIZES.body);
    } else {
      const e = entries[next++];
      line(`Trade Marks Journal No: ${e.journal_number} , ${dmyOf(e.publication_date)}    Class ${e.class_number}`, SIZES.header);
      doc.moveDown(0.5);
      if (e.word_mark) line(e.word_mark, SIZES.wordMark, 'Helvetica-Bold', 6);
      if (e.image) {
        doc.image(e.image, { fit: [160, 120] });
        doc.moveDown(0.5);
      }
      line(`${e.application_number}    ${dmyOf(e.application_date)}`, SIZES.appLine, 'Helvetica-Bold');
      if (e.international_registration) line(`[International Registration No. : ${e.international_registration}]`, SIZES.body);
      line(e.proprietor.name, SIZES.name, 'Helvetica-Bold');
      for (const a of e.proprietor.address) line(a, SIZES.body);
      line(e.proprietor.kind, SIZES.body, 'Helvetica-Oblique');
      if (e.agent) {
        line('Address for service in India/Attorney address:', SIZES.body, 'Helvetica-Bold');
        line(e.agent.name, SIZES.name, 'Helvetica-Bold');
        for (const a of e.agent.address) line(a, SIZES.body);
      }
      line(e.used_since ? `Used Since :${dmyOf(e.used_since)}` : 'Proposed to be Used', SIZES.body);
      line(e.office, SIZES.body);
      doc.moveDown(0.3);
      doc.font('Helvetica').fontSize(SIZES.body).text(e.goods_services, { lineGap: 0 });
      for (const c of e.conditions) line(c, SIZES.conditions, 'Helvetica-Oblique', 4);
    }
    // The page number, in the footer band the reader leaves out.
    doc
      .font('Helvetica')
      .fontSize(SIZES.footer)
      .text(String(page), 48, doc.page.height - 40, { lineBreak: false });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
