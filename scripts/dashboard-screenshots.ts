// Screenshots of each dashboard page (web/src/dashboard/) at desktop and phone widths, in English and Hindi,
// for review, signed in as a new trial account:
//   npx tsx scripts/dashboard-screenshots.ts [--out DIR] [--url URL]
// Without --url it starts the demo app (test/helpers/webDemo.ts). scripts/screenshots.ts does the public page.

import { randomBytes } from 'node:crypto';
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

const SECTIONS = ['', 'keys', 'webhooks', 'watches', 'clearance', 'search'];
const SIZES = { desktop: DESKTOP, phone: PHONE };

const demo = values.url ? null : await startDemoWebApp();
const base = (values.url ?? demo!.url).replace(/\/$/, '');
const chrome = await openBrowser();
try {
  for (const lang of ['en', 'hi'] as const) {
    for (const [size, viewport] of Object.entries(SIZES)) {
      const page = await chrome.page({ viewport, locale: lang === 'hi' ? 'hi-IN' : 'en-IN' });
      await page.addInitScript((l) => localStorage.setItem('nishaan.lang', l), lang);
      await page.goto(`${base}/app/`, { waitUntil: 'networkidle' });
      await page.screenshot({ path: path.join(out, `dashboard-login-${size}-${lang}.png`), fullPage: true });
      // Signed up through the page's context, so the session cookie is the page's.
      const res = await page.request.post(`${base}/user/v1/session/signup/`, {
        data: {
          first_name: 'Asha',
          last_name: 'Rao',
          email: `shots-${randomBytes(4).toString('hex')}@example.in`,
          password: 'correct horse',
        },
      });
      if (!res.ok()) throw new Error(`signup: ${res.status()} ${await res.text()}`);
      for (const section of SECTIONS) {
        await page.goto(`${base}/app/${section ? `${section}/` : ''}`, { waitUntil: 'networkidle' });
        const file = path.join(out, `dashboard-${section || 'overview'}-${size}-${lang}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.error(`wrote ${path.relative(process.cwd(), file)}`);
      }
    }
  }
} finally {
  await chrome.close();
  await demo?.close();
}
