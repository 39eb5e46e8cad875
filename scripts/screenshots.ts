// Screenshots of each page of the web app at desktop and phone widths, in English and Hindi, for review:
//   npx tsx scripts/screenshots.ts [--out DIR] [--url URL]
// Without --url it starts the demo app (test/helpers/webDemo.ts: a cloned test database, a hundred marks).

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DESKTOP, openBrowser, PHONE } from '../test/helpers/browser.ts';
import { startDemoWebApp } from '../test/helpers/webDemo.ts';

process.env.NODE_ENV ??= 'test';
process.env.LOG_LEVEL ??= 'silent';
const { values } = parseArgs({ options: { out: { type: 'string' }, url: { type: 'string' } } });
const out = path.resolve(values.out ?? new URL('../bench/out/screenshots', import.meta.url).pathname);
fs.mkdirSync(out, { recursive: true });

/** Each page: its address and what shows it is ready. */
const PAGES = [
  { name: 'search', path: '/', ready: 'h1' },
  { name: 'search-results', path: '/?q=sunrise', ready: 'table.results' },
  { name: 'search-filtered', path: '/?q=golden&classes=30,29&status=Registered', ready: '.status' },
  { name: 'search-page-2', path: '/?q=sun&page=2', ready: 'table.results' },
  { name: 'dashboard', path: '/app/', ready: 'main h1, main h2, main form' },
];
const SIZES = { desktop: DESKTOP, phone: PHONE };

const demo = values.url ? null : await startDemoWebApp();
const base = (values.url ?? demo!.url).replace(/\/$/, '');
const chrome = await openBrowser();
try {
  for (const lang of ['en', 'hi'] as const) {
    for (const [size, viewport] of Object.entries(SIZES)) {
      const page = await chrome.page({ viewport, locale: lang === 'hi' ? 'hi-IN' : 'en-IN' });
      await page.addInitScript((l) => localStorage.setItem('nishaan.lang', l), lang);
      for (const p of PAGES) {
        await page.goto(`${base}${p.path}`, { waitUntil: 'networkidle' });
        await page
          .locator(p.ready)
          .first()
          .waitFor({ timeout: 10_000 })
          .catch(() => undefined);
        const file = path.join(out, `${p.name}-${size}-${lang}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.error(`wrote ${path.relative(process.cwd(), file)}`);
      }
    }
  }
} finally {
  await chrome.close();
  await demo?.close();
}
