// The ML sidecar as its own process (`npm start` runs it beside the API and the workers):
// loopback HTTP at ML_URL, a pool of ML_WORKERS embedding threads and OCR_WORKERS OCR workers.
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { stopOnce } from '../stopOnce.ts';
import { startSidecar } from './server.ts';

const config = loadConfig();
const log = createLogger(config.LOG_LEVEL);
const url = new URL(config.ML_URL);
const t0 = Date.now();
const sidecar = await startSidecar({
  host: url.hostname,
  port: Number(url.port || 80),
  workers: config.ML_WORKERS,
  ocrWorkers: config.OCR_WORKERS,
  model: config.LOGO_MODEL,
  log: (msg) => log.warn(msg),
});
log.info({ url: sidecar.url, model: sidecar.model, ms: Date.now() - t0 }, 'ML sidecar ready');
process.send?.('ready');

// An orphan would hold ML_URL's port: it goes with the supervisor too.
stopOnce(() => sidecar.close());
