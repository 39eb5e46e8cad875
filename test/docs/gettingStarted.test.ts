import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startWebApp, type WebApp } from '../helpers/browser.ts';
import { Receiver } from '../helpers/receiver.ts';
import { importFixture, webhookEnv } from '../webhooks/support.ts';

// docs/getting-started.md's bash blocks, run verbatim and in order by bash against a server of the suite (BASE
// and HOOK_URL, which the guide takes from the environment, point them at it and at a local HTTPS receiver):
// a newcomer's first sign-up, search, clearance, webhook, watch and delivery work as written.

const blocks = (md: string) => [...md.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

function bash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { env: { ...process.env, ...env }, cwd });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe('docs/getting-started.md, run as written', function () {
  this.timeout(120_000);
  let web: WebApp;
  let receiver: Receiver;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-guide-'));
  before(async () => {
    receiver = await new Receiver().start();
    web = await startWebApp(webhookEnv());
    await importFixture(web.t, 'baseline');
    await web.t.deps.search.sync();
  });
  after(async () => {
    await web?.close();
    await receiver?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs up, searches, clears, makes a webhook and a watch, and delivers a signed ping, exactly as the guide says', async () => {
    const script = blocks(fs.readFileSync('docs/getting-started.md', 'utf8'));
    expect(script.length).to.be.greaterThan(5);
    const run = await bash(script.join('\n'), { BASE: web.url, HOOK_URL: receiver.url }, dir);
    expect(run.code, run.out).to.equal(0);
    const lines = run.out.trim().split('\n');
    expect(lines[0]).to.match(/^key nsh_[A-Za-z0-9]{32}$/);
    expect(lines).to.include('true', 'the ping was delivered');
    expect(lines.at(-1)).to.equal('webhook.ping');
    expect(fs.readFileSync(path.join(dir, 'clearance.pdf')).subarray(0, 5).toString()).to.equal('%PDF-');
    const account = await web.t.deps.db('accounts').orderBy('created_at', 'desc').first('id');
    const count = async (table: string) =>
      Number((await web.t.deps.db(table).where({ account_id: account.id }).count({ n: '*' }).first())?.n);
    expect(await count('clearances')).to.equal(1);
    expect(await count('watches')).to.equal(1);
    const ping = receiver.received.find((r) => r.body.includes('webhook.ping'));
    expect(ping?.headers['webhook-signature'], 'signed').to.match(/^v1,/);
  });

  it('is served at /docs/guides/getting-started, and the API document links the guides by that address', async () => {
    const res = await fetch(`${web.url}/docs/guides/getting-started`);
    expect(res.status).to.equal(200);
    const html = await res.text();
    expect(html).to.contain('<h1>Getting started');
    expect(html).to.contain('href="/docs/guides/clearance"');
    expect(res.headers.get('content-security-policy')).to.contain("default-src 'none'");
    expect((await fetch(`${web.url}/docs/guides/`)).status).to.equal(200);
    expect((await fetch(`${web.url}/docs/guides/no-such-guide`)).status).to.equal(404);
    const doc = JSON.stringify(web.t.openapi);
    expect(doc, 'no repository path left in the document').to.not.match(/docs\/[a-z-]+\.md/);
    expect(doc).to.contain('/docs/guides/getting-started');
  });
});
