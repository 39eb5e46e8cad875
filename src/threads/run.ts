import { Worker } from 'node:worker_threads';

/**
 * Runs `module` (a file URL; it answers the one message it is given with one message) in a worker
 * thread, and resolves with its answer.
 */
export function inThread<In, Out>(module: URL, input: In): Promise<Out> {
  const worker = new Worker(new URL('./boot.mjs', import.meta.url), { workerData: { module: module.href } });
  return new Promise<Out>((resolve, reject) => {
    worker.once('message', (m: Out) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`worker thread ${module.pathname} exited (${code}) without an answer`)));
    worker.postMessage(input);
  });
}
