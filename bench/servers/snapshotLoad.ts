// Loads a search snapshot in a fresh process, as an API process does at start, and reports how long
// it took and what the process holds afterwards (bench/search.ts).
import { loadSnapshot } from '../../src/search/snapshot.ts';

const t0 = performance.now();
const snap = await loadSnapshot(process.env.SNAPSHOT!);
const ms = performance.now() - t0;
if (!snap) throw new Error(`no snapshot at ${process.env.SNAPSHOT}`);
globalThis.gc?.();
process.send!({ ms, marks: snap.index.n, rss: process.memoryUsage().rss }, () => process.exit(0));
