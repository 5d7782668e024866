#!/usr/bin/env bash
# Installs Debian's chromium for the explorer's browser test (e2e/test/explorer.test.ts drives it with
# playwright-core). Nothing to do when /usr/bin/chromium (or $CHROMIUM_BIN) is there already; otherwise it
# runs `apt-get install -y chromium` when the user is root, and fails with a message when it cannot.
# Called by .ci/run before `npm test`; run it by hand once on a developer machine: bash tools/chromium/install.sh
set -euo pipefail
bin="${CHROMIUM_BIN:-/usr/bin/chromium}"
if [ -x "$bin" ]; then
  echo "chromium: $bin ($("$bin" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "chromium: $bin is missing and this user is not root; install it with: sudo apt-get install -y chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# the package lists may be missing or stale on a fresh machine
apt-get update -qq || echo "chromium: apt-get update failed; trying the install with the lists there are" >&2
apt-get install -y -qq --no-install-recommends chromium
if [ ! -x "$bin" ]; then
  echo "chromium: apt-get installed chromium but $bin is not there" >&2
  exit 1
fi
echo "chromium: installed $("$bin" --version 2>/dev/null || echo "$bin")"
