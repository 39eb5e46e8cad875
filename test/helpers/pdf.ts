import { PDFParse } from 'pdf-parse';

/** The text of a PDF, as a reader would copy it out. */
export async function pdfText(buf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: buf });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}
