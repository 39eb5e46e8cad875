import { expect } from 'chai';
import { FairGate } from '../../src/logos/fairGate.ts';

// The gate that shares bulk logo search's slots between accounts, on its own: tasks are promises the
// test settles by hand, and the order they start in is the order recorded.

function harness(slots: number) {
  const gate = new FairGate(slots);
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const run = (account: string, name: string, signal?: AbortSignal) =>
    gate.run(
      account,
      signal,
      () =>
        new Promise<string>((resolve) => {
          started.push(name);
          finish.set(name, () => resolve(name));
        }),
    );
  const end = async (name: string) => {
    finish.get(name)!();
    // Let the settled task hand its slot on.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { gate, started, run, end };
}

describe('logo search: the fair gate', () => {
  it('lets an account alone use every slot', async () => {
    const h = harness(3);
    for (const n of ['a1', 'a2', 'a3', 'a4']) void h.run('A', n);
    await Promise.resolve();
    expect(h.started).to.deep.equal(['a1', 'a2', 'a3']);
    expect(h.gate.load()).to.deep.equal({ A: { running: 3, waiting: 1 } });
  });

  it('gives a freed slot to the waiting account with the fewest running, round by round', async () => {
    const h = harness(2);
    for (const n of ['a1', 'a2', 'a3', 'a4', 'a5']) void h.run('A', n);
    void h.run('B', 'b1');
    void h.run('B', 'b2');
    void h.run('C', 'c1');
    await Promise.resolve();
    expect(h.started).to.deep.equal(['a1', 'a2']);
    // B and C came after A's five, yet each freed slot goes to an account with fewer running.
    await h.end('a1');
    expect(h.started.slice(2)).to.deep.equal(['b1']);
    await h.end('a2');
    expect(h.started.slice(3)).to.deep.equal(['c1']);
    // A, B and C now hold 0, 1 and 1: A's turn, then B's, then A's again.
    await h.end('c1');
    expect(h.started.slice(4)).to.deep.equal(['a3']);
    await h.end('b1');
    expect(h.started.slice(5)).to.deep.equal(['b2']);
    await h.end('b2');
    expect(h.started.slice(6)).to.deep.equal(['a4']);
    expect(h.gate.load()).to.deep.equal({ A: { running: 2, waiting: 1 } });
  });

  it("takes an aborted task out of its line without running it, and frees a failed task's slot", async () => {
    const h = harness(1);
    void h.run('A', 'a1');
    const ac = new AbortController();
    const b1 = h.run('B', 'b1', ac.signal);
    void h.run('B', 'b2');
    ac.abort(new Error('gone'));
    expect(
      await b1.then(
        () => 'ran',
        (err: Error) => err.message,
      ),
    ).to.equal('gone');
    await h.end('a1');
    expect(h.started).to.deep.equal(['a1', 'b2']);
    const failing = h.gate.run('C', undefined, () => Promise.reject(new Error('broken')));
    await h.end('b2');
    expect(await failing.catch((err: Error) => err.message)).to.equal('broken');
    void h.run('D', 'd1');
    await Promise.resolve();
    expect(h.started).to.deep.equal(['a1', 'b2', 'd1']);
    expect(h.gate.load()).to.deep.equal({ D: { running: 1, waiting: 0 } });
  });

  it('on close, rejects the tasks waiting and any later one, and lets the running ones finish', async () => {
    const h = harness(1);
    const a1 = h.run('A', 'a1');
    const a2 = h.run('A', 'a2');
    const stop = new Error('closing');
    h.gate.close(stop);
    expect(await a2.catch((err: unknown) => err)).to.equal(stop);
    expect(await h.run('B', 'b1').catch((err: unknown) => err)).to.equal(stop);
    await h.end('a1');
    expect(await a1).to.equal('a1');
    expect(h.started).to.deep.equal(['a1']);
  });
});
