import { expect } from 'chai';
import request from 'supertest';
import { DOCS_CSP } from '../../src/http/docsPage.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { openBrowser } from '../helpers/browser.ts';

// What browsers are told of the answers that are not JSON for a program (issue 39, item 9): no answer is sniffed
// into something it does not say it is, a file served inline keeps its link out of the Referer, and the API's
// docs page runs only its own scripts.

describe('security headers', function () {
  this.timeout(60_000);
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await t.deps.store.put('blobs/headers.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'));
    await t.deps.store.put('blobs/headers.bin', Buffer.from('<html><script>alert(1)</script></html>'));
  });
  after(async () => t.close());

  const pathOf = (url: string) => {
    const u = new URL(url);
    return u.pathname + u.search;
  };

  it('sends nosniff and no referrer with a file served inline, whatever its type', async () => {
    for (const key of ['blobs/headers.pdf', 'blobs/headers.bin']) {
      const res = await request(t.app)
        .get(pathOf(t.deps.store.signedUrl(key, { accountId: t.account.accountId }).url))
        .buffer(true);
      expect(res.status, key).to.equal(200);
      expect(res.headers['content-disposition'], key).to.match(/^inline/);
      expect(res.headers['x-content-type-options'], key).to.equal('nosniff');
      expect(res.headers['referrer-policy'], key).to.equal('no-referrer');
    }
  });

  it('sends nosniff with every other answer: JSON, errors, the document', async () => {
    for (const p of ['/v1/journals/', '/no/such/path', '/openapi.json', '/healthz']) {
      const res = await request(t.app).get(p).set('X-API-Key', t.account.key);
      expect(res.headers['x-content-type-options'], p).to.equal('nosniff');
    }
  });

  it('gives the docs page a policy that lets Swagger UI draw the document and nothing else run', async () => {
    const res = await request(t.app).get('/docs');
    expect(res.headers['content-security-policy']).to.equal(DOCS_CSP);
    expect(DOCS_CSP).to.contain("script-src 'self'").and.contain("frame-ancestors 'none'").and.not.contain("script-src 'self' 'unsafe");
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const session = await openBrowser();
    try {
      const page = await session.page();
      const refused: string[] = [];
      page.on('console', (m) => /Content Security Policy|Refused to/.test(m.text()) && refused.push(m.text()));
      const { port } = server.address() as { port: number };
      await page.goto(`http://127.0.0.1:${port}/docs`);
      // Swagger UI fetched the document and drew its title and operations.
      await page.waitForSelector('.swagger-ui .info .title', { timeout: 20_000 });
      expect(await page.textContent('.swagger-ui .info .title')).to.contain('Nishaan');
      expect(await page.locator('.opblock').count()).to.be.greaterThan(30);
      // An inline script on the page is refused by the policy.
      const ran = await page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__injected = true';
        document.body.appendChild(s);
        return (window as unknown as { __injected?: boolean }).__injected === true;
      });
      expect(ran).to.equal(false);
      expect(
        refused.filter((r) => !r.includes('inline script')),
        refused.join('\n'),
      ).to.deep.equal([]);
    } finally {
      await session.close();
      server.close();
    }
  });
});
