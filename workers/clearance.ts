// A batch clearance process beside the workers process: `npm start` runs CLEARANCE_WORKERS - 1 of them.
// The analysis is synchronous CPU work, so one process screens on one core at a time; these take chunks
// of the same BullMQ queue as the workers process (workers/clearanceBatch.ts), each with its own search
// index, so that a batch uses every core. A chunk is answered and charged once whoever takes it
// (src/clearance/batchWorker.ts); the relay of lost jobs runs in the workers process only.
import { loadConfig } from '../src/config.ts';
import { createRoot, WORKERS } from '../src/root.ts';
import { startClearanceBatchWorker } from './clearanceBatch.ts';
import { stopOnce } from './stopOnce.ts';

const config = loadConfig();
// Only the batch's queries: a few connections are enough.
const root = createRoot(config, { ...WORKERS, dbPoolMax: 4 });
const { log } = root;
// The index before the first chunk, so that no chunk waits for it while another process could screen it.
await root.search.ready();
const batches = startClearanceBatchWorker(root, { relay: false });
process.send?.('ready');
log.info('batch clearance process started');

stopOnce(async () => {
  // A chunk in flight is finished (BullMQ's close waits for it); one cut short is taken up again elsewhere.
  await batches.close();
  await root.close();
});
