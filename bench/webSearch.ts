// The public page's search, end to end in Chromium: from the submit to the results on screen (the page
// marks it with performance.measure('search'), bench's clock is the browser's), and the same from this
// side (click to table visible, what a person waits).
//   npx tsx bench/webSearch.ts [--url URL] [--runs N]
// --url: a running `npm start` (e.g. over the 7.7M benchmark register); mind its 60 searches an hour per
// address (PUBLIC_SEARCH_PER_HOUR). Without it, the demo app (test/helpers/webDemo.ts).

import { parseArgs } from 'node:util';
import { openBrowser } from '../test/helpers/browser.ts';
import { startDemoWebApp } from '../test/helpers/webDemo.ts';

process.env.NODE_ENV ??= 'test';
process.env.LOG_LEVEL ??= 'silent';
const { values } = parseArgs({ options: { url: { type: 'string' }, runs: { type: 'string', default: '30' } } });
const runs = Number(values.runs);
const QUERIES = ['sunrise', 'lotus', 'ganga', 'tiger', 'shri ganesh', 'royal', 'golden', 'star', 'navratna', 'sunryze foods'];

const demo = values.url ? null : await startDemoWebApp();
const base = (values.url ?? demo!.url).replace(/\/$/, '');
const chrome = await openBrowser();
const inPage: number[] = [];
const seen: number[] = [];
const http: number[] = [];
try {
  const page = await chrome.page();
  await page.goto(`${base}/`, { waitUntil: 'networkidle' });
  // A first search warms the connection and the page's code; not counted.
  for (let i = -1; i < runs; i++) {
    const q = `${QUERIES[(i + QUERIES.length) % QUERIES.length]}${i >= QUERIES.length ? ` ${i}` : ''}`;
    const before = await page.evaluate(() => performance.getEntriesByName('search').length);
    await page.getByLabel('Word mark').fill(q);
    const t0 = performance.now();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForFunction((n) => performance.getEntriesByName('search').length > n, before, { polling: 'raf' });
    const t1 = performance.now();
    const [ms, request] = await page.evaluate(() => {
      const call = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/public/v1/trademarks/search/'))
        .at(-1) as PerformanceResourceTiming;
      performance.clearResourceTimings();
      return [performance.getEntriesByName('search').at(-1)!.duration, call.responseEnd - call.startTime];
    });
    if (i < 0) continue;
    inPage.push(ms);
    seen.push(t1 - t0);
    http.push(request);
  }
  const blocked = await page.locator('[role="alert"]').count();
  if (blocked) console.error('warning: the page showed an alert (the hourly limit?): the timings include refusals');
} finally {
  await chrome.close();
  await demo?.close();
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const line = (what: string, xs: number[]) =>
  `${what}: median ${pct(xs, 50).toFixed(1)} ms, p90 ${pct(xs, 90).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
console.log(`public page search, ${runs} searches against ${values.url ?? 'the demo app (100 marks)'}`);
console.log(line('  in the page (submit to results rendered)', inPage));
console.log(line('  of which the API request (fetch start to response end)', http));
console.log(line('  from the driver (click to results rendered)', seen));
