import { buildTemplate, dropTestDatabases } from './helpers/db.ts';

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
