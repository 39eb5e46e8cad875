// A web app to look at outside the test runner (scripts/screenshots.ts, bench/webSearch.ts): the real app
// on a cloned test database with a few hundred marks, served like startWebApp serves it to the tests.

import { startWebApp, type WebApp } from './browser.ts';
import { buildTemplate, dropTestDatabases } from './db.ts';
import { insertMarks, type MarkSpec } from './marks.ts';

const WORDS = ['SUNRISE', 'SUNRYZE', 'LOTUS', 'GANGA', 'TIGER', 'SHRI GANESH', 'ROYAL', 'GOLDEN', 'STAR', 'NAVRATNA'];
const TAILS = ['', ' FOODS', ' TEXTILES', ' PHARMA', ' TEA', ' MOTORS', ' JEWELLERS', ' CAFE', ' AGRO', ' INFOTECH'];
const CLASSES = [30, 29, 25, 5, 43, 12, 14, 9, 31, 35];
const STATUSES = ['Registered', 'Registered', 'Objected', 'Opposed', 'Abandoned', 'Accepted & Advertised'];
const STATES = ['MAHARASHTRA', 'DELHI', 'TAMIL NADU', 'GUJARAT', 'KARNATAKA', 'WEST BENGAL'];

/** 100 marks: every word with every tail, in varied classes, statuses, states and dates. */
export const DEMO_MARKS: MarkSpec[] = WORDS.flatMap((w, i) =>
  TAILS.map((t, j) => ({
    app: String(7000000 + i * 100 + j),
    mark: `${w}${t}`,
    cls: CLASSES[(i + j) % CLASSES.length],
    status: STATUSES[(i * 3 + j) % STATUSES.length],
    state: STATES[(i + 2 * j) % STATES.length],
    date: `${2005 + ((i * 7 + j) % 20)}-0${1 + (j % 9)}-1${i % 10}`,
  })),
);

/** Starts the demo; close() stops it and drops its database. */
export async function startDemoWebApp(env: Record<string, string> = {}): Promise<WebApp> {
  await buildTemplate();
  const web = await startWebApp({ PUBLIC_SEARCH_PER_HOUR: '100000', ...env });
  await insertMarks(web.t.deps.db, DEMO_MARKS);
  await web.t.synced();
  return {
    ...web,
    async close() {
      await web.close();
      await dropTestDatabases();
    },
  };
}
