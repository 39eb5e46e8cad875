import { expect } from 'chai';
import {
  axeViolations,
  type BrowserSession,
  describeViolations,
  openBrowser,
  signUpInPage,
  startWebApp,
  type WebApp,
} from '../helpers/browser.ts';
import { insertMarks } from '../helpers/marks.ts';

// A mark's page (/marks/{app_no}/): reached from a result row of the public page and of the dashboard's search,
// the free fields for a visitor, the full record (owner, similar marks) for a signed-in account.

describe("web app: a mark's page in Chromium", function () {
  this.timeout(120_000);
  let web: WebApp;
  let chrome: BrowserSession;
  before(async () => {
    [web, chrome] = await Promise.all([startWebApp({ PUBLIC_SEARCH_PER_HOUR: '100000' }), openBrowser()]);
    await insertMarks(web.t.deps.db, [
      { app: '6400001', mark: 'MARIGOLD', cls: 30, owner: 'MARIGOLD FOODS PVT LTD' },
      { app: '6400002', mark: 'MARIGOLDEN', cls: 30 },
      { app: '6400003', mark: 'MARIEGOLD', cls: 30 },
    ]);
    await web.t.synced();
    await web.t.deps.search.sync();
  });
  after(async () => {
    await chrome?.close();
    await web?.close();
  });

  it('opens from a public result row with its own URL, and shows a visitor the free fields and the way to sign in', async () => {
    const page = await chrome.page();
    await page.goto(`${web.url}/?q=marigold`);
    await page.getByRole('link', { name: 'MARIGOLD', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'MARIGOLD' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/marks/6400001/');
    expect(await page.locator('dl.facts').textContent()).to.contain('6400001');
    await page.getByText(/^This is the free view\./).waitFor();
    expect(describeViolations(await axeViolations(page))).to.equal('');
    await page.goto(`${web.url}/marks/9999999/`);
    expect(await page.getByRole('alert').textContent()).to.equal('No mark 9999999 on the register.');
  });

  it('shows a signed-in account the full record and similar marks, reached from the dashboard search', async () => {
    const page = await chrome.page();
    await signUpInPage(page, web.url, 'pro', 'mark');
    await page.goto(`${web.url}/app/search/`);
    await page.getByLabel('Word mark', { exact: true }).fill('marigold');
    await page.locator('form', { hasText: 'Search word marks' }).getByRole('button', { name: 'Search' }).click();
    await page.locator('table.dash-table').getByRole('link', { name: 'MARIGOLD', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'MARIGOLD' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/marks/6400001/');
    expect(await page.locator('dl.facts').textContent()).to.contain('MARIGOLD FOODS PVT LTD');
    const similar = page.getByRole('region', { name: 'Similar marks' });
    await similar.getByRole('link', { name: 'MARIGOLDEN' }).click();
    await page.getByRole('heading', { level: 1, name: 'MARIGOLDEN' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/marks/6400002/');
    expect(describeViolations(await axeViolations(page))).to.equal('');
  });
});
