import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

// Drawing an SVG (already checked by svgSafety.ts) in a child process that is killed when its time is up.
// librsvg's time cannot be bounded from inside this process: sharp's timeout is looked at between tiles,
// and one tile of a 2 KB SVG that instances itself (<use> of groups of <use>, 10 deep) or stacks filters
// takes minutes, holding a sidecar thread all that while. So the SVG's size is read and the SVG drawn
// there, and everything after reads the PNG it hands back. Starting the child costs about a quarter of a
// second, paid by SVGs alone. Used only by imageInput.ts.

const SHARP = createRequire(import.meta.url).resolve('sharp');
// Plain JavaScript run with `node -e`: no TypeScript loader to start. Arguments: sharp's path, the longer
// side to draw, the largest side the SVG may say it has. Exit 4 with its size as JSON when that is out of
// bounds (nothing is drawn); 0 with the PNG on stdout.
const CHILD = `
const sharp = require(process.argv[1]);
const [side, maxSide] = process.argv.slice(2).map(Number);
sharp.concurrency(1);
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', async () => {
  const svg = Buffer.concat(chunks);
  const m = await sharp(svg, { limitInputPixels: false }).metadata();
  const w = m.width ?? 0, h = m.height ?? 0;
  if (!(w >= 1 && h >= 1 && w <= maxSide && h <= maxSide)) {
    process.stderr.write(JSON.stringify({ width: w, height: h }));
    process.exit(4);
  }
  // sharp reports the size in whole pixels; one more keeps the drawing within side whatever the fraction.
  const density = (72 * side) / (Math.max(w, h) + 1);
  const png = await sharp(svg, { density, limitInputPixels: (side + 2) ** 2 }).png({ compressionLevel: 1 }).toBuffer();
  process.stdout.end(png);
});
`;

export type Drawn =
  | { ok: true; png: Buffer }
  /** `size`: the size the SVG says it has, out of bounds; `timeout`: still drawing when its time was up; `failed`: unreadable. */
  | { ok: false; why: 'size'; width: number; height: number }
  | { ok: false; why: 'timeout' | 'failed' };

/** The SVG drawn as a PNG `side` pixels on its longer side, or why not; the child is killed after `seconds`. */
export function drawSvg(svg: Buffer, opts: { side: number; maxSide: number; seconds: number }): Promise<Drawn> {
  return new Promise<Drawn>((resolve) => {
    const child = spawn(process.execPath, ['-e', CHILD, SHARP, String(opts.side), String(opts.maxSide)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.seconds * 1000);
    child.stdout.on('data', (c: Buffer) => {
      outBytes += c.length;
      // A PNG of side² pixels is far smaller than this; more is not a drawing.
      if (outBytes > 4 * (opts.side + 2) ** 2 + 65_536) child.kill('SIGKILL');
      else out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => err.length < 16 && err.push(c));
    // The child may die before reading all of the SVG: its stdin then fails, and its exit says what happened.
    child.stdin.on('error', () => undefined);
    child.stdin.end(svg);
    child.on('error', () => {
      clearTimeout(timer);
      resolve({ ok: false, why: 'failed' });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return resolve({ ok: false, why: 'timeout' });
      if (code === 0) return resolve({ ok: true, png: Buffer.concat(out) });
      if (code === 4) {
        try {
          const s = JSON.parse(Buffer.concat(err).toString('utf8')) as { width: number; height: number };
          return resolve({ ok: false, why: 'size', width: s.width, height: s.height });
        } catch {
          // Not the child's report: fall through.
        }
      }
      resolve({ ok: false, why: 'failed' });
    });
  });
}
