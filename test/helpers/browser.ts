// The browser harness for the web app's tests (issue 23): Debian's chromium driven by playwright-core,
// the real app (test/helpers/app.ts) serving web/dist on a free loopback port, axe-core injected into
// pages. scripts/ensure-chromium.sh installs chromium (the README's test command runs it).

import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { buildWeb, type WebBuild } from '../../scripts/build-web.ts';
import { createTestApp, type TestApp } from './app.ts';

const require = createRequire(import.meta.url);

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

let build: Promise<WebBuild> | null = null;
/** Builds web/dist once per run (nothing to do when it is up to date). */
export const ensureWebBuild = (): Promise<WebBuild> => (build ??= buildWeb());

export interface WebApp {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  /** The app behind it: its database (deps.db), keyed clients, close. */
  t: TestApp;
  close(): Promise<void>;
}

/** The real app on a fresh cloned database, listening on a free loopback port, serving the web build. */
export async function startWebApp(env: Record<string, string> = {}): Promise<WebApp> {
  await ensureWebBuild();
  const t = await createTestApp(env);
  const server = t.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    t,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}

const isLoopback = (url: string) => {
  try {
    return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(new URL(url).hostname);
  } catch {
    return false;
  }
};

export interface BrowserSession {
  browser: Browser;
  /** Every request a page tried to send off 127.0.0.0/8 (each was aborted). */
  blocked: string[];
  /** A page in a context of its own (cookies, storage), at a viewport (DESKTOP by default) and language. */
  page(opts?: { viewport?: { width: number; height: number }; locale?: string }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Chromium, headless, with its background traffic off and every page request leaving 127.0.0.0/8
 * aborted (and listed in `blocked`): tests send traffic only to loopback.
 */
export async function openBrowser(): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      // Running as root (CI containers) needs it; the pages are our own.
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-domain-reliability',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
      // No name but loopback resolves, should anything escape the route below.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
  const blocked: string[] = [];
  const contexts: BrowserContext[] = [];
  return {
    browser,
    blocked,
    async page(opts = {}) {
      const context = await browser.newContext({
        viewport: opts.viewport ?? DESKTOP,
        locale: opts.locale ?? 'en-IN',
        serviceWorkers: 'block',
      });
      contexts.push(context);
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (isLoopback(url)) return route.continue();
        blocked.push(url);
        return route.abort('blockedbyclient');
      });
      return context.newPage();
    },
    async close() {
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      await browser.close();
    },
  };
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page as it is now, of the given impacts (serious and critical by default).
 * axe is evaluated through the DevTools protocol (page.evaluate), which the pages' CSP (scripts from
 * 'self' only) does not govern, rather than added as a script element, which it would refuse.
 */
export async function axeViolations(page: Page, impacts: string[] = ['serious', 'critical']): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n: any) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return (violations as AxeViolation[]).filter((v) => impacts.includes(v.impact ?? ''));
}

/** A readable list of violations, for an assertion's message. */
export const describeViolations = (vs: AxeViolation[]) =>
  vs.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`).join('\n');

/**
 * Signs a new trial account up through the page's own context, so the session cookie is the page's; answers the
 * session's CSRF token. `tag` starts the account's email.
 */
export async function signUpInPage(page: Page, base: string, plan: 'basic' | 'pro' | 'business', tag: string): Promise<string> {
  const res = await page.request.post(`${base}/user/v1/session/signup/`, {
    data: {
      first_name: 'Asha',
      last_name: 'Rao',
      email: `${tag}-${Math.random().toString(36).slice(2, 10)}@example.in`,
      password: 'correct horse',
      plan,
    },
  });
  if (res.status() !== 201) throw new Error(`signup: ${res.status()} ${await res.text()}`);
  return (await res.json()).csrf_token as string;
}
