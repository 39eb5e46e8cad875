// Where each part of the local cluster listens (scripts/cluster.ts; docs/deploy.md, "A local cluster").
export const PORTS = {
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
} as const;

export const SENTINEL_NAME = 'nishaan';
export const DATABASE = 'nishaan';
