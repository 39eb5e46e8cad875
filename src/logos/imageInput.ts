import sharp, { type Metadata, type Sharp } from 'sharp';
import { drawSvg } from './svgDraw.ts';
import { svgRefusal } from './svgSafety.ts';

// The one door every image a client sends (upload or URL, single or bulk) and every logo we index goes
// through before anything decodes it: what the file is, decided by its bytes alone (a name or a declared
// type can say anything), whether it may be decoded, and a sharp pipeline that decodes it within limits.
// image.ts normalises what comes out; the embedders (CLIP's preparation included) and the OCR read that.

/** Uploads, fetched images and the sidecar's request bodies alike. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Sides of a raster (and of an SVG's own size): smaller is no logo; larger can only be a decompression bomb. */
export const MIN_SIDE = 16;
export const MAX_SIDE = 10_000;
/**
 * An SVG is drawn so that its longer side is this many pixels, whatever size it says it is: a vector
 * logo has no pixels of its own, so a few bytes must never ask for a huge bitmap (and logos are
 * compared at 96 px and read by OCR from at most 512).
 */
export const SVG_RENDER_SIDE = 512;
/** Bytes an upload keeps of its head (src/http/uploads.ts): an SVG's XML declaration and an editor's comment come before its root. */
export const SNIFF_BYTES = 4096;
/** A drawing that runs longer is stopped (svgDraw.ts): an SVG small in bytes can still be slow to draw (filters, nested uses). */
export const SVG_RENDER_SECONDS = 5;

export const FORMATS = ['jpeg', 'png', 'webp', 'gif', 'svg'] as const;
export type ImageFormat = (typeof FORMATS)[number];
/** As error messages and the API's descriptions name them. */
export const ACCEPTED = 'JPEG, PNG, WebP, GIF (its first frame) or SVG';
const FORMAT_NAMES: Record<ImageFormat, string> = { jpeg: 'JPEG', png: 'PNG', webp: 'WebP', gif: 'GIF', svg: 'SVG' };
export const formatName = (f: ImageFormat) => FORMAT_NAMES[f];

export type ImageErrorCode = 'not_an_image' | 'unsupported_image_type' | 'image_corrupt' | 'image_dimensions' | 'svg_refused';

/** An image that cannot be searched with; the code says why (the API answers 400 with it). */
export class ImageError extends Error {
  constructor(
    readonly code: ImageErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ImageError';
  }
}

type Other = 'bmp' | 'tiff' | 'heif' | 'gzip';

/**
 * The format by its first bytes (magic numbers; for SVG a root element `svg` after the XML prolog); other
 * images are named so the error can say so.
 */
export function sniff(head: Uint8Array): ImageFormat | Other | null {
  const b = head;
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  const ascii = Buffer.from(b.subarray(0, 16)).toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'webp';
  if (ascii.startsWith('BM')) return 'bmp';
  if (ascii.startsWith('II*\0') || ascii.startsWith('MM\0*')) return 'tiff';
  if (ascii.slice(4, 12).startsWith('ftyp')) return 'heif';
  // Compressed SVG (.svgz) among them: what is inside cannot be checked without inflating it, so it is refused.
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) return 'gzip';
  return svgRoot(Buffer.from(b.subarray(0, SNIFF_BYTES)).toString('latin1')) ? 'svg' : null;
}

/**
 * True when the text's first element is `svg` (any prefix), after a byte-order mark, white space, the
 * XML declaration and comments; or when a DOCTYPE names `svg` as the root (sniffed as SVG so that its
 * refusal can say why).
 */
function svgRoot(text: string): boolean {
  let s = text.replace(/^(\uFEFF|\xEF\xBB\xBF)/, '');
  for (;;) {
    s = s.trimStart();
    const close = s.startsWith('<?xml') ? '?>' : s.startsWith('<!--') ? '-->' : '';
    const at = close ? s.indexOf(close) : -1;
    if (at < 0) break;
    s = s.slice(at + close.length);
  }
  return /^<(?:[A-Za-z_][\w.-]*:)?svg[\s/>]/.test(s) || /^<!DOCTYPE\s+(?:[A-Za-z_][\w.-]*:)?svg[\s>[]/i.test(s);
}

/** The accepted format of a file by its bytes, or the error that says what it is and what is accepted. */
export function requireImageFormat(head: Uint8Array): ImageFormat {
  const f = sniff(head);
  if (f && (FORMATS as readonly string[]).includes(f)) return f as ImageFormat;
  if (f === 'gzip')
    throw new ImageError('unsupported_image_type', `the file is compressed (gzip, as .svgz is); send ${ACCEPTED} uncompressed`);
  if (f) throw new ImageError('unsupported_image_type', `the file is a ${f.toUpperCase()} image; only ${ACCEPTED} is accepted`);
  throw new ImageError('not_an_image', `the file is not an image: ${ACCEPTED} expected`);
}

const MIME: Record<string, ImageFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
};
const EXT: Record<string, ImageFormat> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', jpe: 'jpeg', webp: 'webp', gif: 'gif', svg: 'svg' };

/** The formats a file name and a declared Content-Type claim (none for a name without an image extension or a generic type). */
export function claimedFormats(name: string | undefined, mime: string | undefined): ImageFormat[] {
  const out = new Set<ImageFormat>();
  const m = MIME[(mime ?? '').toLowerCase()];
  if (m) out.add(m);
  const e = EXT[/\.([a-z0-9]+)$/i.exec(name ?? '')?.[1]?.toLowerCase() ?? ''];
  if (e) out.add(e);
  return [...out];
}

export interface Opened {
  format: ImageFormat;
  /** The size it decodes to (an SVG: as drawn, SVG_RENDER_SIDE on the longer side). */
  width: number;
  height: number;
  /** A new pipeline over the image, each call: limited in pixels, the first frame only (an SVG: the PNG it was drawn as). */
  pipeline(): Sharp;
}

const dimensions = (w: number, h: number, what = 'image') =>
  new ImageError('image_dimensions', `the ${what} is ${w}×${h} pixels; each side must be ${MIN_SIDE} to ${MAX_SIDE}`);

/**
 * Opens an image for decoding: only the accepted formats, by their bytes; a raster's size read from its
 * header and refused before any pixel is decoded; an SVG checked (svgSafety.ts) and drawn at
 * SVG_RENDER_SIDE, never at the size it claims.
 */
export async function openImage(buf: Buffer): Promise<Opened> {
  const format = requireImageFormat(buf.subarray(0, SNIFF_BYTES));
  if (format === 'svg') return openSvg(buf);
  let meta: Metadata;
  try {
    // The header only: limitInputPixels is lifted so that a bomb's size is read and named, not decoded.
    meta = await sharp(buf, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageError('image_corrupt', `the ${formatName(format)} file is corrupt: its header cannot be read`);
  }
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (width < MIN_SIDE || height < MIN_SIDE || width > MAX_SIDE || height > MAX_SIDE) throw dimensions(width, height);
  return {
    format,
    width,
    height,
    // page 0, pages 1: an animated GIF or WebP is its first frame (the mark as first shown).
    pipeline: () => sharp(buf, { failOn: 'truncated', limitInputPixels: MAX_SIDE * MAX_SIDE, page: 0, pages: 1 }),
  };
}

/** What an SVG holds may be drawn (svgSafety.ts), and so may the images inline in it, each as any raster. */
async function checkSvg(buf: Buffer): Promise<void> {
  // Uploads and fetched images stop at 5 MB before this; the sidecar's own body limit is the same.
  if (buf.length > MAX_IMAGE_BYTES) throw new ImageError('svg_refused', `the SVG is larger than ${MAX_IMAGE_BYTES} bytes (5 MB)`);
  const embedded: Buffer[] = [];
  const refusal = svgRefusal(buf, embedded, MAX_SIDE);
  if (refusal) throw new ImageError(refusal.code, refusal.message);
  for (const img of embedded) {
    const f = sniff(img.subarray(0, SNIFF_BYTES));
    if (f !== 'png' && f !== 'jpeg' && f !== 'gif' && f !== 'webp')
      throw new ImageError('svg_refused', 'the SVG is refused: an inline data: image is not a PNG, JPEG, GIF or WebP by its bytes');
    const meta = await sharp(img, { limitInputPixels: false })
      .metadata()
      .catch(() => null);
    if (!meta?.width || !meta.height || meta.width > MAX_SIDE || meta.height > MAX_SIDE)
      throw new ImageError('svg_refused', `the SVG is refused: an inline image is unreadable or over ${MAX_SIDE} pixels a side`);
  }
}

async function openSvg(buf: Buffer): Promise<Opened> {
  await checkSvg(buf);
  const drawn = await drawSvg(buf, { side: SVG_RENDER_SIDE, maxSide: MAX_SIDE, seconds: SVG_RENDER_SECONDS });
  if (!drawn.ok) {
    if (drawn.why === 'size')
      throw new ImageError('image_dimensions', `the SVG's own size is ${drawn.width}×${drawn.height}; each side must be 1 to ${MAX_SIDE}`);
    if (drawn.why === 'timeout')
      throw new ImageError('svg_refused', `the SVG is refused: it took longer than ${SVG_RENDER_SECONDS} s to draw`);
    throw new ImageError('image_corrupt', 'the SVG file cannot be drawn: it is not well-formed, or has no size');
  }
  const meta = await sharp(drawn.png).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width < MIN_SIDE || height < MIN_SIDE) throw dimensions(width, height, 'SVG drawn');
  // From here on the SVG is the PNG it was drawn as.
  return { format: 'svg', width, height, pipeline: () => sharp(drawn.png, { limitInputPixels: (SVG_RENDER_SIDE + 2) ** 2 }) };
}
