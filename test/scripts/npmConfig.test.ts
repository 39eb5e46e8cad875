import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { expect } from 'chai';

const ROOT = new URL('../..', import.meta.url).pathname;

// Every npm command a newcomer types printed `npm warn Unknown project config "onnxruntime-node-install"`.
// npm 11 runs only the install scripts package.json's allowScripts names, so no project config is needed.
describe('npm in the project folder', () => {
  it('prints no warning about the project configuration', () => {
    const out = execFileSync('npm', ['pkg', 'get', 'name'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out.trim()).to.equal('"nishaan"');
    const err = execFileSync('bash', ['-c', 'npm pkg get name 2>&1 >/dev/null'], { cwd: ROOT, encoding: 'utf8' });
    expect(err).to.not.match(/warn/i);
  });

  it('keeps install scripts off for the packages that would download or phone home', () => {
    const pkg = JSON.parse(fs.readFileSync(`${ROOT}package.json`, 'utf8'));
    expect(pkg.allowScripts).to.include({ 'onnxruntime-node': false, 'tesseract.js': false, '@scarf/scarf': false });
    expect(Number(execFileSync('npm', ['--version'], { encoding: 'utf8' }).split('.')[0])).to.be.at.least(11);
  });
});
