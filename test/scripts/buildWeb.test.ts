import { expect } from 'chai';
import { buildWeb } from '../../scripts/build-web.ts';
import { loadConfig } from '../../src/config.ts';

// `npm start` on a fresh clone builds the web app before it starts anything else. Vite sets NODE_ENV to
// production in the process that builds when none is set; every process started after it then ran as
// production and refused the development defaults (issue 39, item 1).
describe('the web build', function () {
  this.timeout(120_000);

  it('leaves the environment of the process that builds as it found it', async () => {
    const was = process.env.NODE_ENV;
    delete process.env.NODE_ENV;
    try {
      const b = await buildWeb({ force: true });
      expect(b.built).to.equal(true);
      expect(process.env.NODE_ENV).to.equal(undefined);
      // What a process started now reads: the development defaults, accepted.
      expect(loadConfig({ ...process.env }).NODE_ENV).to.equal('development');
    } finally {
      if (was === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = was;
    }
  });
});
