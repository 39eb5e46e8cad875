import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

// The process boundary of logo search (issue 44, docs/logos.md): the pixel code (decoding, embedding, HOG, finding
// regions: src/logos/pixels/) runs in the ML sidecar only. The API and the workers reach it through the sidecar's HTTP
// client, never by importing it: nothing they import, directly or through other modules, may be under
// src/logos/pixels/, not even a type.

const ROOT = path.resolve(import.meta.dirname, '../..');
const PIXELS = path.join(ROOT, 'src/logos/pixels') + path.sep;
const SPECIFIERS = [
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g,
  /import\s*['"]([^'"]+)['"]/g,
  /import\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** Every file of ours an entry point imports, directly or not, with the file that first imported it. */
function imported(entries: string[]): Map<string, string> {
  const seen = new Map<string, string>();
  const visit = (file: string, from: string) => {
    if (seen.has(file)) return;
    seen.set(file, from);
    const text = fs.readFileSync(file, 'utf8');
    for (const re of SPECIFIERS)
      for (const m of text.matchAll(re)) {
        if (!m[1].startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), m[1]);
        if (fs.existsSync(target) && fs.statSync(target).isFile()) visit(target, file);
      }
  };
  for (const e of entries) visit(path.join(ROOT, e), 'entry point');
  return seen;
}

describe('logo search: the process boundary', () => {
  it('keeps the pixel code out of everything the API and the workers import', () => {
    const reached = imported(['src/server.ts', 'src/root.ts', 'workers/main.ts', 'workers/clearance.ts', 'workers/logos.ts']);
    // The walk itself works: it reaches the logo search the API serves.
    expect(reached.has(path.join(ROOT, 'src/logos/imageSearch.ts'))).to.equal(true);
    expect(reached.has(path.join(ROOT, 'src/logos/sidecarClient.ts'))).to.equal(true);
    const crossing = [...reached]
      .filter(([f]) => f.startsWith(PIXELS))
      .map(([f, from]) => `${path.relative(ROOT, from)} -> ${path.relative(ROOT, f)}`);
    expect(crossing).to.deep.equal([]);
  });

  it('is where the sidecar gets its pixel code from', () => {
    const reached = imported(['workers/sidecar/main.ts']);
    for (const f of ['embedders.ts', 'hog.ts', 'image.ts', 'regions.ts', 'resize.ts', 'enlarge.ts'])
      expect(reached.has(path.join(PIXELS, f)), f).to.equal(true);
  });
});
