import { expect } from 'chai';
import { CLEARANCE_WORKER_BYTES, clearanceWorkers, loadConfig } from '../../src/config.ts';

// How many processes screen batch clearance chunks (CLEARANCE_WORKERS): npm start runs that many less one
// beside the workers process (workers/clearance.ts).

describe('CLEARANCE_WORKERS', () => {
  const GiB = 2 ** 30;

  it('takes a number of processes from 1 to 16 as given', () => {
    expect(loadConfig({ CLEARANCE_WORKERS: '3' }).clearanceWorkers).to.equal(3);
    expect(clearanceWorkers('16', 2, 4 * GiB)).to.equal(16);
  });

  it('refuses 0, 17 and words other than auto, naming the setting', () => {
    for (const v of ['0', '17', 'all', '-1', '2.5']) expect(() => loadConfig({ CLEARANCE_WORKERS: v }), v).to.throw(/CLEARANCE_WORKERS/);
  });

  it('is by default one per core, no more than a third of the memory holds, and at least one', () => {
    expect(loadConfig({}).clearanceWorkers).to.be.at.least(1);
    // The 2-core, 23 GiB benchmark machine: both cores.
    expect(clearanceWorkers('auto', 2, 23 * GiB)).to.equal(2);
    // 16 cores, 32 GiB: a third holds three.
    expect(clearanceWorkers('auto', 16, 32 * GiB)).to.equal(Math.floor((32 * GiB) / 3 / CLEARANCE_WORKER_BYTES));
    expect(clearanceWorkers('auto', 16, 32 * GiB)).to.equal(3);
    expect(clearanceWorkers('auto', 64, 1024 * GiB)).to.equal(16);
    expect(clearanceWorkers('auto', 4, 4 * GiB)).to.equal(1);
    expect(clearanceWorkers('auto', 4, 16 * GiB)).to.equal(1);
  });
});
