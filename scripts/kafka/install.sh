#!/usr/bin/env bash
# Install the Kafka broker jars for tests and the demo into .deps/kafka/lib,
# fetched from Maven Central with the ordinary mvn client (no tarball, no docker).
# Idempotent: a stamp file records the installed version; if it matches the
# version pinned in pom.xml nothing is done. Everything Maven fetches is cached
# in .deps/m2 (git-ignored) so a rebuilt lib/ needs no network.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
lib="$root/.deps/kafka/lib"
stamp="$root/.deps/kafka/VERSION"

# Single source of truth for the version: the <kafka.version> property in the pom.
version="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml")"
[[ -n "$version" ]] || { echo "install.sh: no <kafka.version> in $here/pom.xml" >&2; exit 1; }

if [[ -f "$stamp" && "$(cat "$stamp")" == "$version" && -f "$lib/kafka_2.13-$version.jar" ]]; then
  echo "kafka $version already installed in $lib"
  exit 0
fi

command -v mvn >/dev/null || { echo "install.sh: mvn not found (apt-get install maven)" >&2; exit 1; }

# Copy into a temp dir and swap it in, so an interrupted run never leaves a
# half-filled lib/ that a stale stamp would bless, and old-version jars vanish.
mkdir -p "$root/.deps/kafka" "$root/.deps/m2"
tmp="$(mktemp -d "$root/.deps/kafka/lib.tmp.XXXXXX")"
trap 'rm -rf "$tmp" "$tmp.log"' EXIT
start=$SECONDS
# mvn output goes to a log shown only on failure: the promise is one line of output
# (and Debian's Maven 3.8 prints stray colour codes even with -q -B).
if ! mvn -q -B -f "$here/pom.xml" -Dmaven.repo.local="$root/.deps/m2" \
     dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp" \
     >"$tmp.log" 2>&1; then
  cat "$tmp.log" >&2; rm -f "$tmp.log"
  echo "install.sh: mvn failed to fetch kafka $version (see above)" >&2
  exit 1
fi
rm -f "$tmp.log"
rm -rf "$lib"
mv -T "$tmp" "$lib"   # -T: never nest into a lib/ a concurrent run just made
echo "$version" > "$stamp"
echo "kafka $version installed in $lib ($(find "$lib" -name "*.jar" | wc -l) jars, $(du -sh "$lib" | cut -f1), $((SECONDS - start))s)"
