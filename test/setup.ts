import { buildTemplate, dropTestDatabases } from './helpers/db.ts';
import { installFence } from './helpers/fence.ts';
import { closeSharedSidecar } from './helpers/logos.ts';

// Tests send traffic only to 127.0.0.0/8: anything else fails to connect (test/helpers/fence.ts).
installFence();

// Test apps and the API processes tests start build their search index from their own database and
// never write a snapshot into the working tree.
process.env.SEARCH_SNAPSHOT ??= '';

// Mocha root hooks: one template per run, every clone dropped at the end.
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    await buildTemplate();
  },
  async afterAll(this: Mocha.Context) {
    // Each DROP DATABASE waits for a checkpoint: on a busy machine, dozens of them take minutes.
    this.timeout(300_000);
    await closeSharedSidecar();
    await dropTestDatabases();
  },
};
