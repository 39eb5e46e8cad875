import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import request from 'supertest';
import { importSet } from '../../src/ingest/importer/index.ts';
import { startClearanceBatchWorker } from '../../workers/clearanceBatch.ts';
import type { WebhookWorkers } from '../../workers/webhooks.ts';
import { axeViolations, type BrowserSession, describeViolations, openBrowser, startWebApp, type WebApp } from '../helpers/browser.ts';
import { addLogos, drawLogo, indexPending, type LogoTestApp, sharedSidecar } from '../helpers/logos.ts';
import { filing, insertMarks, writeFilings } from '../helpers/marks.ts';
import { Receiver } from '../helpers/receiver.ts';
import { importFixture, startWorkers, until, webhookEnv } from '../webhooks/support.ts';

// The dashboard (web/src/dashboard/, docs/dashboard.md) in Chromium, one user's visit from signup on:
// the cookie session, keys, usage, a webhook pinged at a local HTTPS receiver (the ping in its log), a
// clearance with a logo upload, a batch clearance, the keyed search; axe-core on each page.
describe('web app: the dashboard in Chromium', function () {
  this.timeout(180_000);
  let web: WebApp;
  let chrome: BrowserSession;
  let page: Page;
  let receiver: Receiver;
  let workers: WebhookWorkers | undefined;
  let batchWorker: ReturnType<typeof startClearanceBatchWorker> | undefined;
  let logoFile: string;
  let sheetFile: string;
  const email = `dash-${Date.now()}@example.in`;
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-dash-'));

  before(async () => {
    const sidecar = await sharedSidecar();
    receiver = await new Receiver().start();
    [web, chrome] = await Promise.all([
      // The local HTTPS receiver admitted and trusted, queues of the test's own (test/webhooks/support.ts).
      startWebApp(webhookEnv({ ML_URL: sidecar.url, UPLOAD_DIR: uploads })),
      openBrowser(),
    ]);
    // The ingest fixture's baseline (its delta, imported later, changes mark 4100001), and 24 SUNRISE marks.
    await importFixture(web.t, 'baseline');
    await insertMarks(
      web.t.deps.db,
      Array.from({ length: 24 }, (_, i) => ({
        app: String(6200001 + i),
        mark: i ? `SUNRISE ${String.fromCharCode(64 + i)}` : 'SUNRISE TEA',
        cls: 30,
      })),
    );
    await addLogos(web.t, [{ app: '6200100', mark: 'ORCHID', draw: { slug: 'docker' } }]);
    await web.t.deps.db('trademarks').where('application_number', '6200100').update({ class_number: 30 });
    expect((await indexPending({ app: web.t } as LogoTestApp)).failed).to.equal(0);
    await web.t.deps.search.sync();
    // The upload: a recoloured copy of ORCHID's logo.
    logoFile = path.join(uploads, 'proposed.png');
    fs.writeFileSync(logoFile, await drawLogo({ slug: 'docker', size: 140, ink: [200, 30, 30] }));
    // A sheet of two logos, ORCHID's on the right, to draw a box on.
    sheetFile = path.join(uploads, 'sheet.png');
    const [other, orchid] = await Promise.all([drawLogo({ slug: 'python', size: 140 }), drawLogo({ slug: 'docker', size: 140 })]);
    const sheetPng = sharp({ create: { width: 480, height: 200, channels: 3, background: '#ffffff' } }).composite([
      { input: other, left: 20, top: 30 },
      { input: orchid, left: 310, top: 30 },
    ]);
    fs.writeFileSync(sheetFile, await sheetPng.png().toBuffer());
    page = await chrome.page();
  });
  after(async () => {
    await workers?.close();
    await batchWorker?.close();
    await chrome?.close();
    await web?.close();
    await receiver?.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  const noViolations = async () => expect(describeViolations(await axeViolations(page))).to.equal('');
  /** Waits for `loc`; an alert the page shows instead fails the test with its text. */
  const shows = async (loc: ReturnType<Page['locator']>) => {
    const alert = page.getByRole('alert');
    await Promise.race([loc.first().waitFor(), alert.first().waitFor()]);
    if (!(await loc.first().isVisible())) expect.fail(`the page says: ${await alert.first().textContent()}`);
  };
  const go = async (section: string) => {
    await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: section }).click();
    await page.getByRole('heading', { level: 1, name: section }).waitFor();
  };

  it('signs up: the session is an httpOnly cookie page script cannot see, and the first key is shown once', async () => {
    await page.goto(`${web.url}/app/`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await noViolations();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByLabel('First name').fill('Asha');
    await page.getByLabel('Last name').fill('Rao');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse');
    await page.getByLabel('Plan').selectOption('business');
    await page.locator('form').getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Plan and usage' }).waitFor();
    expect(await page.getByLabel('Your first API key').inputValue()).to.match(/^nsh_[A-Za-z0-9]{32}$/);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'nsh_session')!;
    expect(session).to.include({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate(() => document.cookie)).to.equal('');
    await page.getByText('Trial ends').waitFor();
    await noViolations();
  });

  it('logs out (the cookie goes) and logs in again with the keyboard alone', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect((await page.context().cookies()).map((c) => c.name)).not.to.include('nsh_session');
    await page.getByLabel('Email').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('correct horse');
    await page.keyboard.press('Enter');
    await page.getByText(`Signed in as ${email}`).waitFor();
  });

  it("refuses the cookie on a request another origin's page starts, in a real browser", async () => {
    // Another origin on the same host (another port): the browser's site is the host, so SameSite lets the
    // cookie go with it, and it is the server's check (Sec-Fetch-Site, Origin) that refuses it. Other
    // hosts cannot be reached here (the harness resolves none but 127.0.0.1): SameSite=Strict keeps the
    // cookie off their requests, as its attributes (checked above) ask.
    const target = `${web.url}/user/v1/keys/`;
    const other = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><title>x</title><script>
        fetch(${JSON.stringify(target)}, { credentials: 'include', mode: 'no-cors' }).finally(() => { document.title = 'sent'; });
      </script>`);
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const tab = await page.context().newPage();
      const seen: { cookie: string; status: number }[] = [];
      tab.on('response', async (r) => {
        if (r.url() !== target) return;
        const h = await r.request().allHeaders();
        seen.push({ cookie: h.cookie ?? '', status: r.status() });
      });
      await tab.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
      await tab.waitForFunction(() => document.title === 'sent');
      await tab.close();
      expect(seen).to.have.length(1);
      expect(seen[0]!.status, JSON.stringify(seen)).to.equal(403);
      expect(seen[0]!.cookie).to.include('nsh_session=');
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('creates a key (shown once) and revokes it; the revoked key no longer works', async () => {
    await go('API keys');
    await page.getByLabel('Key name').fill('ci-server');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const key = await page.getByLabel('New API key').inputValue();
    expect(key).to.match(/^nsh_[A-Za-z0-9]{32}$/);
    const row = page.getByRole('row', { name: /ci-server/ });
    await row.waitFor();
    expect((await request(web.t.app).get('/v1/trademarks/?word_mark=sunrise').set('X-API-Key', key)).status).to.equal(200);
    await noViolations();
    await row.getByRole('button', { name: /^Revoke/ }).click();
    await row.getByText('Revoked').waitFor();
    expect((await request(web.t.app).get('/v1/trademarks/?word_mark=sunrise').set('X-API-Key', key)).status).to.equal(401);
  });

  it('reads this month’s usage: the call just made is counted, in the table and the chart', async () => {
    await go('Plan and usage');
    const calls = page.getByRole('row', { name: /^API calls/ });
    await calls.waitFor();
    expect((await calls.locator('td').first().textContent())?.trim()).to.equal('1');
    expect(await page.getByRole('img', { name: /Use of each monthly limit/ }).count()).to.equal(1);
    await noViolations();
  });

  it('registers a webhook, sees a test delivery (ping) in its log, replays a delivery, rotates its secret, edits it', async () => {
    await go('Webhooks');
    await page.getByLabel('URL (HTTPS)').fill(receiver.url);
    await page.getByLabel('Application numbers (comma-separated)').fill('4100001');
    await page.getByRole('button', { name: 'Register a webhook' }).last().click();
    expect(await page.getByLabel('Signing secret (shown once)').inputValue()).to.match(/^whsec_/);
    const hook = page.getByRole('listitem', { name: receiver.url });
    await hook.waitFor();
    await hook.getByRole('button', { name: 'Send a test ping' }).click();
    await hook.getByText(/^Test ping delivered: HTTP 200/).waitFor();
    await receiver.waitFor(1);
    expect(JSON.parse(receiver.received[0]!.body).event).to.equal('webhook.ping');
    expect(receiver.received[0]!.headers['x-nishaan-signature']).to.match(/^sha256=/);
    // The ping is in the webhook's delivery log at once: event, no mark, delivered, one attempt, HTTP 200, and no replay.
    const pinged = hook.getByRole('table', { name: 'Delivery log' }).locator('tbody tr');
    await pinged.first().waitFor();
    expect(await pinged.count()).to.equal(1);
    const cells = await pinged.first().locator('td').allTextContents();
    expect(cells.slice(1, 6)).to.deep.equal(['webhook.ping', '—', 'delivered', '1', '200']);
    expect(await pinged.first().getByRole('button', { name: 'Replay' }).count()).to.equal(0);

    // Real deliveries: the register's next import changes the monitored mark, the workers deliver.
    workers = await startWorkers(web.t);
    await importFixture(web.t, 'delta');
    await receiver.waitFor(2);
    const db = web.t.deps.db;
    await until('deliveries to finish', async () => (await db('webhook_deliveries').where({ status: 'pending' })).length === 0);
    const delivered = receiver.received.length;
    await go('Plan and usage');
    await go('Webhooks');
    const log = hook.getByRole('table', { name: 'Delivery log' });
    await log.waitFor();
    const first = log.locator('tbody tr').first();
    expect(await first.locator('td').nth(2).textContent()).to.equal('4100001');
    expect(await first.locator('td').nth(3).textContent()).to.equal('delivered');
    await noViolations();
    await first.getByRole('button', { name: 'Replay' }).click();
    await receiver.waitFor(delivered + 1);
    const again = receiver.received.at(-1)!;
    expect(JSON.parse(again.body).trademark.application_number).to.equal('4100001');

    // A new signing secret, shown once, signs the next ping.
    await hook.getByRole('button', { name: 'Rotate signing secret' }).click();
    const secret = await hook.getByLabel('Signing secret (shown once)').inputValue();
    expect(secret).to.match(/^whsec_/);
    await hook.getByRole('button', { name: 'Send a test ping' }).click();
    await receiver.waitFor(delivered + 2);
    const ping = receiver.received.at(-1)!;
    const signature = `sha256=${createHmac('sha256', secret).update(ping.body).digest('hex')}`;
    expect(ping.headers['x-nishaan-signature']).to.equal(signature);
    // The log reloads with it on top.
    await hook.getByText(/^Test ping delivered: HTTP 200/).waitFor();
    await until(
      'the second ping in the log',
      async () => (await log.locator('tbody tr').first().locator('td').nth(1).textContent()) === 'webhook.ping',
    );

    // Edited: switched off.
    await hook.getByRole('button', { name: 'Edit' }).click();
    await hook.getByLabel('Active').uncheck();
    await hook.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('listitem', { name: receiver.url })
      .getByText(/— inactive/)
      .waitFor();
    expect((await web.t.deps.db('webhooks').first('active')).active).to.equal(false);
  });

  it('watches for similar filings through that webhook', async () => {
    // A business trial includes watches and clearance: no admin step.
    await go('Watches');
    expect(await page.getByRole('note').count(), 'no "not on your plan" note').to.equal(0);
    expect(await page.getByLabel('Lowest risk to report').inputValue(), "the API's default").to.equal('Medium');
    await page.getByLabel('Word mark', { exact: true }).fill('SUNRAISE');
    await page.getByLabel('Classes (comma-separated numbers)').fill('30');
    await page.getByRole('button', { name: 'Watch for similar filings' }).last().click();
    await shows(page.getByRole('row', { name: /SUNRAISE/ }));
    await noViolations();

    // A class outside 1-45 is sent as typed: the API's 400 names it and the form shows it; nothing is made.
    await page.getByLabel('Word mark', { exact: true }).fill('MOONRAISE');
    await page.getByLabel('Classes (comma-separated numbers)').fill('30, 46');
    await page.getByRole('button', { name: 'Watch for similar filings' }).last().click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.equal('classes: 46 is not a Nice class (1-45)');
    expect(await page.getByRole('row', { name: /MOONRAISE/ }).count()).to.equal(0);
    expect(await page.getByLabel('Classes (comma-separated numbers)').inputValue()).to.equal('30, 46');
  });

  it('lists the watch hits in the inbox with their deadline and a link to the mark, and triages them', async () => {
    // Two new filings like the watched SUNRAISE: one advertised in journal 2, one not yet.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nishaan-inbox-'));
    writeFilings(dir, [filing('6400001', 'SUNRAISE FOODS', 30, 2), filing('6400002', 'SUNRAISE TEA', 30, null)]);
    await importSet({ db: web.t.deps.db, store: web.t.deps.store, dir });
    fs.rmSync(dir, { recursive: true, force: true });
    await web.t.deps.services.watchMatcher.matchPending();
    await page.reload();
    await go('Watches');
    const inbox = page.getByRole('region', { name: /Watch inbox/ });
    const foods = inbox.getByRole('row', { name: /SUNRAISE FOODS/ });
    const tea = inbox.getByRole('row', { name: /SUNRAISE TEA/ });
    await shows(foods);
    // The badge counts the new hits (these two, and any the watch caught before).
    const fresh = Number((await web.t.deps.db('watch_hits').where({ state: 'new' }).count({ n: '*' }).first())!.n);
    expect(fresh).to.be.at.least(2);
    expect(await inbox.getByRole('heading', { name: /Watch inbox/ }).textContent()).to.contain(`${fresh} new`);
    expect(await foods.getByRole('cell').nth(3).textContent()).to.match(/^\d{4}-\d{2}-\d{2}$/);
    expect(await tea.getByRole('cell').nth(3).textContent()).to.equal('not advertised yet');
    expect(await foods.getByRole('link', { name: 'SUNRAISE FOODS' }).getAttribute('href')).to.equal('/marks/6400001/');
    await noViolations();
    // Dismissed: it leaves the open hits, and is found under Dismissed; the badge counts one new hit.
    await tea.getByRole('button', { name: 'Dismiss SUNRAISE TEA' }).click();
    await page.waitForFunction(() => !document.body.textContent?.includes('SUNRAISE TEA ('));
    await inbox.getByRole('heading', { name: new RegExp(`${fresh - 1} new`) }).waitFor();
    await inbox.getByLabel('Show').selectOption('dismissed');
    await shows(inbox.getByRole('row', { name: /SUNRAISE TEA/ }));
    expect(await inbox.getByRole('row', { name: /SUNRAISE FOODS/ }).count()).to.equal(0);
    const [hit] = await web.t.deps.db('watch_hits').where({ application_number: '6400002' }).select('state');
    expect(hit.state).to.equal('dismissed');
  });

  it("finds an owner by name, reads its page of names and marks, watches its filings and sets it as the account's own", async () => {
    await insertMarks(web.t.deps.db, [
      { app: '6500101', mark: 'LOTUS GOLD', cls: 30, owner: 'M/S LOTUS AGRO FOODS PVT. LTD.' },
      { app: '6500102', mark: 'LOTUS PEARL', cls: 29, owner: 'LOTUS AGRO FOODS PRIVATE LIMITED' },
    ]);
    await web.t.deps.services.owners.catchUp({ force: true });
    await go('Owners');
    await page.getByLabel('Owner name (its beginning)').fill('lotus agro');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const row = page.getByRole('row', { name: /LOTUS AGRO FOODS/ });
    await shows(row);
    expect(await row.count(), 'the two spellings are one owner').to.equal(1);
    expect(await row.textContent()).to.contain('2 marks');
    await noViolations();
    await row.getByRole('link').click();
    await page.getByRole('heading', { level: 2, name: 'LOTUS AGRO FOODS PRIVATE LIMITED' }).waitFor();
    expect(page.url()).to.match(/\/app\/owners\/own_[0-9a-f]{16}\/$/);
    expect(await page.getByRole('listitem').filter({ hasText: 'M/S LOTUS AGRO FOODS PVT. LTD.' }).count()).to.equal(1);
    const marks = page.getByRole('region', { name: '2 found' });
    expect(await marks.getByRole('link', { name: 'LOTUS GOLD' }).getAttribute('href')).to.equal('/marks/6500101/');
    expect(await marks.getByRole('link', { name: 'LOTUS PEARL' }).getAttribute('href')).to.equal('/marks/6500102/');
    await noViolations();
    const id = page.url().match(/own_[0-9a-f]{16}/)![0];
    await page.getByRole('button', { name: "Watch this owner's new filings" }).click();
    await page.getByRole('status').filter({ hasText: 'Watching this owner' }).waitFor();
    const watched = await web.t.deps.db('watches').where({ owner_id: id }).count({ n: '*' }).first();
    expect(Number(watched!.n)).to.equal(1);
    await page.getByRole('button', { name: 'This owner is us' }).click();
    await page.getByRole('status').filter({ hasText: 'Set as your own' }).waitFor();
    const [account] = await web.t.deps.db('accounts').where({ email }).select('owner_id');
    expect(account.owner_id).to.equal(id);
  });

  it('runs a clearance with a logo upload: the look-alike logo side by side with a risk badge and reasons; its PDF', async () => {
    await go('Clearance');
    await page.getByLabel('Word mark', { exact: true }).fill('QUOLMEX');
    await page.getByLabel('Classes (comma-separated numbers)').fill('30');
    await page.getByLabel('Logo (optional image)').setInputFiles(logoFile);
    await page.locator('form').getByRole('button', { name: 'Check clearance' }).click();
    const conflict = page.locator('.dash-conflicts > li', { hasText: 'ORCHID' });
    await shows(conflict);
    expect(await conflict.locator('.dash-risk').textContent()).to.match(/^(Low|Medium|High)$/);
    expect(await conflict.getByRole('img', { name: 'Your logo' }).count()).to.equal(1);
    expect(await conflict.getByRole('img', { name: 'Their logo: ORCHID' }).count()).to.equal(1);
    expect(await conflict.locator('ul li').count()).to.be.at.least(1);
    await noViolations();
    // Its PDF report, fetched with the session and handed over as a download.
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(pdf.suggestedFilename()).to.match(/^clearance-.+\.pdf$/);
    expect(
      fs
        .readFileSync(await pdf.path())
        .subarray(0, 5)
        .toString(),
    ).to.equal('%PDF-');
  });

  it('keeps working after a reload with the session alone: no key pasted, made or stored by the page', async () => {
    const keysBefore = await web.t.deps.db('api_keys').count({ n: '*' }).first();
    // 60 GOLDLEAF marks in class 3: more conflicts than a page holds.
    await insertMarks(
      web.t.deps.db,
      Array.from({ length: 60 }, (_, i) => ({ app: String(6300001 + i), mark: `GOLDLEAF ${i + 1}`, cls: 3 })),
    );
    await web.t.deps.search.sync();
    await page.reload();
    await go('Clearance');
    await page.getByLabel('Word mark', { exact: true }).fill('GOLDLEAF');
    await page.getByLabel('Classes (comma-separated numbers)').fill('3');
    await page.locator('form').getByRole('button', { name: 'Check clearance' }).click();
    await shows(page.getByText(/^Showing 1–50 of 60$/));
    // The next page is read from the kept clearance, free.
    const used = await web.t.used((await web.t.deps.repos.admin.accountId(email))!, 'clearances');
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Next' }).click();
    await page.getByText('Showing 51–60 of 60').waitFor();
    expect(await web.t.used((await web.t.deps.repos.admin.accountId(email))!, 'clearances')).to.equal(used);
    await go('Search');
    await page.getByLabel('Word mark', { exact: true }).fill('sunrise');
    await page.locator('form', { hasText: 'Search word marks' }).getByRole('button', { name: 'Search' }).click();
    await shows(page.getByRole('heading', { name: /found$/ }));
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }) + document.cookie);
    expect(stored).to.not.match(/nsh_[A-Za-z0-9]{32}/);
    expect(await web.t.deps.db('api_keys').count({ n: '*' }).first()).to.deep.equal(keysBefore);
  });

  it('shows the plan beside the others, as GET /user/v1/plans/ has them', async () => {
    await go('Plans');
    const plans = page.locator('.dash-plans > section');
    // The heading shows before the plans are read: wait for them, then count (it failed once counting none).
    await plans.nth(2).waitFor();
    expect(await plans.count()).to.equal(3);
    expect(await page.locator('.dash-mine h2').textContent()).to.equal('Business · Your plan');
    const business = page.getByRole('region', { name: /^Business/ });
    expect(await business.getByText('Clearance and batch clearance').locator('xpath=following-sibling::dd[1]').textContent()).to.equal(
      'Yes',
    );
    const basic = page.getByRole('region', { name: 'Basic' });
    expect(await basic.getByText('Similarity watches').locator('xpath=following-sibling::dd[1]').textContent()).to.equal('No');
    await noViolations();
  });

  it("screens a batch of names in the workers: follows its progress, shows each name's outcome, downloads its reports", async () => {
    batchWorker = startClearanceBatchWorker(web.t.deps, { intervalMs: 60_000 });
    await go('Clearance');
    const batch = page.getByRole('region', { name: 'Batch clearance' });
    await batch.getByLabel('Names to clear (one per line)').fill('SUNRISE FOODS\nKAVERI\n\nSUNRIZE');
    await batch.getByLabel('Classes for every name (comma-separated numbers)').fill('30');
    await batch.getByRole('button', { name: 'Screen every name' }).click();
    await shows(batch.getByText(/^Batch completed \(0 not screened\)$/));
    expect(await batch.getByRole('progressbar', { name: '3 of 3 names screened' }).getAttribute('value')).to.equal('3');
    const rows = batch.getByRole('table', { name: 'Outcome per name' }).locator('tbody tr');
    expect(await rows.count()).to.equal(3);
    const sunrise = await rows.first().locator('td').allTextContents();
    expect(sunrise[0]).to.equal('SUNRISE FOODS');
    expect(sunrise[1]).to.match(/^(Low|Medium|High)$/);
    expect(sunrise[2]).to.match(/^[1-9]\d* possible conflicts$/);
    expect((await rows.nth(2).locator('td').first().textContent())?.trim()).to.equal('SUNRIZE');
    const job = await web.t.deps.db('clearance_batches').orderBy('created_at', 'desc').first();
    expect(job).to.include({ status: 'completed', total: 3 });
    await noViolations();
    // The whole job's reports, fetched with the tab's key.
    for (const [button, ext, magic] of [
      ['Batch report (PDF)', 'pdf', '%PDF-'],
      ['Batch report (Excel)', 'xlsx', 'PK'],
    ]) {
      const [file] = await Promise.all([page.waitForEvent('download'), batch.getByRole('button', { name: button }).click()]);
      expect(file.suggestedFilename()).to.equal(`clearance-${job.id}.${ext}`);
      expect(
        fs
          .readFileSync((await file.path())!)
          .subarray(0, magic.length)
          .toString(),
      ).to.equal(magic);
    }
  });

  it('lists every name of a 150-name batch, however many pages of answers that takes', async () => {
    // Past the trial's allowance: the subscription is paid for (an admin activates it, as payment would).
    const { admin } = web.t.deps.repos;
    await admin.activate((await admin.accountId(email))!, null);
    await web.t.synced();
    await go('Clearance');
    const batch = page.getByRole('region', { name: 'Batch clearance' });
    const names = Array.from({ length: 150 }, (_, i) => `BATCHNAME ${i + 1}`);
    await batch.getByLabel('Names to clear (one per line)').fill(names.join('\n'));
    await batch.getByLabel('Classes for every name (comma-separated numbers)').fill('30');
    await batch.getByRole('button', { name: 'Screen every name' }).click();
    // The earlier batch's outcome is on the page until this one's answer replaces it: wait for this one's count.
    await shows(batch.getByRole('progressbar', { name: '150 of 150 names screened' }));
    await shows(batch.getByText(/^Batch completed \(0 not screened\)$/));
    const table = batch.getByRole('table', { name: /^Outcome per name · 150 of 150 names$/ });
    await table.waitFor();
    const first = await table.locator('tbody tr td:first-child').allTextContents();
    expect(first).to.deep.equal(names);
  });

  it('searches word marks with the keyed API and pages, searches by a logo upload; speaks Hindi', async () => {
    await go('Search');
    await page.getByLabel('Word mark', { exact: true }).fill('sunrise');
    await page.locator('form', { hasText: 'Search word marks' }).getByRole('button', { name: 'Search' }).click();
    await shows(page.getByRole('heading', { name: /found$/ }));
    await page.getByText('Showing 1–20').waitFor();
    const marks = await page.locator('table.dash-table tbody th').allTextContents();
    expect(marks).to.have.length(20);
    expect(marks.every((m) => m.startsWith('SUNRISE'))).to.equal(true);
    await noViolations();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(/^Showing 21–/).waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).to.equal(true);
    // Logo search by upload: ORCHID's logo, recoloured, finds ORCHID.
    await page.getByLabel('Logo image').setInputFiles(logoFile);
    await page.locator('form', { hasText: 'Search by logo' }).getByRole('button', { name: 'Search by logo' }).click();
    await shows(page.locator('.dash-logo-grid li', { hasText: 'ORCHID' }));
    // A box drawn on a sheet of two logos searches that part alone: its field says where, in the picture's pixels.
    await page.getByLabel('Logo image').setInputFiles(sheetFile);
    const picture = page.getByRole('img', { name: 'The picture to search: drag a box over the logo' });
    await picture.scrollIntoViewIfNeeded();
    const r = (await picture.boundingBox())!;
    await page.mouse.move(r.x + r.width * 0.62, r.y + r.height * 0.08);
    await page.mouse.down();
    await page.mouse.move(r.x + r.width * 0.97, r.y + r.height * 0.93, { steps: 8 });
    await page.mouse.up();
    const drawn = (await page.getByLabel(/^Part to search/).inputValue()).split(',').map(Number);
    expect(drawn).to.have.length(4);
    expect(drawn[0]).to.be.within(280, 310);
    expect(drawn[0] + drawn[2]).to.be.within(455, 480);
    await page.locator('form', { hasText: 'Search by logo' }).getByRole('button', { name: 'Search by logo' }).click();
    await shows(page.locator('.dash-logo-grid li').first().filter({ hasText: 'ORCHID' }));
    await noViolations();
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await page.getByRole('navigation', { name: 'डैशबोर्ड के भाग' }).getByRole('link', { name: 'API कुंजियाँ' }).waitFor();
    await noViolations();
    // An API error on a Hindi page is said in Hindi: its code from the glossary, the field by its Hindi name.
    await page.getByRole('navigation', { name: 'डैशबोर्ड के भाग' }).getByRole('link', { name: 'निगरानी' }).click();
    await page.getByLabel('शब्द चिह्न', { exact: true }).fill('MOONRAISE');
    await page.getByLabel('वर्ग (अल्पविराम से अलग संख्याएँ)').fill('30, 46');
    await page.getByRole('button', { name: 'मिलते-जुलते आवेदनों पर नज़र रखें' }).last().click();
    const said = page.getByRole('alert');
    await said.waitFor();
    expect(await said.textContent()).to.equal('यह जानकारी सही नहीं है: वर्ग');
    expect(await page.locator('main').textContent(), 'no English on the Hindi page but names and codes').to.not.match(
      /\b(the|is|not|and|of)\b/i,
    );
    expect(chrome.blocked).to.deep.equal([]);
  });

  it('goes back to its login when the session has ended meanwhile', async () => {
    await page.getByRole('button', { name: 'English' }).click();
    await page.context().clearCookies();
    await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
  });
});
