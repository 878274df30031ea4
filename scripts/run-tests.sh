#!/usr/bin/env bash
# Runs the GoogleTest unit tests, the fuzz replays (ctest) and the pytest integration tests against one build
# directory, then prints one summary. Usage: run-tests.sh BUILD_DIR [unit|integration|slow|all]
# "integration" leaves out the slow tier (tests/integration/slow: Spark, Iceberg's REST compatibility kit);
# "all" runs it too.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$(cd "$1" && pwd)"; WHAT="${2:-all}"
REPORTS="$BUILD/test-reports"; rm -rf "$REPORTS"; mkdir -p "$REPORTS"
# Sanitizer settings for every Floe process the tests start: fail hard on UB, report leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$ROOT/tests/lsan.supp:print_suppressions=0}"
export FLOE_BUILD_DIR="$BUILD"
status=0
if [ "$WHAT" = all ] || [ "$WHAT" = unit ]; then
  # One process for all GoogleTest cases: ctest would start the ASan binary once per test
  # (~600 starts, 12 minutes on 2 cores, against under a minute in one process).
  # Two shards side by side (GoogleTest's own sharding): the ASan binary is CPU-bound, one core each.
  echo "== unit tests ($BUILD/tests/floe_unit_tests, 2 shards)"
  pids=()
  for shard in 0 1; do
    FLOE_TEST_DATA="$ROOT/tests/data" GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard \
        "$BUILD/tests/floe_unit_tests" --gtest_brief=1 --gtest_output="xml:$REPORTS/unit-$shard.xml" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
  echo "== fuzz target replays (ctest -L fuzz)"
  ctest --test-dir "$BUILD" -L fuzz --output-on-failure -j2 --output-junit "$REPORTS/fuzz.xml" || status=1
fi
if [ "$WHAT" = all ] || [ "$WHAT" = integration ] || [ "$WHAT" = slow ]; then
  target="$ROOT/tests/integration"
  if [ "$WHAT" != integration ]; then
    export FLOE_SLOW_TESTS=1  # tests/integration/slow/conftest.py collects the Spark tier only then
    "$ROOT/scripts/spark/install.sh"
    "$ROOT/scripts/rck/install.sh"  # Iceberg's REST compatibility kit (test_rest_compatibility_kit.py)
  fi
  [ "$WHAT" = slow ] && target="$ROOT/tests/integration/slow"
  # Two pytest-xdist workers by default: most of a test's time is spent waiting (commits, servers,
  # timeouts), so two run in ~55 % of the time of one. Each module runs whole on one worker (its
  # servers start once; tests/integration/conftest.py). FLOE_TEST_WORKERS=1 runs them in one process.
  workers="${FLOE_TEST_WORKERS:-2}"
  parallel=()
  [ "$workers" -gt 1 ] && parallel=(-n "$workers" --dist loadgroup --no-loadscope-reorder)
  echo "== integration tests (pytest $([ "$WHAT" = integration ] && echo 'without' || echo 'with') the Spark tier, $workers worker(s))"
  "$ROOT/.deps/venv/bin/python" -m pytest "$target" -q -p no:cacheprovider -rxX "${parallel[@]}" \
      --junitxml="$REPORTS/integration.xml" || status=1
fi
"$ROOT/.deps/venv/bin/python" "$ROOT/scripts/test-summary.py" "$REPORTS"/*.xml || status=1
exit $status
