#!/usr/bin/env bash
# Apache Iceberg's REST Compatibility Kit (iceberg-open-api tests jar, Maven Central) against a
# running Iceberg REST catalog, e.g. `floe catalog serve` (docs/rest-catalog.md gives the results):
#   scripts/rck/run.sh http://127.0.0.1:8181 file:///path/to/warehouse [catalog|view] [launcher args…]
# Jars come from scripts/rck/install.sh (.deps/rck; Maven's cache in .deps/m2). Extra arguments
# go to JUnit's console launcher (the slow tier passes --reports-dir). The slow tier runs both
# kits: tests/integration/slow/test_rest_compatibility_kit.py.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
uri="${1:?catalog URI}"; warehouse="${2:?warehouse URI}"; which="${3:-catalog}"
shift $(( $# < 3 ? $# : 3 ))
lib="$root/.deps/rck"
"$here/install.sh"
case "$which" in
  catalog) class=org.apache.iceberg.rest.RESTCompatibilityKitCatalogTests ;;
  view) class=org.apache.iceberg.rest.RESTCompatibilityKitViewCatalogTests ;;
  *) echo "rck/run.sh: the third argument is catalog or view, not '$which'" >&2; exit 2 ;;
esac
CATALOG_URI="$uri" CATALOG_WAREHOUSE="$warehouse" \
  java -Drck.local=false -Drck.requires-namespace-create=true \
  -jar "$(ls "$lib"/junit-platform-console-standalone-*.jar)" execute \
  -cp "$(ls "$lib"/*.jar | tr '\n' ':')" --select-class "$class" --disable-banner --details=summary "$@"
