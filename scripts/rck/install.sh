#!/usr/bin/env bash
# Installs Apache Iceberg's REST Compatibility Kit (the iceberg-open-api tests jar, the Iceberg
# test jars it builds on, JUnit's console launcher; scripts/rck/pom.xml) into .deps/rck, fetched
# from Maven Central with the ordinary mvn client into Maven's cache .deps/m2. Called by
# scripts/rck/run.sh and by scripts/run-tests.sh for the slow tier, so nothing is fetched while
# the tests run. Idempotent: .deps/rck/.stamp holds a hash of the pom; when it matches and the
# launcher is there, nothing is done. Needs mvn and Java 17+.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
lib="$root/.deps/rck"
want="$(sha256sum "$here/pom.xml" | cut -d' ' -f1)"
if [[ -f "$lib/.stamp" && "$(cat "$lib/.stamp")" == "$want" ]] \
   && compgen -G "$lib/junit-platform-console-standalone-*.jar" >/dev/null \
   && compgen -G "$lib/iceberg-open-api-*-tests.jar" >/dev/null; then
  exit 0
fi
command -v mvn >/dev/null || { echo "rck/install.sh: mvn not found (apt-get install maven)" >&2; exit 1; }
command -v java >/dev/null || { echo "rck/install.sh: java not found (apt-get install openjdk-17-jre-headless)" >&2; exit 1; }
mkdir -p "$root/.deps/m2"
start=$SECONDS
# Filled in a temp dir and swapped in, so an interrupted run never leaves a half-filled dir
# that a stale stamp would bless. mvn's output is shown only on failure. build-classpath
# resolves every jar into .deps/m2 and names them; they are hard-linked from there (copied
# across file systems), so the ~280 MB are not stored twice.
tmp="$(mktemp -d "$root/.deps/rck.tmp.XXXXXX")"
trap 'rm -rf "$tmp" "$tmp.log" "$tmp.cp"' EXIT
if ! mvn -q -B -f "$here/pom.xml" -Dmaven.repo.local="$root/.deps/m2" \
     dependency:build-classpath -Dmdep.outputFile="$tmp.cp" >"$tmp.log" 2>&1; then
  cat "$tmp.log" >&2
  echo "rck/install.sh: mvn failed to fetch the jars of $here/pom.xml (see above)" >&2
  exit 1
fi
IFS=: read -r -a jars < "$tmp.cp" || true   # the file has no final newline: read says EOF
for j in "${jars[@]}"; do
  [[ -f "$j" ]] || { echo "rck/install.sh: mvn named $j, which does not exist" >&2; exit 1; }
  ln "$j" "$tmp/" 2>/dev/null || cp "$j" "$tmp/"
done
echo "$want" > "$tmp/.stamp"
rm -rf "$lib"
mv -T "$tmp" "$lib"   # -T: never nest into a dir a concurrent run just made
echo "rck: $(ls "$lib"/*.jar | wc -l) jars installed in .deps/rck ($(du -sh "$lib" | cut -f1), $((SECONDS - start))s)"
