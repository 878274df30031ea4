#!/usr/bin/env bash
# Install the benchmark's peer — a Kafka Connect standalone worker with Apache Iceberg's Kafka
# Connect sink (scripts/bench/peer/pom.xml) — and its Confluent-Avro converter
# (FloeBenchAvroConverter.java, compiled against those jars) into .deps/bench-peer/lib, fetched
# from Maven Central with the ordinary mvn client, as scripts/iceberg-rest-fixture/install.sh
# does. Idempotent: a stamp holds a hash of the pom and the converter; when it matches nothing
# is done. Maven's cache is .deps/m2 (git-ignored), shared with the other installers.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/peer" && pwd)"
root="$(cd "$here/../../.." && pwd)"
dest="$root/.deps/bench-peer"
lib="$dest/lib"
stamp="$dest/VERSION"
want="$(cat "$here/pom.xml" "$here/FloeBenchAvroConverter.java" | sha256sum | cut -c1-16)"

if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -f "$lib/floe-bench-avro-converter.jar" ]]; then
  echo "bench peer already installed in $lib"
  exit 0
fi
command -v mvn >/dev/null || { echo "install-peer.sh: mvn not found (apt-get install maven)" >&2; exit 1; }
command -v javac >/dev/null || { echo "install-peer.sh: javac not found (apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }

# Fill a temp dir and swap it in, so an interrupted run never leaves a half-filled lib/.
mkdir -p "$dest" "$root/.deps/m2"
tmp="$(mktemp -d "$dest/lib.tmp.XXXXXX")"
trap 'rm -rf "$tmp" "$tmp.log" "$tmp.classes"' EXIT
start=$SECONDS
if ! mvn -q -B -f "$here/pom.xml" -Dmaven.repo.local="$root/.deps/m2" \
     dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp" \
     >"$tmp.log" 2>&1; then
  cat "$tmp.log" >&2
  echo "install-peer.sh: mvn failed to fetch the Kafka Connect + Iceberg sink jars (see above)" >&2
  exit 1
fi
mkdir "$tmp.classes"
javac -nowarn -d "$tmp.classes" -cp "$tmp/*" "$here/FloeBenchAvroConverter.java"
jar cf "$tmp/floe-bench-avro-converter.jar" -C "$tmp.classes" .
rm -rf "$lib"
mv -T "$tmp" "$lib"
echo "$want" > "$stamp"
echo "bench peer installed in $lib ($(find "$lib" -name "*.jar" | wc -l) jars, $(du -sh "$lib" | cut -f1), $((SECONDS - start))s)"
