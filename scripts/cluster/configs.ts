// The configuration files of the local cluster's engines (scripts/cluster.ts): Patroni's, HAProxy's and the Redis
// Sentinels'. Written under var/cluster/ on every `up` (the Sentinels' only when missing: a Sentinel rewrites
// its own file with what it has learnt, the current master among it).
import fs from 'node:fs';
import path from 'node:path';
import { type ClusterPorts, SENTINEL_NAME } from './ports.ts';

export function patroniConfig(dir: string, ports: ClusterPorts, node: 'pg1' | 'pg2'): string {
  const pg = node === 'pg1' ? ports.pg1 : ports.pg2;
  const rest = node === 'pg1' ? ports.patroni1 : ports.patroni2;
  const file = path.join(dir, `${node}.yml`);
  // ttl, loop_wait and retry_timeout set how soon a dead primary's lock expires and a replica takes it
  // (docs/deploy.md, "PostgreSQL failover"): loop_wait + 2 × retry_timeout must stay within ttl.
  fs.writeFileSync(
    file,
    `scope: nishaan
namespace: /nishaan/
name: ${node}
restapi:
  listen: 127.0.0.1:${rest}
  connect_address: 127.0.0.1:${rest}
etcd3:
  host: 127.0.0.1:${ports.etcd}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 4
    maximum_lag_on_failover: 16777216
    postgresql:
      use_pg_rewind: true
      parameters:
        max_connections: 300
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${pg}
  connect_address: 127.0.0.1:${pg}
  data_dir: ${path.join(dir, node, 'data')}
  bin_dir: /usr/lib/postgresql/15/bin
  pgpass: ${path.join(dir, node, 'pgpass')}
  authentication:
    superuser:
      username: postgres
      password: postgres
    replication:
      username: replicator
      password: replicator
  parameters:
    unix_socket_directories: ${path.join(dir, node)}
`,
  );
  return file;
}

/**
 * HAProxy: the API nodes by GET /readyz (a draining node leaves first), PostgreSQL's primary and replicas by
 * Patroni's REST checks (/primary answers 200 on the leader only, /replica on a running replica only).
 */
const NO_NODE = JSON.stringify({ error: 'no API node is ready just now; try again shortly', code: 'service_unavailable' });

export function haproxyConfig(dir: string, ports: ClusterPorts): string {
  const file = path.join(dir, 'haproxy.cfg');
  const pg = (check: string) => `    option httpchk GET ${check}
    http-check expect status 200
    default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
    server pg1 127.0.0.1:${ports.pg1} check port ${ports.patroni1}
    server pg2 127.0.0.1:${ports.pg2} check port ${ports.patroni2}`;
  fs.writeFileSync(
    file,
    `global
    maxconn 2000

defaults
    timeout connect 2s
    timeout client 30m
    timeout server 30m
    retries 2

frontend api
    mode http
    bind 127.0.0.1:${ports.haproxyApi}
    default_backend api

backend api
    mode http
    option httpchk GET /readyz
    http-check expect status 200
    option forwardfor
    option redispatch
    # With no API node ready (all of them draining, or all waiting on PostgreSQL or Redis) HAProxy answers itself:
    # in the API's own error shape, with the Retry-After its 503s carry.
    http-error status 503 content-type application/json hdr Retry-After 5 string "${NO_NODE.replaceAll('"', '\\"')}"
    retry-on conn-failure empty-response
    # A request that reached a node that then died is sent to another only if it changes nothing: a POST (a
    # clearance, a key, a batch) may have been done before the node died, and done twice would be charged twice.
    http-request disable-l7-retry unless METH_GET
    default-server inter 1s fall 2 rise 2
    server api1 127.0.0.1:${ports.api1} check
    server api2 127.0.0.1:${ports.api2} check

listen pg_primary
    mode tcp
    bind 127.0.0.1:${ports.haproxyPrimary}
${pg('/primary')}

listen pg_replicas
    mode tcp
    bind 127.0.0.1:${ports.haproxyReplicas}
    balance roundrobin
${pg('/replica')}
`,
  );
  return file;
}

export function sentinelConfig(dir: string, ports: ClusterPorts, port: number): string {
  const file = path.join(dir, `sentinel-${port}.conf`);
  if (!fs.existsSync(file)) {
    fs.writeFileSync(
      file,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${ports.redisMaster} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_NAME} 2000`,
        `sentinel failover-timeout ${SENTINEL_NAME} 10000`,
        `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
        '',
      ].join('\n'),
    );
  }
  return file;
}
