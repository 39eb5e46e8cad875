// Fails when a line of code passes 140 characters. The formatter wraps code at 140 but leaves strings,
// comments and template literals as they are: those are checked here.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export const MAX_LINE = 140;

/** Every `file:line (length)` of the tracked and new code files (ts, mjs, jsonc) over MAX_LINE. */
export function longLines(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '--', '*.ts', '*.mjs', '*.jsonc'], {
    cwd: root,
    encoding: 'utf8',
  });
  const files = listed.split('\n').filter((f) => f && fs.existsSync(`${root}/${f}`));
  const out: string[] = [];
  for (const f of files) {
    fs.readFileSync(`${root}/${f}`, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if ([...line].length > MAX_LINE) out.push(`${f}:${i + 1} (${[...line].length})`);
      });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const long = longLines(new URL('..', import.meta.url).pathname);
  if (long.length) {
    console.error(`${long.length} line(s) over ${MAX_LINE} characters:\n${long.join('\n')}`);
    process.exit(1);
  }
}
