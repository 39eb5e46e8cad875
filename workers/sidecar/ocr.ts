import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Tesseract from 'tesseract.js';

// OCR with tesseract.js, English and Devanagari, from the language data the @tesseract.js-data
// packages ship. Each package keeps its data in its own folder, and tesseract.js reads every language
// from one `langPath`: a temporary folder links to both. With a local langPath and no cache, no CDN
// is ever consulted and nothing is written beside the process.

const require = createRequire(import.meta.url);
// LSTM-only integer models: smaller and faster than the legacy+LSTM data, as accurate on printed words.
const DATA = '4.0.0_best_int';

export interface OcrResult {
  text: string;
  /** Mean word confidence, 0-100 (0 when no word was read). */
  confidence: number;
  words: { text: string; confidence: number }[];
}

/** A folder holding (links to) each language's data, as tesseract.js's langPath wants. */
function languageFolder(codes: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-tessdata-'));
  for (const code of codes) {
    const pkg = path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
    fs.symlinkSync(path.join(pkg, DATA, `${code}.traineddata.gz`), path.join(dir, `${code}.traineddata.gz`));
  }
  return dir;
}

// Words read with less confidence than this are noise in a logo (strokes taken for letters).
const MIN_WORD_CONFIDENCE = 55;

export class Ocr {
  private constructor(
    private readonly scheduler: Tesseract.Scheduler,
    readonly workers: number,
    private readonly dir: string,
  ) {}

  static async start(workers: number, languages = ['eng', 'hin']): Promise<Ocr> {
    const scheduler = Tesseract.createScheduler();
    const dir = languageFolder(languages);
    for (let i = 0; i < workers; i++) {
      const w = await Tesseract.createWorker(languages.join('+'), Tesseract.OEM.LSTM_ONLY, {
        langPath: dir,
        cacheMethod: 'none',
        gzip: true,
      });
      // Sparse text: a logo's words sit anywhere, around a picture, in no reading order.
      await w.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.SPARSE_TEXT, user_defined_dpi: '300' });
      scheduler.addWorker(w);
    }
    return new Ocr(scheduler, workers, dir);
  }

  async read(png: Buffer | Uint8Array): Promise<OcrResult> {
    const r = await this.scheduler.addJob('recognize', Buffer.from(png), {}, { blocks: true, text: true });
    const words: OcrResult['words'] = [];
    for (const b of r.data.blocks ?? []) {
      for (const p of b.paragraphs) {
        for (const l of p.lines) {
          for (const w of l.words) {
            const text = w.text.trim();
            if (text && w.confidence >= MIN_WORD_CONFIDENCE && /[\p{L}\p{N}]/u.test(text))
              words.push({ text, confidence: Math.round(w.confidence) });
          }
        }
      }
    }
    const confidence = words.length ? Math.round(words.reduce((s, w) => s + w.confidence, 0) / words.length) : 0;
    return { text: words.map((w) => w.text).join(' '), confidence, words };
  }

  async close(): Promise<void> {
    await this.scheduler.terminate();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
