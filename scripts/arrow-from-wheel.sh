#!/usr/bin/env bash
# Lays out the Arrow/Parquet C++ libraries of an installed pyarrow wheel as a prefix:
#   <prefix>/include -> pyarrow/include
#   <prefix>/lib/libarrow.so, libarrow.so.<abi> -> pyarrow/libarrow.so.<abi>   (same for the rest)
# Usage: arrow-from-wheel.sh PYTHON PREFIX
set -euo pipefail
PY="$1"; PREFIX="$2"
PA_DIR="$("$PY" -c 'import os, pyarrow; print(os.path.dirname(pyarrow.__file__))')"
PA_VERSION="$("$PY" -c 'import pyarrow; print(pyarrow.__version__)')"
if [ "$(cat "$PREFIX/.stamp" 2>/dev/null)" = "$PA_VERSION:$PA_DIR" ]; then
  echo "deps: Arrow C++ $PA_VERSION (from pyarrow wheel) ready at .deps/arrow"
  exit 0
fi
rm -rf "$PREFIX"; mkdir -p "$PREFIX/lib"
ln -s "$PA_DIR/include" "$PREFIX/include"
for lib in arrow parquet arrow_acero arrow_compute arrow_dataset arrow_s3; do
  real="$(ls "$PA_DIR"/lib$lib.so.[0-9]* 2>/dev/null | head -n1 || true)"
  [ -n "$real" ] || { [ "$lib" = arrow_s3 ] && continue; echo "deps: pyarrow $PA_VERSION has no lib$lib" >&2; exit 1; }
  ln -s "$real" "$PREFIX/lib/$(basename "$real")"
  ln -s "$real" "$PREFIX/lib/lib$lib.so"
done
echo "$PA_VERSION" > "$PREFIX/VERSION"
echo "$PA_VERSION:$PA_DIR" > "$PREFIX/.stamp"
echo "deps: Arrow C++ $PA_VERSION linked from the pyarrow wheel into .deps/arrow"
