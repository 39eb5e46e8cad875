import sharp from 'sharp';
import type { Decoded } from '../../src/logos/pixels/image.ts';

// Tesseract reads words best when letters are 20-40 px tall: small logos are enlarged (up to four
// times, towards 600 px on the longer side), and a margin of the corner's grey keeps letters off the edge.
// The embedding threads prepare every logo the sidecar reads with it; the OCR bench reads its logos the same way.

/** A decoded logo as the OCR is given it: grey, upscaled, with a margin, as PNG. */
export function ocrInput(d: Decoded): Promise<Buffer> {
  const scale = Math.min(4, Math.max(1, Math.round(600 / Math.max(d.width, d.height))));
  return sharp(d.grey, { raw: { width: d.width, height: d.height, channels: 1 } })
    .resize(d.width * scale, d.height * scale, { kernel: 'cubic' })
    .extend({ top: 16, bottom: 16, left: 16, right: 16, background: { r: d.grey[0], g: d.grey[0], b: d.grey[0] } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}
