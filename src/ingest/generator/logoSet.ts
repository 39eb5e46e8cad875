import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { LogoRenderer } from './logos.ts';
import type { Marks } from './marks.ts';

// Which marks get a logo file, and rendering them to disk a few at a time. Rendering is async
// (sharp works on libuv's pool), so it overlaps with JSONL generation on the worker threads.

const CONCURRENCY = 4;

export function hasLogoType(marks: Marks, i: number): boolean {
  const t = marks.type(i);
  return t === 'DEVICE' || t === 'COMPOSITE';
}

/** Up to `k` device/composite marks spread evenly over the register (old and new alike). */
export function selectLogos(marks: Marks, k: number): number[] {
  if (k <= 0) return [];
  const all: number[] = [];
  for (let i = 0; i < marks.n; i++) if (hasLogoType(marks, i)) all.push(i);
  if (k >= all.length) return all;
  const out: number[] = [];
  for (let j = 0; j < k; j++) out.push(all[Math.floor(((j + 0.5) * all.length) / k)]);
  return out;
}

export function logoPath(appNo: string): string {
  return `files/logos/${appNo.slice(0, 4)}/${appNo}.png`;
}

/** Renders every listed mark's logo into `setDir`; resolves to the logos.jsonl text. */
export async function renderLogos(
  renderer: LogoRenderer,
  list: number[],
  setDir: string,
  progress?: (done: number) => void,
): Promise<{ text: string; lines: number }> {
  sharp.concurrency(1); // parallelism comes from several renders in flight, not threads per image
  const lines = new Array<string>(list.length);
  const made = new Set<string>();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < list.length) {
      const slot = next++;
      const i = list[slot];
      const appNo = renderer.marks.appNo(i);
      const logo = await renderer.render(i);
      const file = logoPath(appNo);
      const dir = path.dirname(path.join(setDir, file));
      if (!made.has(dir)) {
        fs.mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      fs.writeFileSync(path.join(setDir, file), logo.png);
      const ocr = logo.text ? `,"ocr_text":"${logo.text}"` : '';
      lines[slot] = `{"application_number":"${appNo}","file":"${file}"${ocr}}\n`;
      if (++done % 5000 === 0) progress?.(done);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { text: lines.join(''), lines: list.length };
}
