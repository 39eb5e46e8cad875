import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { type BrowserSession, openBrowser, PHONE, signUpInPage, startWebApp, type WebApp } from '../helpers/browser.ts';
import { insertMarks } from '../helpers/marks.ts';
import { DEMO_MARKS } from '../helpers/webDemo.ts';
import { webhookEnv } from '../webhooks/support.ts';

// Every page of / and /app/ on a 390 px phone, in both languages: nothing may make the page scroll sideways
// (a table too wide reflows to cards or scrolls inside its own box, never the page).

const PUBLIC = ['/', '/?q=sunrise', '/?q=sun&page=2'];
const DASHBOARD = ['', 'plan', 'keys', 'webhooks', 'watches', 'clearance', 'search'];

/** How far the page is wider than the screen, and the widest elements that make it so. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}px`);
    return { extra: document.documentElement.scrollWidth - width, wide };
  });

describe('web app on a 390 px phone', function () {
  this.timeout(120_000);
  let web: WebApp;
  let chrome: BrowserSession;
  before(async () => {
    // A local webhook address admitted, so the webhooks page has a delivery log to lay out (test/webhooks/support.ts).
    // The demo's marks on the suite's own database (startDemoWebApp is for scripts: its close drops every test database).
    [web, chrome] = await Promise.all([startWebApp({ PUBLIC_SEARCH_PER_HOUR: '100000', ...webhookEnv() }), openBrowser()]);
    await insertMarks(web.t.deps.db, DEMO_MARKS);
    await web.t.synced();
  });
  after(async () => {
    await chrome?.close();
    await web?.close();
  });

  for (const lang of ['en', 'hi'] as const) {
    it(`scrolls no page sideways (${lang})`, async () => {
      const page = await chrome.page({ viewport: PHONE, locale: lang === 'hi' ? 'hi-IN' : 'en-IN' });
      await page.addInitScript((l) => localStorage.setItem('nishaan.lang', l), lang);
      const seen: string[] = [];
      const check = async (address: string, ready: string) => {
        await page.goto(`${web.url}${address}`);
        await page.locator(ready).first().waitFor();
        const o = await overflow(page);
        if (o.extra > 0) seen.push(`${address}: ${o.extra}px too wide (${o.wide.join(', ')})`);
      };
      for (const p of PUBLIC) await check(p, p === '/' ? 'h1' : 'table, .results, [role=status]');
      await check(`/marks/${DEMO_MARKS[0]!.app}/`, 'h1');
      const csrf = { 'X-CSRF-Token': await signUpInPage(page, web.url, 'business', 'phone') };
      const hook = await page.request.post(`${web.url}/user/v1/webhooks/`, {
        headers: csrf,
        data: { url: 'https://127.0.0.1:9/a-rather-long-path/of/a/receiver/hook', monitored_applications: [], events: ['*'] },
      });
      expect(hook.status(), await hook.text()).to.equal(201);
      const ping = await page.request.post(`${web.url}/user/v1/webhooks/${(await hook.json()).id}/test/`, { headers: csrf });
      expect(ping.status(), await ping.text()).to.equal(200);
      for (const section of DASHBOARD) await check(`/app/${section ? `${section}/` : ''}`, 'h1');
      await check(`/marks/${DEMO_MARKS[0]!.app}/`, 'h1');
      expect(seen).to.deep.equal([]);
    });
  }
});
