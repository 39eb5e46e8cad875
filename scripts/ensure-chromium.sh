#!/usr/bin/env bash
# Installs Debian's chromium (the browser tests drive it through playwright-core) and a Devanagari font
# (the Hindi interface is checked on screen), once. Idempotent: exits at once when both are there.
set -euo pipefail

have() {
  command -v chromium >/dev/null 2>&1 && dpkg -s fonts-noto-core >/dev/null 2>&1
}

if have; then
  exit 0
fi

echo "[chromium] installing Debian's chromium and fonts-noto-core" >&2
. "$(dirname "$0")/apt.sh"
apt_install chromium fonts-noto-core
have || { echo "[chromium] installation finished but chromium is still missing" >&2; exit 1; }
echo "[chromium] installed: $(chromium --version)" >&2
