import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { indexCacheAdvice, warnOfIndexCache } from '../../src/logos/indexCache.ts';

// The warning that PostgreSQL's buffer cache cannot hold the served model's HNSW index (docs/logos.md).

const MB = 2 ** 20;

/** A logger whose lines are kept, to read what was said. */
function keptLogger(): { log: pino.Logger; lines: { level: number; msg: string; indexBytes?: number }[] } {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { log: pino({ level: 'debug' }, sink), lines };
}

describe('the HNSW index beside PostgreSQL buffer cache', () => {
  it('says nothing while the index fills at most three quarters of shared_buffers', () => {
    expect(indexCacheAdvice({ model: 'm', indexBytes: 96 * MB, sharedBuffersBytes: 128 * MB })).to.equal(null);
    expect(indexCacheAdvice({ model: 'm', indexBytes: 544 * MB, sharedBuffersBytes: 1024 * MB })).to.equal(null);
  });

  it('names the index, both sizes and a setting that holds it, rounded up to 256 MB', () => {
    const advice = indexCacheAdvice({ model: 'nishaan-logo-cnn-v4', indexBytes: 544 * MB, sharedBuffersBytes: 128 * MB });
    expect(advice).to.include('nishaan-logo-cnn-v4 (544 MB)').and.include('(128 MB)').and.include('at least 768MB');
    // 97 MB is over 3/4 of 128 MB: 130 MB wanted, written as 256MB.
    expect(indexCacheAdvice({ model: 'm', indexBytes: 97 * MB, sharedBuffersBytes: 128 * MB })).to.include('at least 256MB');
  });

  it('logs the advice as a warning with the sizes, and only notes a check that failed, without throwing', async () => {
    const big = keptLogger();
    const fit = { model: 'm', indexBytes: 544 * MB, sharedBuffersBytes: 128 * MB };
    await warnOfIndexCache({ indexCacheFit: async () => fit }, 'm', big.log);
    expect(big.lines).to.have.length(1);
    expect(big.lines[0]).to.include({ level: 40, indexBytes: 544 * MB });
    expect(big.lines[0].msg).to.include('at least 768MB');

    const none = keptLogger();
    await warnOfIndexCache({ indexCacheFit: async () => null }, 'm', none.log);
    await warnOfIndexCache({ indexCacheFit: async () => ({ ...fit, sharedBuffersBytes: 1024 * MB }) }, 'm', none.log);
    expect(none.lines).to.deep.equal([]);

    const failing = keptLogger();
    await warnOfIndexCache(
      {
        indexCacheFit: async () => {
          throw new Error('connection refused');
        },
      },
      'm',
      failing.log,
    );
    expect(failing.lines.map((l) => l.level)).to.deep.equal([20]);
  });
});
