import sharp from 'sharp';
import { iconMask } from '../../src/ingest/generator/raster.ts';

/**
 * A simple-icons glyph of `size` pixels as a PNG in one ink on transparency, for the logos the tests and
 * the OCR bench draw with sharp; `w` and `h` are its size.
 */
export async function inkedIcon(slug: string, size: number, ink: readonly number[]): Promise<{ png: Buffer; w: number; h: number }> {
  const m = await iconMask(slug, size);
  const alpha = await sharp(Buffer.from(m.a), { raw: { width: m.w, height: m.h, channels: 1 } })
    .toColourspace('b-w')
    .png()
    .toBuffer();
  const png = await sharp({ create: { width: m.w, height: m.h, channels: 3, background: { r: ink[0], g: ink[1], b: ink[2] } } })
    .joinChannel(alpha)
    .png()
    .toBuffer();
  return { png, w: m.w, h: m.h };
}
