// A local cluster of every kind of part a deployment past one machine has, on this machine (issue 45, item 7):
//   npm run cluster -- up | status | down [--wipe]
// PostgreSQL 15 managed by Patroni on 5433 and 5434 with one etcd; Redis master 6380, replica 6381 and Sentinels
// 26380-26382; the ML sidecar (3101), a workers node, two API nodes (3001, 3002); HAProxy on 8080 (API), 5000
// (PostgreSQL's primary) and 5001 (its replicas): scripts/cluster/localCluster.ts. `up` installs Debian's packages
// when missing, starts what is not running and waits until each part answers; the first `up` imports the demo
// register (DEMO_RECORDS marks, 50,000 unless set). Everything lives under var/cluster/ (CLUSTER_DIR); with
// CLUSTER_PORTS_FROM, on consecutive ports from there. `down` stops the parts and keeps their data; `down --wipe`
// removes it too. docs/deploy.md.
import { clusterFromEnv } from './cluster/localCluster.ts';

const [command, flag] = process.argv.slice(2);
const cluster = clusterFromEnv();
const run =
  command === 'up'
    ? cluster.up()
    : command === 'down'
      ? cluster.down(flag === '--wipe')
      : command === 'status'
        ? cluster.status().then((rows) => {
            for (const [name, state, detail] of rows) console.log(`${name.padEnd(16)} ${state.padEnd(18)} ${detail}`);
          })
        : null;
if (!run) {
  console.error('usage: npm run cluster -- up | status | down [--wipe]');
  process.exit(2);
}
run.catch((err: Error) => {
  console.error(`[cluster] ${err.message}`);
  process.exit(1);
});
