#!/usr/bin/env bash
# Builds pgvector from Debian's source package against the local server, once.
# Bookworm ships no binary pgvector; trixie's source builds cleanly against PG 15.
# Idempotent: exits at once when the extension is already available.
set -euo pipefail

PGHOST="${PGHOST:-127.0.0.1}"
PGUSER="${PGUSER:-postgres}"
export PGHOST PGUSER

available() {
  psql -X -At -d postgres -c "select 1 from pg_available_extensions where name='vector'" 2>/dev/null | grep -q 1
}

if available; then
  exit 0
fi

echo "[pgvector] not installed; building from Debian source package" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

PG_MAJOR=$(psql -X -At -d postgres -c "show server_version_num" | cut -c1-2)
PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Server headers; this may upgrade postgresql-NN to the matching minor version.
before=$(dpkg-query -W -f='${Version}' "postgresql-${PG_MAJOR}" 2>/dev/null || true)
if [ ! -x "$PG_CONFIG" ] || ! dpkg -s "postgresql-server-dev-${PG_MAJOR}" >/dev/null 2>&1; then
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "postgresql-server-dev-${PG_MAJOR}" make gcc dpkg-dev >&2
fi
after=$(dpkg-query -W -f='${Version}' "postgresql-${PG_MAJOR}" 2>/dev/null || true)

# A private apt configuration that adds trixie's deb-src, leaving the system's sources untouched.
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/apt/sources.list.d"
cat > "$work/apt/sources.list" <<SRC
deb-src http://deb.debian.org/debian trixie main
SRC
APT_OPTS=(-o "Dir::Etc::SourceList=$work/apt/sources.list" -o "Dir::Etc::SourceParts=$work/apt/sources.list.d"
  -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o "APT::Sandbox::User=root")
apt-get "${APT_OPTS[@]}" update -qq >&2
(cd "$work" && apt-get "${APT_OPTS[@]}" source --download-only pgvector >&2)
tarball=$(ls "$work"/pgvector_*.orig.tar.* | head -n1)
mkdir -p "$work/src"
tar -xf "$tarball" -C "$work/src" --strip-components=1
make -C "$work/src" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >&2
$SUDO make -C "$work/src" PG_CONFIG="$PG_CONFIG" install >&2

# If apt upgraded the server binaries, the running cluster must be restarted to load them.
if [ "$before" != "$after" ]; then
  echo "[pgvector] postgresql-${PG_MAJOR} changed ($before -> $after); restarting cluster" >&2
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" main restart >&2
  for _ in $(seq 1 30); do psql -X -At -d postgres -c 'select 1' >/dev/null 2>&1 && break; sleep 1; done
fi

available || { echo "[pgvector] build finished but extension is still unavailable" >&2; exit 1; }
echo "[pgvector] installed" >&2
