#!/usr/bin/env bash
# Installs Debian's packages the local cluster runs (npm run cluster): Patroni, etcd and HAProxy; Redis and
# PostgreSQL 15 are already the machine's. Idempotent: exits at once when all are there.
set -euo pipefail

have() {
  command -v patroni >/dev/null 2>&1 && command -v etcd >/dev/null 2>&1 && command -v haproxy >/dev/null 2>&1
}

if have; then
  exit 0
fi

echo "[cluster] installing Debian's patroni, etcd-server and haproxy" >&2
. "$(dirname "$0")/apt.sh"
apt_install patroni etcd-server haproxy
have || { echo "[cluster] installation finished but patroni, etcd or haproxy is still missing" >&2; exit 1; }
