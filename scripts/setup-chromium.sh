#!/usr/bin/env bash
# Makes sure a headless Chromium is there for the browser tests (test/browser/), which drive it
# with playwright-core. Run by `npm test` (pretest). Idempotent: does nothing when one is there.
#   CHROMIUM_PATH  use this Chromium executable instead of /usr/bin/chromium
# As root it installs Debian's `chromium` package; otherwise it only says what is missing and exits
# 0, so the other tests still run and the browser tests fail with the same clear message.
set -uo pipefail

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"

if [ -x "$chromium" ]; then
  exit 0
fi

if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "setup-chromium: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable; the browser tests will fail." >&2
  exit 0
fi

if [ "$(id -u)" != "0" ]; then
  echo "setup-chromium: $chromium is missing and this is not root, so it cannot be installed here." >&2
  echo "setup-chromium: run 'sudo apt-get install chromium' (or set CHROMIUM_PATH); the browser tests fail until then." >&2
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-chromium: $chromium is missing and there is no apt-get; set CHROMIUM_PATH to a Chromium executable." >&2
  exit 0
fi

echo "setup-chromium: installing Debian's chromium package for the browser tests (about a minute, once)..."
if apt-get update -qq &&
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2> >(grep -v '^debconf:' >&2); then
  echo "setup-chromium: installed $("$chromium" --version 2>/dev/null || echo "$chromium")."
else
  echo "setup-chromium: apt-get could not install chromium; the browser tests will fail (set CHROMIUM_PATH to use another Chromium)." >&2
fi
exit 0
