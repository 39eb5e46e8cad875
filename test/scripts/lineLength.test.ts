import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { longLines, MAX_LINE } from '../../scripts/line-length.ts';

describe('the line-length check of the test command', () => {
  it('names each code line over 140 characters, counting characters rather than bytes, and skips ignored files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-lines-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: dir });
      fs.writeFileSync(path.join(dir, '.gitignore'), 'ignored.ts\n');
      fs.writeFileSync(path.join(dir, 'a.ts'), `ok\n${'x'.repeat(MAX_LINE + 1)}\n${'é'.repeat(MAX_LINE)}\n`);
      fs.writeFileSync(path.join(dir, 'ignored.ts'), 'y'.repeat(500));
      fs.writeFileSync(path.join(dir, 'notes.md'), 'z'.repeat(500));
      expect(longLines(dir)).to.deep.equal([`a.ts:2 (${MAX_LINE + 1})`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds none in this tree', () => {
    expect(longLines(new URL('../..', import.meta.url).pathname)).to.deep.equal([]);
  });
});
