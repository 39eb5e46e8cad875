import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { loadConfig } from '../../src/config.ts';

// Where no secret is configured, a start the README's way used the public `dev-only-*` values, so anyone could
// forge a dashboard token or a signed link for a default install (issue 39, item 8). Now each is made at random on
// first start, kept in SECRETS_FILE readable by the owner only, and read again by every process and later start.

const ROOT = new URL('../..', import.meta.url).pathname;
const run = promisify(execFile);
const SECRETS = ['URL_SIGNING_SECRET', 'JWT_SECRET', 'WEBHOOK_SECRET_KEY'] as const;

describe('secrets not set in the environment', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-secrets-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('are made at random on first start, kept readable by the owner only, and the same at every later start', () => {
    const file = path.join(dir, 'a', 'secrets.json');
    const first = loadConfig({ SECRETS_FILE: file });
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    for (const k of SECRETS) {
      expect(first[k]).to.have.length.of.at.least(32);
      expect(first[k]).to.not.match(/dev-only/);
    }
    expect(new Set(SECRETS.map((k) => first[k])).size, 'three different secrets').to.equal(3);
    const again = loadConfig({ SECRETS_FILE: file });
    for (const k of SECRETS) expect(again[k]).to.equal(first[k]);
    // Another install (another file) gets secrets of its own.
    const other = loadConfig({ SECRETS_FILE: path.join(dir, 'b', 'secrets.json') });
    for (const k of SECRETS) expect(other[k]).to.not.equal(first[k]);
  });

  it('give way to a value set in the environment, and refuse the old public development values', () => {
    const file = path.join(dir, 'c', 'secrets.json');
    const set = loadConfig({ SECRETS_FILE: file, JWT_SECRET: 'j'.repeat(40) });
    expect(set.JWT_SECRET).to.equal('j'.repeat(40));
    expect(set.URL_SIGNING_SECRET).to.equal(JSON.parse(fs.readFileSync(file, 'utf8')).URL_SIGNING_SECRET);
    expect(() => loadConfig({ SECRETS_FILE: file, JWT_SECRET: 'dev-only-jwt-secret-change-me-0123456789' })).to.throw(
      /JWT_SECRET: the public development value is refused/,
    );
  });

  it('are the same in every process of a first start, however many start at once', async () => {
    const file = path.join(dir, 'd', 'secrets.json');
    const script = `import { loadConfig } from './src/config.ts'; console.log(JSON.stringify(loadConfig()));`;
    const env: NodeJS.ProcessEnv = { ...process.env, SECRETS_FILE: file };
    for (const k of SECRETS) delete env[k];
    const outs = await Promise.all(
      Array.from({ length: 4 }, () => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env })),
    );
    const seen = outs.map((o) => JSON.parse(o.stdout) as Record<string, string>);
    for (const k of SECRETS) expect(new Set(seen.map((c) => c[k])).size, k).to.equal(1);
    expect(seen[0]!.JWT_SECRET).to.equal(JSON.parse(fs.readFileSync(file, 'utf8')).JWT_SECRET);
    expect(fs.readdirSync(path.dirname(file))).to.deep.equal(['secrets.json']);
  });
});
