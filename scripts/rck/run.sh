#!/usr/bin/env bash
# Apache Iceberg's REST Compatibility Kit (iceberg-open-api tests jar, Maven Central) against a
# running Iceberg REST catalog, e.g. `floe catalog serve` (docs/rest-catalog.md gives the results):
#   scripts/rck/run.sh http://127.0.0.1:8181 file:///path/to/warehouse [catalog|view]
# Jars go to .deps/rck (Maven's cache in .deps/m2). Not part of `make test` yet (issue 15).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
uri="${1:?catalog URI}"; warehouse="${2:?warehouse URI}"; which="${3:-catalog}"
lib="$root/.deps/rck"
if [[ ! -f "$lib/.stamp" || "$(cat "$lib/.stamp")" != "$(sha256sum "$here/pom.xml" | cut -c1-16)" ]]; then
  rm -rf "$lib"
  mvn -q -B -f "$here/pom.xml" -Dmaven.repo.local="$root/.deps/m2" dependency:copy-dependencies -DoutputDirectory="$lib"
  sha256sum "$here/pom.xml" | cut -c1-16 > "$lib/.stamp"
fi
class=org.apache.iceberg.rest.RESTCompatibilityKitCatalogTests
[[ "$which" == view ]] && class=org.apache.iceberg.rest.RESTCompatibilityKitViewCatalogTests
CATALOG_URI="$uri" CATALOG_WAREHOUSE="$warehouse" \
  java -Drck.local=false -Drck.requires-namespace-create=true \
  -jar "$(ls "$lib"/junit-platform-console-standalone-*.jar)" execute \
  -cp "$(ls "$lib"/*.jar | tr '\n' ':')" --select-class "$class" --disable-banner --details=summary
