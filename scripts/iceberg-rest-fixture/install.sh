#!/usr/bin/env bash
# Install Apache Iceberg's REST catalog server (org.apache.iceberg.rest.RESTCatalogServer, from
# the test-fixtures jar of iceberg-open-api) and its runtime jars into .deps/iceberg-rest-fixture/lib,
# fetched from Maven Central with the ordinary mvn client (no docker). Integration tests use it
# as a REST catalog written by someone else (tests/integration/fixtures/iceberg_rest_fixture.py).
# Idempotent: a stamp file records the installed version and a hash of pom.xml; if both match
# nothing is done. Everything Maven fetches is cached in .deps/m2 (git-ignored).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dest="$root/.deps/iceberg-rest-fixture"
lib="$dest/lib"
stamp="$dest/VERSION"

# Single source of truth for the version: the <iceberg.version> property in the pom. A hash of
# the pom and the launcher is in the stamp too, so editing either reinstalls.
version="$(sed -n 's:.*<iceberg.version>\(.*\)</iceberg.version>.*:\1:p' "$here/pom.xml")"
[[ -n "$version" ]] || { echo "install.sh: no <iceberg.version> in $here/pom.xml" >&2; exit 1; }
want="$version $(cat "$here/pom.xml" "$here/FloeRestFixtureLauncher.java" | sha256sum | cut -c1-16)"

if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -f "$lib/iceberg-open-api-$version-test-fixtures.jar" \
      && -f "$lib/floe-rest-fixture-launcher.jar" ]]; then
  echo "iceberg-rest-fixture $version already installed in $lib"
  exit 0
fi

command -v mvn >/dev/null || { echo "install.sh: mvn not found (apt-get install maven)" >&2; exit 1; }
command -v javac >/dev/null || { echo "install.sh: javac not found (apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }

# Copy into a temp dir and swap it in, so an interrupted run never leaves a half-filled lib/
# that a stale stamp would bless, and jars of an older version vanish.
mkdir -p "$dest" "$root/.deps/m2"
tmp="$(mktemp -d "$dest/lib.tmp.XXXXXX")"
trap 'rm -rf "$tmp" "$tmp.log"' EXIT
start=$SECONDS
if ! mvn -q -B -f "$here/pom.xml" -Dmaven.repo.local="$root/.deps/m2" \
     dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp" \
     >"$tmp.log" 2>&1; then
  cat "$tmp.log" >&2; rm -f "$tmp.log"
  echo "install.sh: mvn failed to fetch iceberg-rest-fixture $version (see above)" >&2
  exit 1
fi
rm -f "$tmp.log"
# The launcher (see FloeRestFixtureLauncher.java): compiled against exactly these jars.
mkdir "$tmp.classes"
trap 'rm -rf "$tmp" "$tmp.log" "$tmp.classes"' EXIT
javac -nowarn -d "$tmp.classes" -cp "$tmp/*" "$here/FloeRestFixtureLauncher.java"
jar cf "$tmp/floe-rest-fixture-launcher.jar" -C "$tmp.classes" .
rm -rf "$lib"
mv -T "$tmp" "$lib"   # -T: never nest into a lib/ a concurrent run just made
echo "$want" > "$stamp"
echo "iceberg-rest-fixture $version installed in $lib ($(find "$lib" -name "*.jar" | wc -l) jars, $(du -sh "$lib" | cut -f1), $((SECONDS - start))s)"
