import { Writable } from 'node:stream';
import { expect } from 'chai';
import PDFDocument from 'pdfkit';
import { heightOf, registerFonts, runs, write } from '../../src/documents/pdfFonts.ts';

/** The glyph names a document's font has embedded (pdfkit keeps the subset's glyph ids on the font it opened). */
function embedded(doc: PDFKit.PDFDocument, name: string): string[] {
  const font = (doc as unknown as { _fontFamilies: Record<string, { font: Font; subset: { glyphs: number[] } }> })._fontFamilies[name];
  return font.subset.glyphs.map((id) => font.font.getGlyph(id).name);
}
type Font = { getGlyph(id: number): { name: string } };

function document(): PDFKit.PDFDocument {
  const doc = new PDFDocument({ size: 'A4', margin: 50 });
  registerFonts(doc);
  doc.pipe(new Writable({ write: (_c, _e, cb) => cb() }));
  return doc;
}

describe('PDF fonts: a run per font that has the letters', () => {
  it('keeps Latin-1 in Helvetica, and puts Devanagari, other Latin letters and arrows in the Noto fonts', () => {
    expect(runs('SUNRISE FOODS, café “tea” – 10€', 'regular')).to.deep.equal([
      { font: 'Helvetica', text: 'SUNRISE FOODS, café “tea” – 10€' },
    ]);
    expect(runs('Word: सूरज भारत (SURAJ) ↔ x', 'bold')).to.deep.equal([
      { font: 'Helvetica-Bold', text: 'Word: ' },
      { font: 'noto-devanagari-700', text: 'सूरज भारत ' },
      { font: 'noto-latin-700', text: '(SURAJ) ' },
      { font: 'noto-math', text: '↔' },
      { font: 'Helvetica-Bold', text: ' x' },
    ]);
    // Śrī in one family; in italic the Latin after a Hindi word goes back to the slanted Helvetica.
    expect(runs('Śrī', 'regular').map((r) => r.font)).to.deep.equal(['noto-latin-ext-400', 'noto-latin-400', 'noto-latin-ext-400']);
    expect(runs('word सूरज; alike', 'italic').map((r) => r.font)).to.deep.equal([
      'Helvetica-Oblique',
      'noto-devanagari-400',
      'Helvetica-Oblique',
    ]);
    // A letter no font has is the missing-glyph box of the Devanagari font, not a stray Latin letter.
    expect(runs('ஆ', 'regular')).to.deep.equal([{ font: 'noto-devanagari-400', text: 'ஆ' }]);
  });

  it('shapes Devanagari: a conjunct is one glyph and the i sign its own form', () => {
    const doc = document();
    write(doc.fontSize(9), 'क्षत्रिय', 'regular', 50, 50, { width: 400 });
    const glyphs = embedded(doc, 'noto-devanagari-400');
    expect(glyphs).to.include('uni0915094D0937').and.include('uni0924094D0930'); // क्ष and त्र
    expect(glyphs.some((g) => g.startsWith('uni093F.'))).to.equal(true); // ि, sized to the conjunct it stands before
    doc.end();
  });

  it('measures a mixed paragraph as it draws it', () => {
    const doc = document().fontSize(9);
    const s = `${'सूरज SURAJ क्षत्रिय ↔ '.repeat(12)}end`;
    const h = heightOf(doc, s, 'regular', { width: 200 });
    const top = doc.y;
    write(doc, s, 'regular', 50, top, { width: 200 });
    expect(doc.y - top).to.be.closeTo(h, 0.01);
    expect(h).to.be.above(3 * 9);
    doc.end();
  });
});
