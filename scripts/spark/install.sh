#!/usr/bin/env bash
# Installs what the slow test tier (tests/integration/slow, `make test-slow`) needs to run
# Apache Spark as a client of Floe's Iceberg REST catalog, with nothing fetched at run time:
#   .deps/spark-py     pyspark + py4j (tests/requirements-slow.txt), a pip --target dir. The
#                      pyspark package bundles Spark's own jars; the tests put this dir on
#                      sys.path, so .deps/venv's package set is left as it is.
#   .deps/spark-jars   the jars Spark gets on top of its own (scripts/spark/pom.xml): the Iceberg
#                      Spark runtime, iceberg-aws-bundle (S3FileIO), hadoop-aws with the AWS SDK
#                      v2 bundle (s3:// through S3AFileSystem), delta-spark + delta-storage.
#                      Fetched from Maven Central with the ordinary mvn client into Maven's cache
#                      .deps/m2, and hard-linked from there (copied across file systems), so the
#                      ~640 MB SDK bundle is not stored twice.
# Idempotent: each part has a stamp holding a hash of its pins; when it matches, nothing is
# done (a warm run takes well under a second). Needs .deps/venv (`make deps`), mvn and Java 17+.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
deps="$root/.deps"
python="$deps/venv/bin/python"
req="$root/tests/requirements-slow.txt"
pom="$here/pom.xml"
pydir="$deps/spark-py"
jardir="$deps/spark-jars"

[[ -x "$python" ]] || { echo "spark/install.sh: $python is missing: run \`make deps\` first" >&2; exit 1; }
command -v java >/dev/null || { echo "spark/install.sh: java not found (apt-get install openjdk-17-jre-headless)" >&2; exit 1; }
mkdir -p "$deps"

tmps=()
trap 'rm -rf "${tmps[@]}"' EXIT

# --- pyspark + py4j into a --target dir -------------------------------------------------
# The stamp also names the interpreter's version: compiled .pyc files and the target layout
# belong to it.
want_py="$(cat "$req" <("$python" -c 'import sys; print(sys.version)') | sha256sum | cut -d' ' -f1)"
if [[ -f "$pydir/.stamp" && "$(cat "$pydir/.stamp")" == "$want_py" && -d "$pydir/pyspark/jars" ]]; then
  echo "spark: pyspark up to date in .deps/spark-py"
else
  start=$SECONDS
  # Install into a temp dir and swap it in, so an interrupted run never leaves a
  # half-filled dir that a stale stamp would bless.
  tmp="$(mktemp -d "$deps/spark-py.tmp.XXXXXX")"; tmps+=("$tmp" "$tmp.log")
  # pyspark is published as a source distribution only (~450 MB, Spark's jars inside);
  # pip builds and caches a wheel from it, so a re-install on this machine is faster.
  if ! "$python" -m pip install -q --disable-pip-version-check --no-deps --target "$tmp" -r "$req" \
       >"$tmp.log" 2>&1; then
    cat "$tmp.log" >&2
    echo "spark/install.sh: pip failed to install $req (see above)" >&2
    exit 1
  fi
  echo "$want_py" > "$tmp/.stamp"
  rm -rf "$pydir"
  mv -T "$tmp" "$pydir"   # -T: never nest into a dir a concurrent run just made
  echo "spark: $(cd "$pydir" && ls -d pyspark-*.dist-info | sed 's/\.dist-info$//') installed in .deps/spark-py ($(du -sh "$pydir" | cut -f1), $((SECONDS - start))s)"
fi

# --- the jars Spark adds: Iceberg runtime, S3 (hadoop-aws, iceberg-aws-bundle), Delta ------
# The stamp names the pom's hash; the check below also wants each jar the tests look for.
want_jar="$(sha256sum "$pom" | cut -d' ' -f1)"
have_jars() {   # $1: a directory
  local j
  for j in iceberg-spark-runtime-*.jar iceberg-aws-bundle-*.jar hadoop-aws-*.jar bundle-*.jar delta-spark_*.jar \
           delta-storage-*.jar; do
    compgen -G "$1/$j" >/dev/null || return 1
  done
}
if [[ -f "$jardir/.stamp" && "$(cat "$jardir/.stamp")" == "$want_jar" ]] && have_jars "$jardir"; then
  echo "spark: jars up to date in .deps/spark-jars"
else
  command -v mvn >/dev/null || { echo "spark/install.sh: mvn not found (apt-get install maven)" >&2; exit 1; }
  start=$SECONDS
  mkdir -p "$deps/m2"
  tmp="$(mktemp -d "$deps/spark-jars.tmp.XXXXXX")"; tmps+=("$tmp" "$tmp.log" "$tmp.cp")
  # mvn output goes to a log shown only on failure (Debian's Maven 3.8 prints stray colour
  # codes even with -q -B). build-classpath resolves (downloads) every runtime jar into
  # .deps/m2 and writes their paths, ':'-separated, to $tmp.cp.
  if ! mvn -q -B -f "$pom" -Dmaven.repo.local="$deps/m2" \
       dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile="$tmp.cp" \
       >"$tmp.log" 2>&1; then
    cat "$tmp.log" >&2
    echo "spark/install.sh: mvn failed to fetch the jars of $pom (see above)" >&2
    exit 1
  fi
  IFS=: read -r -a jars < "$tmp.cp" || true   # the file has no final newline: read says EOF
  for j in "${jars[@]}"; do
    [[ -f "$j" ]] || { echo "spark/install.sh: mvn named $j, which does not exist" >&2; exit 1; }
    ln "$j" "$tmp/" 2>/dev/null || cp "$j" "$tmp/"
  done
  have_jars "$tmp" || { echo "spark/install.sh: $pom did not bring every jar the tests use: $(ls "$tmp")" >&2; exit 1; }
  echo "$want_jar" > "$tmp/.stamp"
  rm -rf "$jardir"
  mv -T "$tmp" "$jardir"
  echo "spark: ${#jars[@]} jars installed in .deps/spark-jars ($(du -sh "$jardir" | cut -f1), $((SECONDS - start))s)"
fi
