// The API as `npm start` runs it: one process per core (BENCH_PROCESSES, default 2) sharing the port
// through node:cluster. Reports 'ready' once every process listens, then its processes' RSS on request
// ('rss'), or their memory as /proc/PID/smaps_rollup counts it ('memory': RSS, PSS and private, in bytes).
import cluster from 'node:cluster';
import fs from 'node:fs';

if (cluster.isPrimary) {
  const n = Number(process.env.BENCH_PROCESSES ?? 2);
  // As npm start runs them (scripts/start.ts): source maps decided before the process's own modules load.
  cluster.setupPrimary({ execArgv: [...process.execArgv, '--import', new URL('../../scripts/sourceMaps.mjs', import.meta.url).pathname] });
  let ready = 0;
  let heaps: NodeJS.MemoryUsage[] = [];
  for (let i = 0; i < n; i++) {
    const w = cluster.fork();
    w.on('message', (m) => {
      if (m && typeof m === 'object' && 'heap' in m) heaps.push((m as { heap: NodeJS.MemoryUsage }).heap);
      else if (++ready === n) process.send?.('ready');
    });
    // A process that dies before it serves fails the benchmark at once instead of leaving it waiting.
    w.on('exit', (code) => ready < n && process.exit(code || 1));
  }
  const rss = () =>
    Object.values(cluster.workers ?? {}).map((w) => {
      const status = fs.readFileSync(`/proc/${w!.process.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024;
    });
  const memory = () =>
    Object.values(cluster.workers ?? {}).map((w) => {
      const kb = (name: string, text: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
      const r = fs.readFileSync(`/proc/${w!.process.pid}/smaps_rollup`, 'utf8');
      return {
        rss: kb('Rss', r),
        pss: kb('Pss', r),
        private: kb('Private_Clean', r) + kb('Private_Dirty', r),
        shared: kb('Shared_Clean', r) + kb('Shared_Dirty', r),
      };
    });
  process.on('message', (m) => {
    if (m === 'rss') process.send?.({ rss: rss() });
    if (m === 'memory') {
      heaps = [];
      for (const w of Object.values(cluster.workers ?? {})) w?.send('heap');
      const wait = setInterval(() => {
        if (heaps.length < n) return;
        clearInterval(wait);
        process.send?.({ memory: memory(), heaps });
      }, 20);
    }
  });
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    cluster.on('exit', () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0));
  });
} else {
  await import('./api.ts');
}
