import { execFileSync } from 'node:child_process';
import { expect } from 'chai';

// The processes `npm start` runs keep source maps only when SOURCE_MAPS=true (scripts/sourceMaps.mjs): about 50 MiB of
// heap each otherwise spent on every module's decoded map.
describe('source maps in the processes npm start runs', () => {
  const ROOT = new URL('../..', import.meta.url).pathname;
  const enabled = (env: Record<string, string>) =>
    execFileSync(
      process.execPath,
      ['--import', 'tsx', '--import', `${ROOT}scripts/sourceMaps.mjs`, '-e', 'process.stdout.write(String(process.sourceMapsEnabled))'],
      { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
    );

  it('are off by default although tsx turns them on, and on with SOURCE_MAPS=true', () => {
    const tsxAlone = execFileSync(process.execPath, ['--import', 'tsx', '-e', 'process.stdout.write(String(process.sourceMapsEnabled))'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(tsxAlone).to.equal('true');
    expect(enabled({ SOURCE_MAPS: '' })).to.equal('false');
    expect(enabled({ SOURCE_MAPS: 'true' })).to.equal('true');
  });
});
