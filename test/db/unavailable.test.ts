import net from 'node:net';
import { expect } from 'chai';
import { createDb } from '../../src/db/knex.ts';
import { databaseUnavailable } from '../../src/db/unavailable.ts';
import { type PrivateService, privatePostgres } from '../helpers/privateServices.ts';

// A query in flight when its server dies (a primary killed before a failover) fails with node-postgres's
// "Connection terminated unexpectedly", which knex prefixes with the statement: the request is answered 503, as
// for a server that cannot be reached, not 500 (bench/cluster.ts found it answered 500).
describe('a query in flight when PostgreSQL dies', function () {
  this.timeout(60_000);
  let pg: PrivateService;

  before(async () => {
    pg = await privatePostgres();
  });
  after(() => pg.close());

  it('is not read as unavailable when the server refused the query itself', async () => {
    const db = createDb(pg.url, 1);
    try {
      const err = await db.raw('select * from no_such_table').then(
        () => null,
        (e: Error) => e,
      );
      expect(databaseUnavailable(err)).to.equal(false);
    } finally {
      await db.destroy();
    }
  });

  it('fails with an error read as the database unavailable', async () => {
    const db = createDb(pg.url, 1);
    try {
      const pid = (await db.raw('select pg_backend_pid() as pid')).rows[0].pid as number;
      const running = db.raw('select pg_sleep(30)').then(
        () => null,
        (e: Error) => e,
      );
      await new Promise((r) => setTimeout(r, 300));
      // The backend killed as a machine failing kills it: the server restarts, this connection is gone.
      process.kill(pid, 'SIGKILL');
      const err = await running;
      expect(err, 'the query failed').to.be.instanceOf(Error);
      expect(err!.message).to.match(/select pg_sleep\(30\) - Connection terminated unexpectedly/);
      expect(databaseUnavailable(err)).to.equal(true);
    } finally {
      await db.destroy();
    }
  });

  // HAProxy's port for the replicas with none of them up takes the connection and never answers: node-postgres gives
  // up after the pool's connect timeout with "timeout expired", raised as is where a statement takes a connection of
  // its own (src/db/prepared.ts). The cluster test found it answered 500 while the replica was stopped.
  it('reads a connection that a proxy took and nothing answered as the database unavailable', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const db = createDb(`postgres://postgres@127.0.0.1:${(silent.address() as net.AddressInfo).port}/none`, 1);
    try {
      const err = await db.client.acquireConnection().then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).to.equal('timeout expired');
      expect(databaseUnavailable(err)).to.equal(true);
    } finally {
      await db.destroy();
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});
