// Monthly credits across a Redis failover (issue 45, item 6): how many credits an account is granted beyond its
// quota when the Redis master dies under load and Sentinel promotes the replica, how long charges go to PostgreSQL
// meanwhile, and how many fail. Each round runs a master, a replica and a Sentinel of its own on free loopback ports
// (test/helpers/privateServices.ts), a fresh account with a quota of --limit api_calls, and --concurrency loops that
// charge one credit at a time through the ledger the API uses (src/limits/credits.ts) until the quota is refused.
// Baseline rounds run the same without killing the master, in the same run. docs/outages.md says what bounds it.
//
//   nice npx tsx bench/redisFailover.ts [--rounds 3] [--limit 100000] [--concurrency 8]
//     [--db postgres://postgres@127.0.0.1:5432/nishaan_bench_failover]   (created, migrated, dropped)

import { pino } from 'pino';
import { createDb } from '../src/db/knex.ts';
import { ensureDatabase, migrateLatest, quoteIdent } from '../src/db/migrate.ts';
import { CreditLedger } from '../src/limits/credits.ts';
import { QuotaRepository } from '../src/limits/quotaRepository.ts';
import { RedisConnections, sentinelsOf } from '../src/redis.ts';
import { createAccount } from '../test/helpers/accounts.ts';
import { privateSentinel } from '../test/helpers/privateServices.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const rounds = Number(args.get('rounds') ?? 3);
const limit = Number(args.get('limit') ?? 100_000);
const concurrency = Number(args.get('concurrency') ?? 8);
const url = args.get('db') ?? 'postgres://postgres@127.0.0.1:5432/nishaan_bench_failover';
const dbName = new URL(url).pathname.slice(1);

interface Round {
  failover: boolean;
  granted: number;
  overGrant: number;
  viaPostgres: number;
  failed: number;
  /** From the kill to the first charge served by Redis again, ms. */
  windowMs: number | null;
  seconds: number;
}

async function round(db: ReturnType<typeof createDb>, failover: boolean, n: number): Promise<Round> {
  const trio = await privateSentinel(`nishaan-bench-${n}`);
  const log = pino({ level: 'silent' });
  const connections = new RedisConnections('redis://127.0.0.1:1/0', log, 1000, sentinelsOf(trio.sentinels, trio.name));
  const ledger = new CreditLedger(connections.commands, new QuotaRepository(db), `bench-failover-${process.pid}`, log, connections.health);
  const { accountId } = await createAccount(db, { quotas: { api_calls: limit } });
  let granted = 0;
  let viaPostgres = 0;
  let failed = 0;
  let killedAt: number | null = null;
  let backAt: number | null = null;
  const t0 = performance.now();
  const loop = async () => {
    for (;;) {
      try {
        const charge = await ledger.take(accountId, 'api_calls', 1, limit);
        if (!charge) return;
        granted++;
        // Back once a charge is served by Redis after the outage was seen (the first few after the kill may still be
        // answered on the dying connection).
        if (charge.via === 'postgres') viaPostgres++;
        else if (viaPostgres > 0 && killedAt !== null && backAt === null) backAt = performance.now();
        // A quarter of the quota spent: the master goes, as a machine lost.
        if (failover && killedAt === null && granted >= limit / 4) {
          killedAt = performance.now();
          trio.killMaster();
        }
      } catch {
        failed++;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (performance.now() - t0) / 1000;
  connections.disconnect();
  await trio.close();
  return {
    failover,
    granted,
    overGrant: granted - limit,
    viaPostgres,
    failed,
    windowMs: killedAt !== null && backAt !== null ? Math.round(backAt - killedAt) : null,
    seconds: Math.round(seconds * 10) / 10,
  };
}

const admin = createDb(url.replace(/\/[^/]+$/, '/postgres'), 1);
await admin.raw(`drop database if exists ${quoteIdent(dbName)} with (force)`);
await ensureDatabase(admin, dbName);
const db = createDb(url, concurrency + 2);
await migrateLatest(db);
const results: Round[] = [];
try {
  for (let i = 0; i < rounds; i++) {
    for (const failover of [false, true]) {
      const r = await round(db, failover, results.length);
      results.push(r);
      console.error(`${failover ? 'failover' : 'baseline'}: ${JSON.stringify(r)}`);
    }
  }
} finally {
  await db.destroy();
  await admin.raw(`drop database if exists ${quoteIdent(dbName)} with (force)`);
  await admin.destroy();
}
console.log(
  `\nRedis failover under load: quota ${limit} api_calls, ${concurrency} charging loops, block ${Math.min(64, Math.ceil(limit / 100))}`,
);
console.log('| round | granted | over the quota | charged in PostgreSQL | failed | kill → Redis again, ms | seconds |');
console.log('|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.failover ? 'master killed' : 'baseline'} | ${r.granted} | ${r.overGrant} | ${r.viaPostgres} | ${r.failed} | ` +
      `${r.windowMs ?? '—'} | ${r.seconds} |`,
  );
}
