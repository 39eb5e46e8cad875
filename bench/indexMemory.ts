// One index per machine (issue 45, item 1): the memory of a machine's API processes with the search snapshot
// mapped, one copy shared through the page cache (SEARCH_SNAPSHOT_LOAD=map), beside each process reading its own
// copy (read: the code before), at the same process counts, and their search throughput, in one run.
// Memory is read from /proc/PID/smaps_rollup once each configuration has served its load: PSS splits a page
// shared by k processes k ways, so the sum of the processes' PSS is what they cost the machine together.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/nishaan_big npx tsx bench/indexMemory.ts \
//     --snapshot /tmp/big.snapshot [--processes 2,4] [--modes read,map] [--duration 15] [--fill 250]
// --fill N: before the measured load, N queries of each class for as long, so that each process keeps as many sets
// of marks between queries as it may (the measured queries alone keep 83 at 7.7M, a long-running process up to its
// limit, src/search/wordSets.ts): memory read as a process that has served long holds it.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createBenchAccounts } from './account.ts';
import { args, DEFAULT_URL, loadEnv, measure, startProcess } from './lib.ts';
import { queryClasses } from './searchQueries.ts';

const a = args();
const url = process.env.DATABASE_URL ?? DEFAULT_URL;
const snapshot = a.get('snapshot') ?? 'var/search/index.snapshot';
const counts = (a.get('processes') ?? '2,4').split(',').map(Number);
const modes = (a.get('modes') ?? 'read,map').split(',');
const duration = Number(a.get('duration') ?? 15);
const fill = Number(a.get('fill') ?? 0);
const PORT = 3913;
/** The bound: all API processes of a machine together within one index and this much each. */
const OWN_BOUND = 300 * 2 ** 20;

interface Memory {
  rss: number;
  pss: number;
  private: number;
  shared: number;
  parts: { anon: number; heap: number; snapshot: number; files: number };
}

const snapshotBytes = fs.statSync(snapshot).size;
const pathsOf = (classes: Awaited<ReturnType<typeof queryClasses>>) =>
  Object.entries(classes).flatMap(([name, qs]) =>
    name === 'exact'
      ? []
      : qs.map((q) => {
          const p = new URLSearchParams({ word_mark: q.text, match_type: q.mode, limit: '50' });
          if (q.classes) p.set('classes', q.classes.join(','));
          return `/v1/trademarks/?${p}`;
        }),
  );
const paths = pathsOf(await queryClasses(url, 60));
const fillPaths = fill ? pathsOf(await queryClasses(url, fill)) : [];
const keys = await createBenchAccounts(url, 8);
const gib = (b: number) => (b / 2 ** 30).toFixed(2);
const mib = (b: number) => (b / 2 ** 20).toFixed(0);

function memoryOf(server: ChildProcess): Promise<{ memory: Memory[]; heaps: NodeJS.MemoryUsage[] }> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if (m && typeof m === 'object' && 'memory' in m) {
        server.off('message', on);
        resolve(m as { memory: Memory[]; heaps: NodeJS.MemoryUsage[] });
      }
    };
    server.on('message', on);
    server.send('memory');
  });
}

const rows: string[] = [];
console.log(`snapshot: ${snapshot}, ${gib(snapshotBytes)} GiB; ${paths.length} queries of every class but EXACT`);
for (const n of counts) {
  for (const mode of modes) {
    const env = {
      ...loadEnv(url, 8),
      SEARCH_SNAPSHOT: snapshot,
      SEARCH_SNAPSHOT_LOAD: mode,
      SEARCH_CACHE_TTL_SECONDS: '0',
      PORT: String(PORT),
      BENCH_PROCESSES: String(n),
    };
    const t0 = performance.now();
    const server = await startProcess('./servers/cluster.ts', env);
    const ready = (performance.now() - t0) / 1000;
    try {
      if (fill) await measure(`${mode}, ${n} processes, filling`, PORT, fillPaths, { duration, connections: 16, keys });
      const load = await measure(`${mode}, ${n} processes`, PORT, paths, { duration, connections: 16, keys });
      const { memory: mem, heaps } = await memoryOf(server);
      const sum = (k: Exclude<keyof Memory, 'parts'>) => mem.reduce((s, m) => s + m[k], 0);
      const bound = snapshotBytes + n * OWN_BOUND;
      const heap = heaps.map((h) => `${mib(h.heapUsed)} + ${mib(h.arrayBuffers)}`).join(', ');
      const parts = mem.map(({ parts: p }) => `${mib(p.anon)} + ${mib(p.heap)} + ${mib(p.files)}`).join(', ');
      rows.push(
        `| ${mode} | ${n} | ${ready.toFixed(1)} | ${load.rps.toFixed(0)} | ${load.p50} / ${load.p99} | ` +
          `${mem.map((m) => gib(m.rss)).join(', ')} | ${gib(sum('pss'))} | ${gib(sum('private') / n)} | ` +
          `${heap} | ${parts} | ${gib(bound)} | ${sum('pss') <= bound ? 'yes' : 'no'} |`,
      );
      console.log(rows.at(-1));
    } finally {
      const gone = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await gone;
    }
  }
}
console.log(
  '\n| load | processes | ready s | search req/s | p50 / p99 ms | RSS each GiB | PSS all GiB | private each GiB | ' +
    'JS heap + array buffers each MiB | own PSS each MiB: anonymous + malloc heap + files | bound GiB | within |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`\nbound: the snapshot (${gib(snapshotBytes)} GiB) + 300 MiB per process`);
