#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (docs/portal.md, docs/testing.md): its headless shell
# (package chromium-headless-shell, /usr/bin/chromium-headless-shell) for the run's browser, and the
# full browser (package chromium, /usr/bin/chromium) for what only it offers (Web Push in a service
# worker). `npm test` runs this first (pretest), so the README's one test command also works on a
# fresh Debian machine; .ci/run runs it before `npm ci`. Installs nothing when both are there.
set -euo pipefail
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ] && exit 0
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
if [ ! -x /usr/bin/chromium ]; then
  if ! command -v apt-get > /dev/null; then
    echo "The browser tests need Chromium at /usr/bin/chromium; install your system's chromium package." >&2
    exit 1
  fi
  echo "Installing Debian's chromium for the browser tests (once)..."
  $SUDO apt-get update -qq
  $SUDO apt-get install -y --no-install-recommends chromium
fi
# Without the shell (a system that does not package it) every file runs in the full browser, only slower.
if [ ! -x /usr/bin/chromium-headless-shell ] && command -v apt-get > /dev/null; then
  echo "Installing Debian's chromium-headless-shell for the browser tests (once)..."
  { $SUDO apt-get install -y --no-install-recommends chromium-headless-shell ||
    { $SUDO apt-get update -qq && $SUDO apt-get install -y --no-install-recommends chromium-headless-shell; }; } ||
    echo "No chromium-headless-shell package here: the tests use the full browser." >&2
fi
exit 0
