#!/usr/bin/env bash
# The admin portal's browser tests drive Debian's Chromium at /usr/bin/chromium (docs/portal.md).
# `npm test` runs this first (pretest), so the README's one test command also works on a fresh
# Debian machine; .ci/run runs it before `npm ci`. Installs nothing when the browser is there.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if ! command -v apt-get > /dev/null; then
  echo "The portal's browser tests need Chromium at /usr/bin/chromium; install your system's chromium package." >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
echo "Installing Debian's chromium for the portal's browser tests (once)..."
$SUDO apt-get update -qq
$SUDO apt-get install -y --no-install-recommends chromium
