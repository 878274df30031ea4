#!/usr/bin/env bash
# Runs a build command while the tests' servers install beside it, then waits for both.
# Usage: build-while-installing.sh [--demo] LOG -- BUILD_COMMAND...
# (--demo: only the demo's servers, `scripts/deps.sh demo-servers`: Java and the Kafka jars.)
# `make test` on a fresh machine spent ~15 minutes installing servers (Kafka, emulators, Java,
# chromium, Spark's and the REST compatibility kit's jars: mostly downloads) before compiling
# anything; the ASan build needs none of them, so the two overlap. The installs' output goes
# to LOG and is printed when both are done (all of it when the install failed).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEMO=0
[ "${1:-}" = "--demo" ] && { DEMO=1; shift; }
LOG="$1"; shift
[ "${1:-}" = "--" ] && shift
mkdir -p "$(dirname "$LOG")"
(
  set -e
  if [ "$DEMO" = 1 ]; then
    "$ROOT/scripts/deps.sh" demo-servers
  else
    "$ROOT/scripts/deps.sh" servers
    "$ROOT/scripts/spark/install.sh"  # the slow tier's Spark (tests/integration/slow)
    "$ROOT/scripts/rck/install.sh"    # Iceberg's REST compatibility kit
  fi
) >"$LOG" 2>&1 &
installer=$!
echo "deps: installing the $([ "$DEMO" = 1 ] && echo "demo's" || echo "tests'") servers in the background while building (log: $LOG)"
"$@"; built=$?
wait "$installer"; installed=$?
if [ "$installed" -ne 0 ]; then
  cat "$LOG"
  echo "deps: installing the servers failed (exit $installed); log above" >&2
else
  grep -v '^go: downloading' "$LOG" || true
fi
[ "$built" -eq 0 ] && [ "$installed" -eq 0 ]
