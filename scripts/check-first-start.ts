// CI's first start (.ci/run, after the test command): the README's start command on a clean clone of this
// checkout, with no variable set, exactly as a newcomer runs it. It must answer, serve a keyed search and a
// public search and a clearance made through it, and stop cleanly on SIGTERM (npm's exit code 0, nothing left listening).
// A first start must not lean on what an earlier one or the test command left (web/dist, var/): so the clone
// is fresh, installed with `npm ci`, and removed afterwards.
//
//   npx tsx scripts/check-first-start.ts [--keep]

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const BASE = 'http://127.0.0.1:3000';
/** A first start generates and imports 50,000 marks, builds the web app and the search index. */
const READY_WITHIN_MS = 15 * 60_000;
const STOP_WITHIN_MS = 60_000;

const say = (m: string) => console.error(`[first start] ${m}`);

function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

async function call(p: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${BASE}${p}`, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    body = { text: text.slice(0, 200) };
  }
  return { status: res.status, body };
}

function expectStatus(what: string, got: { status: number; body: unknown }, want: number): void {
  if (got.status !== want) throw new Error(`${what}: expected ${want}, got ${got.status} ${JSON.stringify(got.body).slice(0, 300)}`);
  say(`${what}: ${got.status}`);
}

async function waitUntilAnswering(child: ChildProcess, log: () => string): Promise<void> {
  const end = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`npm start exited (${child.exitCode ?? child.signalCode}):\n${log()}`);
    if (/Nishaan API on /.test(log())) {
      const h = await call('/healthz').catch(() => null);
      if (h?.status === 200) return;
    }
    if (Date.now() > end) throw new Error(`npm start did not answer within ${READY_WITHIN_MS / 60_000} minutes:\n${log()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

function stop(child: ChildProcess): Promise<number | string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start did not stop within ${STOP_WITHIN_MS / 1000} s of SIGTERM`)),
      STOP_WITHIN_MS,
    );
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? String(signal));
    });
    child.kill('SIGTERM');
  });
}

async function main(): Promise<void> {
  for (const port of [3000, 3100])
    if (await portTaken(port)) throw new Error(`port ${port} is taken: the first start runs on the default ports; stop what holds it`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-first-start-'));
  const clone = path.join(dir, 'nishaan');
  let child: ChildProcess | undefined;
  let out = '';
  try {
    execFileSync('git', ['clone', '--quiet', ROOT, clone], { stdio: 'inherit' });
    say(`clean clone in ${clone}; npm ci`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--silent'], { cwd: clone, stdio: 'inherit' });
    // No variable of ours set: only what npm and its tools need to run.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? dir };
    const t0 = Date.now();
    child = spawn('npm', ['start'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    await waitUntilAnswering(child, () => out);
    say(`answering after ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const signup = await call('/user/v1/signup/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        first_name: 'Asha',
        last_name: 'Rao',
        email: `first-start-${Date.now()}@example.in`,
        password: 'correct horse',
        plan: 'pro',
      }),
    });
    expectStatus('signup', signup, 201);
    const key = String(signup.body.api_key);
    const keyed = await call('/v1/trademarks/?word_mark=SUN', { headers: { 'X-API-Key': key } });
    expectStatus('keyed search', keyed, 200);
    if (!(Number(keyed.body.count) > 0)) throw new Error(`keyed search found nothing in the demo registry: ${JSON.stringify(keyed.body)}`);
    const detail = await call(`/v1/trademarks/${(keyed.body.results as { application_number: string }[])[0]!.application_number}/`, {
      headers: { 'X-API-Key': key },
    });
    expectStatus('detail of the first result', detail, 200);
    const open = await call('/public/v1/trademarks/search/?word_mark=SUN');
    expectStatus('public search', open, 200);
    if (!(Number(open.body.count) > 0)) throw new Error(`public search found nothing: ${JSON.stringify(open.body)}`);
    // The job users come for, on the trial signup starts: no admin step (docs/plans.md, *Clearance and watches*).
    const plans = await call('/user/v1/plans/');
    expectStatus('plan list', plans, 200);
    const clearance = await call('/v1/clearance/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
      body: JSON.stringify({ word_mark: 'SUNRISE', classes: [29, 30] }),
    });
    expectStatus('clearance on the pro trial', clearance, 200);

    const code = await stop(child);
    if (code !== 0) throw new Error(`npm start exited ${code} on SIGTERM, not 0:\n${out.slice(-4000)}`);
    for (const port of [3000, 3100]) if (await portTaken(port)) throw new Error(`port ${port} still answers after npm start stopped`);
    say('stopped cleanly (exit 0, ports free)');
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (!process.argv.includes('--keep')) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`[first start] FAILED: ${(err as Error).message}`);
  process.exit(1);
});
