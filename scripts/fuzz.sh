#!/usr/bin/env bash
# Runs each libFuzzer target of a FLOE_FUZZ build (`make fuzz`) for FUZZ_SECONDS (default 60).
# Usage: fuzz.sh BUILD_DIR. FUZZ_TARGETS picks targets (default: all, e.g. "proto json_schema");
# FUZZ_ARGS adds libFuzzer flags (e.g. "-jobs=2 -workers=2").
#
# Each target reads the committed seeds (tests/fuzz/corpus/<target>/, never written to) and
# grows its own working corpus in BUILD_DIR/corpus/<target>/, kept between runs. A crash is
# written to BUILD_DIR/artifacts/<target>/crash-<sha1>; docs/development.md says how to turn
# one into a regression input. Exits non-zero if any target crashed.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$(cd "$1" && pwd)"
SECONDS_PER_TARGET="${FUZZ_SECONDS:-60}"
# Default: every fuzz_<target> the build made (tests/fuzz/CMakeLists.txt lists them).
TARGETS="${FUZZ_TARGETS:-$(cd "$BUILD/tests/fuzz" 2>/dev/null && ls fuzz_* 2>/dev/null | grep -v '_replay$' | sed 's/^fuzz_//' | tr '\n' ' ')}"
[ -n "$TARGETS" ] || { echo "fuzz: no targets in $BUILD/tests/fuzz (build them with make fuzz)"; exit 2; }
# Sanitizer reports are fatal; leaks are checked by libFuzzer itself (suppressions as in tests).
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$ROOT/tests/lsan.supp:print_suppressions=0}"
status=0
summary=()
for t in $TARGETS; do
  bin="$BUILD/tests/fuzz/fuzz_$t"
  [ -x "$bin" ] || { echo "fuzz: no $bin (build it with make fuzz)"; exit 2; }
  work="$BUILD/corpus/$t"; artifacts="$BUILD/artifacts/$t"
  mkdir -p "$work" "$artifacts"
  log="$BUILD/fuzz-$t.log"
  echo "== fuzz $t: ${SECONDS_PER_TARGET}s (log: $log)"
  dict=(); [ -f "$ROOT/tests/fuzz/dicts/$t.dict" ] && dict=(-dict="$ROOT/tests/fuzz/dicts/$t.dict")
  # shellcheck disable=SC2086
  "$bin" -max_total_time="$SECONDS_PER_TARGET" -print_final_stats=1 -artifact_prefix="$artifacts/" \
      "${dict[@]}" ${FUZZ_ARGS:-} "$work" "$ROOT/tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)"
  cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1)"
  if [ $rc -ne 0 ]; then
    status=1
    summary+=("$t: CRASHED (exit $rc) after ${runs:-?} runs; $(ls "$artifacts" | tail -1) in $artifacts")
    grep -m1 -E "ERROR: |fuzz invariant broken|runtime error" "$log" || tail -5 "$log"
  else
    summary+=("$t: ok, ${runs:-?} runs, ${cov:-cov ?}, corpus $(ls "$work" | wc -l) inputs")
  fi
done
echo "== fuzz summary"
printf '%s\n' "${summary[@]}"
exit $status
