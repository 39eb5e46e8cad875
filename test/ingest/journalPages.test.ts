import { expect } from 'chai';
import PDFDocument from 'pdfkit';
import type { JournalEntry } from '../../src/ingest/journal/layout.ts';
import { placeOf, tradingAs } from '../../src/ingest/journal/parties.ts';
import { JournalFileError, readPdf } from '../../src/ingest/journal/read.ts';
import { readJournal } from '../../src/ingest/journal/readJournal.ts';
import { renderJournal } from '../../src/ingest/journal/render.ts';
import { CORRECTIONS, JOURNAL, journalParts, READ_ENTRIES } from '../helpers/journal.ts';

// Journal pages (issue 43: docs/journal.md): a journal we render ourselves in the published layout, every kind of page
// in it, read back through pdf.js into the records written by hand in test/helpers/journal.ts, exactly; what is no
// journal PDF is refused saying why.

describe('journal pages: the published layout read back', () => {
  let read: Awaited<ReturnType<typeof readJournal>>;
  before(async function () {
    this.timeout(60_000);
    read = await readJournal(await renderJournal(JOURNAL, await journalParts()));
  });

  it('reads every field of every entry exactly, long goods over two pages, whatever the section and script', () => {
    expect(read).to.deep.include({ ...JOURNAL, pages: 19 });
    const images = read.entries.map((e) => (e.image ? 'image' : null));
    expect(images).to.deep.equal([null, null, 'image', null, 'image', null, null, null, null]);
    const expected = READ_ENTRIES().map((e) => ({ ...e, image: undefined }));
    expect(read.entries.map((e) => ({ ...e, image: undefined }))).to.deep.equal(expected);
  });

  it('reads the corrigenda and both lists, counts the pages it does not take in, and reports the damaged page', () => {
    expect(read.corrigenda).to.deep.equal(CORRECTIONS.map((c) => ({ ...c, page: 15 })));
    expect(read.registered).to.deep.equal([
      { application_number: '4100003', class_number: null, date: null, page: 17 },
      { application_number: '9999999', class_number: null, date: null, page: 17 },
    ]);
    expect(read.renewed).to.deep.equal([{ application_number: '4100002', class_number: 25, date: '2029-04-13', page: 18 }]);
    // The cover before the journal proper, and the post-registration section.
    expect(read.skipped).to.equal(2);
    expect(read.refused).to.deep.equal([{ page: 6, reason: 'no application number and filing date after the word mark' }]);
  });

  it("takes a device or label mark's image from its page", async () => {
    const [image] = (await readPdf(await renderJournal(JOURNAL, (await journalParts()).slice(5, 6))))[0].images;
    expect(image).to.deep.include({ width: 96, height: 72 });
    // The disc's centre is red, its corner white, whatever the channels the PDF stored.
    const at = (x: number, y: number) => Array.from(image.data.subarray((y * 96 + x) * image.channels, (y * 96 + x + 1) * image.channels));
    expect(at(48, 36).slice(0, 3)).to.deep.equal([200, 30, 30]);
    expect(at(2, 2).slice(0, 3)).to.deep.equal([255, 255, 255]);
  });

  it('reads a proprietor into the person, the name traded under, the state and the country', () => {
    expect(tradingAs('MR MOMNAYA N CHOUHAN trading as ;MAHESH ENTERPRISES')).to.deep.equal({
      person: 'MR MOMNAYA N CHOUHAN',
      trading_as: 'MAHESH ENTERPRISES',
      printed: 'MR MOMNAYA N CHOUHAN trading as MAHESH ENTERPRISES',
    });
    expect(tradingAs('MRS. ROHINI UMESH PATIL TRADING AS MANISHA AGRO SCIENCES').trading_as).to.equal('MANISHA AGRO SCIENCES');
    expect(tradingAs('VOXNAT ORGANIC BIO FERTILIZER PVT. LTD.').trading_as).to.equal(null);
    const cases: [string, string | null, string][] = [
      ['SEC NO. 11, LC-2, GEET SIDDHI, PUNE, MAHARASHTRA - 412105', 'MAHARASHTRA', 'India'],
      ['SURVEY NO 27 P, VILLAGE PLOTING AREA, AT ANADA, JAMNAGAR- 361210', 'GUJARAT', 'India'],
      ['OFFICE NO. 380- III, G.S.C. SECTOR-29, NOIDA, G.B. NAGAR, (U.P.)', 'UTTAR PRADESH', 'India'],
      ['415, Plot No.17/A, IDA Jeedimetla, Hyderabad – 500 055, Telangana, India.', 'TELANGANA', 'India'],
      ['PUNJAB NATIONAL BANK BUILDING, NARIMAN POINT, MUMBAI 400021', 'MAHARASHTRA', 'India'],
      ['SUITE NO 27 C & D, 168 THAMBU CHETTY STREET, CHENNAI-600 001.', 'TAMIL NADU', 'India'],
      ['57, Nishi Aketa-cho, Minami-ku, Kyoto-shi, Kyoto 601-8045 Japan', null, 'Japan'],
      ['151 Oyster Point Boulevard, South San Francisco, California 94080, United States of America .', null, 'United States of America'],
      ['NEAR THE OLD TEMPLE', null, 'India'],
    ];
    for (const [address, state, country] of cases) expect(placeOf(address), address).to.deep.equal({ state, country });
  });

  it('refuses what is no journal PDF, saying why', async () => {
    const refusal = async (data: Buffer) => {
      try {
        await readJournal(data);
      } catch (err) {
        expect(err).to.be.instanceOf(JournalFileError);
        return (err as Error).message;
      }
      expect.fail('read');
    };
    expect(await refusal(Buffer.from('hello, not a journal'))).to.match(/^not a PDF/);
    const pdf = await renderJournal(JOURNAL, (await journalParts()).slice(2, 4));
    expect(await refusal(pdf.subarray(0, Math.floor(pdf.length / 3)))).to.match(/truncated or damaged$/);
    expect(await refusal(await renderJournal(JOURNAL, [{ kind: 'front', text: 'The Patent Office Journal' }]))).to.match(
      /another publication\?$/,
    );
    const [, , first, second] = await journalParts();
    const later = { ...(second as { entry: JournalEntry }).entry, journal_number: '2217', publication_date: '2025-07-14' };
    expect(await refusal(await renderJournal(JOURNAL, [first, { kind: 'entry', entry: later }]))).to.equal(
      'pages of two journals (No. 2216 and No. 2217) in one file',
    );
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
