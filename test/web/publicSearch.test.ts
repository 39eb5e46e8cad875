import { expect } from 'chai';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { FIRST_RENDER_JS_LIMIT } from '../../scripts/build-web.ts';
import {
  axeViolations,
  type BrowserSession,
  describeViolations,
  ensureWebBuild,
  openBrowser,
  PHONE,
  startWebApp,
  type WebApp,
} from '../helpers/browser.ts';
import { insertMarks, type MarkSpec } from '../helpers/marks.ts';

// 24 SUNRISE marks in classes 29 and 30 (three pages), with two statuses; and one other mark.
const MARKS: MarkSpec[] = [
  ...Array.from({ length: 24 }, (_, i) => ({
    app: String(6100001 + i),
    mark: `SUNRISE ${String.fromCharCode(65 + i)}`,
    cls: i < 16 ? 30 : 29,
    status: i % 3 === 0 ? 'Objected' : 'Registered',
  })),
  { app: '6100099', mark: 'MOONLIGHT', cls: 43 },
];

const rows = (page: Page) => page.locator('table.results tbody tr');

describe('web app: the public search page in Chromium', function () {
  this.timeout(120_000);
  let web: WebApp;
  let chrome: BrowserSession;
  before(async () => {
    [web, chrome] = await Promise.all([startWebApp({ PUBLIC_SEARCH_PER_HOUR: '7' }), openBrowser()]);
    await insertMarks(web.t.deps.db, MARKS);
  });
  after(async () => {
    await chrome?.close();
    await web?.close();
  });

  it('is served with cache headers, and API paths keep their JSON 404', async () => {
    const page = await request(web.t.app).get('/');
    expect(page.status).to.equal(200);
    expect(page.headers['content-type']).to.match(/text\/html/);
    expect(page.headers['cache-control']).to.equal('no-cache');
    expect(page.headers['content-security-policy']).to.contain("script-src 'self'");
    const dashboard = await request(web.t.app).get('/app/keys');
    expect([dashboard.status, dashboard.text]).to.deep.equal([200, page.text]);
    const asset = page.text.match(/src="(\/assets\/[^"]+\.js)"/)![1]!;
    const js = await request(web.t.app).get(asset);
    expect(js.status).to.equal(200);
    expect(js.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    for (const p of ['/v1/nothing-here/', '/user/v1/nothing/', '/assets/missing.js', '/index.html.bak']) {
      const res = await request(web.t.app).get(p);
      expect(res.status, p).to.equal(404);
      expect(res.headers['content-type'], p).to.match(/application\/json/);
    }
  });

  it('first renders with at most 100 KB of JS gzipped', async () => {
    const { js } = await ensureWebBuild();
    expect(js.gzipBytes).to.be.at.most(FIRST_RENDER_JS_LIMIT);
  });

  it('speaks Hindi in Devanagari on a phone, classes named from the reference endpoint, keyboard only', async () => {
    const page = await chrome.page({ viewport: PHONE });
    await page.goto(`${web.url}/`);
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    expect(await page.locator('h1').textContent()).to.equal('ट्रेड मार्क रजिस्टर में खोजें');
    expect(await page.locator('html').getAttribute('lang')).to.equal('hi');
    // Remembered across visits.
    await page.reload();
    expect(await page.locator('h1').textContent()).to.equal('ट्रेड मार्क रजिस्टर में खोजें');
    // A Devanagari font is there to draw it (a missing glyph would be drawn as a box of the fallback font).
    expect(await page.evaluate(() => document.fonts.check('16px "Noto Sans Devanagari"', 'ट्रेड'))).to.equal(true);

    // The class picker by keyboard: Tab to it, open it, tick class 30 by its heading.
    await page.getByLabel('शब्द चिह्न').focus();
    await page.keyboard.type('sunrise');
    await page.locator('details.classes summary').focus();
    await page.keyboard.press('Enter');
    const c30 = page.getByRole('checkbox', { name: /^30: / });
    expect(await c30.getAttribute('value')).to.equal('30');
    await c30.focus();
    await page.keyboard.press('Space');
    await page.getByLabel('शब्द चिह्न').focus();
    await page.keyboard.press('Enter');
    await page.locator('table.results').waitFor();
    expect(page.url()).to.contain('classes=30');
    expect(describeViolations(await axeViolations(page))).to.equal('');
    expect(chrome.blocked).to.deep.equal([]);
  });

  it('lets a visitor search, filter by a facet, page, and hit the hourly limit; axe finds no serious violation', async () => {
    const page = await chrome.page();
    await page.goto(`${web.url}/`);
    expect(describeViolations(await axeViolations(page))).to.equal('');

    // Search (2 of the hour's 7: the Hindi test above searched once from this address).
    await page.getByLabel('Word mark').fill('sunrise');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect1(page.getByRole('status'), '24 marks found; showing 1 to 10.');
    expect(await rows(page).count()).to.equal(10);
    await expect1(page.locator('.allowance'), 'Searches left this hour: 5 of 7.');
    expect(describeViolations(await axeViolations(page))).to.equal('');

    // The class facet (3): only class 29's 8 marks.
    await page.getByRole('button', { name: 'Class 29 (8)' }).click();
    await expect1(page.getByRole('status'), '8 marks found; showing 1 to 8.');
    expect(await rows(page).locator('td:nth-child(2)').allTextContents()).to.deep.equal(Array(8).fill('29'));
    expect(page.url()).to.contain('classes=29');
    // Again: the filter goes (4).
    await page.getByRole('button', { name: 'Class 29 (8)' }).click();
    await expect1(page.getByRole('status'), '24 marks found; showing 1 to 10.');

    // Paging (5, 6): the third page holds the last four.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect1(page.getByRole('status'), '24 marks found; showing 11 to 20.');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect1(page.getByRole('status'), '24 marks found; showing 21 to 24.');
    expect(await rows(page).count()).to.equal(4);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).to.equal(true);

    // The status facet (7, the hour's last).
    await page.getByRole('button', { name: 'Objected (8)' }).click();
    await expect1(page.getByRole('status'), '8 marks found; showing 1 to 8.');
    await expect1(page.locator('.allowance'), 'Searches left this hour: 0 of 7.');

    // The 8th is refused: the page says so.
    await page.getByLabel('Word mark').fill('moonlight');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.match(/^You have used this hour's free searches\. Try again in (60|59) minutes/);
    expect(describeViolations(await axeViolations(page))).to.equal('');
    expect(chrome.blocked).to.deep.equal([]);
  });
});

/** Waits (up to 10 s) for an element's text to be `text`, then asserts it. */
async function expect1(loc: ReturnType<Page['locator']>, text: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last = '';
  while (Date.now() < deadline) {
    last = ((await loc.first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
    if (last.startsWith(text)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(last).to.equal(text);
}
