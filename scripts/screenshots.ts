// Screenshots of each page of the web app at desktop and phone widths, in English and Hindi, for review:
// the public search page, then the dashboard's login and, signed in as a new trial account, each of its pages.
//   npx tsx scripts/screenshots.ts [--out DIR] [--url URL]
// Without --url it starts the demo app (test/helpers/webDemo.ts: a cloned test database, a hundred marks).

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { DESKTOP, openBrowser, PHONE, signUpInPage } from '../test/helpers/browser.ts';
import { DEMO_MARKS, startDemoWebApp } from '../test/helpers/webDemo.ts';

process.env.NODE_ENV ??= 'test';
process.env.LOG_LEVEL ??= 'silent';
const { values } = parseArgs({ options: { out: { type: 'string' }, url: { type: 'string' } } });
const out = path.resolve(values.out ?? new URL('../bench/out/screenshots', import.meta.url).pathname);
fs.mkdirSync(out, { recursive: true });

/** The public pages: each one's address and what shows it is ready. */
const PUBLIC = [
  { name: 'search', path: '/', ready: 'h1' },
  { name: 'search-results', path: '/?q=sunrise', ready: 'table.results' },
  { name: 'search-filtered', path: '/?q=golden&classes=30,29&status=Registered', ready: '.status' },
  { name: 'search-page-2', path: '/?q=sun&page=2', ready: 'table.results' },
  { name: 'mark', path: `/marks/${DEMO_MARKS[0]!.app}/`, ready: 'h1' },
];
/** The dashboard's pages under /app/, shown once signed in ('' is the overview). */
const DASHBOARD = ['', 'plan', 'keys', 'webhooks', 'watches', 'clearance', 'search'];
const SIZES = { desktop: DESKTOP, phone: PHONE };

const demo = values.url ? null : await startDemoWebApp();
const base = (values.url ?? demo!.url).replace(/\/$/, '');
const chrome = await openBrowser();

async function shoot(page: Page, address: string, name: string, ready?: string): Promise<void> {
  await page.goto(`${base}${address}`, { waitUntil: 'networkidle' });
  if (ready)
    await page
      .locator(ready)
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
  const file = path.join(out, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.error(`wrote ${path.relative(process.cwd(), file)}`);
}

try {
  for (const lang of ['en', 'hi'] as const) {
    for (const [size, viewport] of Object.entries(SIZES)) {
      const page = await chrome.page({ viewport, locale: lang === 'hi' ? 'hi-IN' : 'en-IN' });
      await page.addInitScript((l) => localStorage.setItem('nishaan.lang', l), lang);
      for (const p of PUBLIC) await shoot(page, p.path, `${p.name}-${size}-${lang}`, p.ready);
      await shoot(page, '/app/', `dashboard-login-${size}-${lang}`, 'main form');
      // Signed up through the page's context, so the session cookie is the page's.
      await signUpInPage(page, base, 'business', 'shots');
      await shoot(page, `/marks/${DEMO_MARKS[0]!.app}/`, `mark-signed-in-${size}-${lang}`, 'h1');
      for (const section of DASHBOARD)
        await shoot(page, `/app/${section ? `${section}/` : ''}`, `dashboard-${section || 'overview'}-${size}-${lang}`);
    }
  }
} finally {
  await chrome.close();
  await demo?.close();
}
