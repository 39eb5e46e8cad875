// The entry of every worker thread: the project runs TypeScript through tsx, whose loader a worker
// does not inherit from its parent, so the thread registers it before importing its module.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
