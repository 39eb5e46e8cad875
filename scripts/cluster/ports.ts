// Where each part of the local cluster listens (scripts/cluster.ts; docs/deploy.md, "A local cluster"): the
// documented ports, or, from CLUSTER_PORTS_FROM, a block of consecutive ones, so that a test can run a cluster of its
// own on ports it found free while `npm run cluster` (or `npm start`) holds the documented ones.
export interface ClusterPorts {
  etcd: number;
  etcdPeer: number;
  pg1: number;
  pg2: number;
  patroni1: number;
  patroni2: number;
  redisMaster: number;
  redisReplica: number;
  sentinels: readonly number[];
  api1: number;
  api2: number;
  sidecar: number;
  haproxyApi: number;
  haproxyPrimary: number;
  haproxyReplicas: number;
}

export const DEFAULT_PORTS: ClusterPorts = {
  etcd: 2379,
  etcdPeer: 2380,
  pg1: 5433,
  pg2: 5434,
  patroni1: 8008,
  patroni2: 8009,
  redisMaster: 6380,
  redisReplica: 6381,
  sentinels: [26380, 26381, 26382],
  api1: 3001,
  api2: 3002,
  sidecar: 3101,
  haproxyApi: 8080,
  haproxyPrimary: 5000,
  haproxyReplicas: 5001,
};

/** How many consecutive ports a cluster laid out from one port takes. */
export const PORT_COUNT = 17;

/** The documented layout, or PORT_COUNT consecutive ports from `from`. */
export function clusterPorts(from?: number): ClusterPorts {
  if (!from) return DEFAULT_PORTS;
  const p = (i: number) => from + i;
  return {
    etcd: p(0),
    etcdPeer: p(1),
    pg1: p(2),
    pg2: p(3),
    patroni1: p(4),
    patroni2: p(5),
    redisMaster: p(6),
    redisReplica: p(7),
    sentinels: [p(8), p(9), p(10)],
    api1: p(11),
    api2: p(12),
    sidecar: p(13),
    haproxyApi: p(14),
    haproxyPrimary: p(15),
    haproxyReplicas: p(16),
  };
}

export const SENTINEL_NAME = 'nishaan';
export const DATABASE = 'nishaan';
