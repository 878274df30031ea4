#!/usr/bin/env bash
# `make demo`: real Kafka + schema registry on loopback, a sample Avro topic, materialized
# by Floe's C++ modules, queried with DuckDB. Usage: demo.sh BUILD_DIR [--data-dir DIR]
# (default demo-data/; tests/integration/test_demo.py gives it a temporary folder).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export FLOE_BUILD_DIR="$(cd "$1" && pwd)"
shift
exec "$ROOT/.deps/venv/bin/python" "$ROOT/scripts/demo.py" "$@"
