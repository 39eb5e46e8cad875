// A workers process of batch clearance alone, for the test that kills it mid-job (test/clearance/batch.test.ts):
// the consumer of workers/main.ts on a root built from the environment, with a short lock on a running
// chunk so that the next process takes a dead one's chunk up within seconds.
import { loadConfig } from '../../src/config.ts';
import { createRoot, WORKERS } from '../../src/root.ts';
import { startClearanceBatchWorker } from '../../workers/clearanceBatch.ts';

const root = createRoot(loadConfig(), WORKERS);
startClearanceBatchWorker(root, { concurrency: 1, lockDurationMs: 1500, stalledIntervalMs: 500, intervalMs: 60_000 });
process.send?.('ready');
// The test process ending (even killed) ends this one.
process.on('disconnect', () => process.exit(0));
