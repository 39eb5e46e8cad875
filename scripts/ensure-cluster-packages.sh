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
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends patroni etcd-server haproxy >&2
have || { echo "[cluster] installation finished but patroni, etcd or haproxy is still missing" >&2; exit 1; }
