// The API as `npm start` runs it: one process per core (BENCH_PROCESSES, default 2) sharing the port
// through node:cluster. Reports 'ready' once every process listens, then its processes' RSS on request
// ('rss'), or their memory as /proc/PID/smaps_rollup counts it ('memory': RSS, PSS and private, in bytes, and PSS
// by kind of mapping from /proc/PID/smaps).
import cluster from 'node:cluster';
import fs from 'node:fs';
import { fixMallocThreshold } from '../../scripts/malloc.ts';

if (cluster.isPrimary) {
  const n = Number(process.env.BENCH_PROCESSES ?? 2);
  // As npm start runs them (scripts/start.ts): malloc's threshold fixed, source maps decided before the process's
  // own modules load.
  fixMallocThreshold();
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
        parts: pssByKind(w!.process.pid!),
      };
    });
  // PSS by what is mapped: anonymous memory (the JS heap, array buffers, malloc's larger blocks), malloc's heap,
  // the search snapshot, and other files (node, its libraries).
  const pssByKind = (pid: number) => {
    const parts = { anon: 0, heap: 0, snapshot: 0, files: 0 };
    let kind: keyof typeof parts = 'anon';
    for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (head) {
        const name = head[1];
        kind = name === '[heap]' ? 'heap' : name.endsWith('.snapshot') ? 'snapshot' : name.startsWith('/') ? 'files' : 'anon';
      } else if (line.startsWith('Pss:')) parts[kind] += Number(/(\d+)/.exec(line)![1]) * 1024;
    }
    return parts;
  };
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
