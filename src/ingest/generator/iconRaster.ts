import sharp from 'sharp';
import { iconSvg } from './iconSets.ts';
import { iconMask, type Mask } from './raster.ts';

// The demo logos' icons as pixels, rasterised once per icon and size: a monochrome icon (or simple-icons
// glyph) as an alpha mask drawn in the logo's ink, a colour icon (emoji) as RGBA drawn as it is.

export interface Rgba {
  w: number;
  h: number;
  /** Row-major RGBA, 4 bytes a pixel. */
  px: Uint8Array;
}

export type IconPixels = { mask: Mask } | { rgba: Rgba };

const cache = new Map<string, Promise<IconPixels>>();

export function iconPixels(key: string, size: number, colour: boolean): Promise<IconPixels> {
  const k = `${key}@${size}`;
  let p = cache.get(k);
  if (!p) {
    p = key.startsWith('simple-icons:') ? iconMask(key.slice(13), size).then((mask) => ({ mask })) : rasterise(key, size, colour);
    cache.set(k, p);
  }
  return p;
}

async function rasterise(key: string, size: number, colour: boolean): Promise<IconPixels> {
  // Drawn at its size from the vector (the SVG's own width), not drawn large and scaled down.
  const img = sharp(iconSvg(key, size))
    .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .ensureAlpha();
  if (colour) {
    const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
    return { rgba: { w: info.width, h: info.height, px: new Uint8Array(data.buffer, data.byteOffset, data.length) } };
  }
  const { data, info } = await img.extractChannel(3).raw().toBuffer({ resolveWithObject: true });
  return { mask: { w: info.width, h: info.height, a: new Uint8Array(data.buffer, data.byteOffset, data.length) } };
}
