import { Writable } from 'node:stream';
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

/** The bytes a report writer streams into its output, once the output has finished. */
export async function writtenPdf(write: (out: Writable) => Promise<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  const done = new Promise((resolve) => out.once('finish', resolve));
  await write(out);
  await done;
  return Buffer.concat(chunks);
}
