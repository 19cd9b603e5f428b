#!/usr/bin/env bash
# tests/e2e/run.sh [SITE_DIR] — the browser end-to-end tests (headless Debian Chromium driven by
# playwright-core) against a built site, served by scripts/static-server.mjs on 127.0.0.1.
#
#   SITE_DIR  folder with index.html, attention-lab.js, attention-lab.wasm (and the build with every
#             mode, attention-lab-full.js/.wasm, which the page loads on first use)
#             (default: build/wasm/web, what `cmake --build --preset wasm` makes)
#   AL_CLI    attention-lab-cli used to read the presets (default: build/native/src/…)
#   AL_E2E_OUT  screenshot folder (default: build/e2e)
#   Extra arguments after SITE_DIR go to `node --test` (e.g. --test-name-pattern=causal).
#
# Installs the npm dependencies from the lockfile when missing, runs every *.test.mjs here with
# Node's built-in runner (it prints "# pass N" / "# fail N"), and exits non-zero on any failure.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

site="${1:-$root/build/wasm/web}"
[ "$#" -gt 0 ] && shift
if [ ! -f "$site/index.html" ]; then
  echo "e2e: no index.html in $site (build the site: cmake --preset wasm && cmake --build --preset wasm)" >&2
  exit 1
fi
export AL_SITE_DIR="$(cd "$site" && pwd)"

if [ ! -f "$here/node_modules/playwright-core/package.json" ]; then
  echo "e2e: npm ci (playwright-core; no browser download)"
  (cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

cd "$here"
echo "e2e: site $AL_SITE_DIR ($(node --version))"
# One test file at a time: each runs its own Chromium, and the machine has 2 cores. Each file is its
# own `node --test` run: Debian 12's Node 18 has neither --test-concurrency nor --test-timeout, so
# the order comes from this loop and a wedged page is ended by timeout(1) after 15 minutes (the
# slowest file takes about 3) instead of blocking scripts/test. Every run prints its own
# "# pass N" / "# fail N" lines; scripts/test adds them up.
status=0
for file in ./*.test.mjs; do
  timeout --kill-after=10 900 node --test --test-reporter=tap "$@" "$file" || {
    code=$?
    [ "$code" -eq 124 ] && echo "e2e: $file did not finish within 15 minutes"
    echo "e2e: $file failed (exit $code)"
    status=1
  }
done
exit "$status"
