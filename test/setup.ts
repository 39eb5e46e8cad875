import { buildTemplate, dropTestDatabases } from './helpers/db.ts';

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
    this.timeout(60_000);
    await dropTestDatabases();
  },
};
