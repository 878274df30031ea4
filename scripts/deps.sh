#!/usr/bin/env bash
# Installs everything Floe needs to build, test and run its demo. Idempotent: each step
# checks what is already there, so a warm run takes a few seconds. Everything that is not
# a Debian package is cached under the repo's git-ignored .deps/.
#
# `scripts/deps.sh` installs everything; `scripts/deps.sh build` only what compiling and linking
# Floe needs (Debian build packages, librdkafka, the Python venv with pyarrow's Arrow C++), and
# `scripts/deps.sh servers` the rest: the servers and readers the tests and the demo start
# (Kafka, PostgreSQL, Java, the object-store emulators, promtool, chromium). `make test` runs the
# second part while the ASan build compiles (scripts/build-while-installing.sh): it is mostly
# downloads. `scripts/deps.sh fuzz` (run by `make fuzz`) installs only what the libFuzzer build
# adds: clang and its runtime libraries (libFuzzer, ASan/UBSan for clang). `make build`/`make test`
# never need them: the gcc ASan build replays the fuzz corpora with its own driver.
# `make demo` installs what building `floe` and running scripts/demo.py need, and nothing the
# tests alone use, in two parts like `make test`'s: `scripts/deps.sh demo`, the build part with
# only the venv's packages the demo imports (DEMO_PYTHON_PACKAGES), then `scripts/deps.sh
# demo-servers` (a JDK and Maven, the Kafka jars) while `floe` compiles.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEPS="$ROOT/.deps"
mkdir -p "$DEPS"

# --- Debian packages -------------------------------------------------------------------
install_apt() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "deps: installing Debian packages: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "deps: Debian packages present"
  fi
}

WHAT="${1:-all}"
case "$WHAT" in all|build|servers|demo|demo-servers|fuzz) ;;
  *) echo "usage: scripts/deps.sh [build|servers|demo|demo-servers|fuzz]" >&2; exit 2;; esac
if [ "$WHAT" = fuzz ]; then
  # Debian 12's clang 14; libFuzzer and clang's sanitizer runtimes are in libclang-rt-14-dev.
  install_apt clang libclang-rt-14-dev
  exit 0
fi

BUILD_APT_PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libprotobuf-dev libprotoc-dev protobuf-compiler
  libsimdjson-dev nlohmann-json3-dev libcurl4-openssl-dev libssl-dev
  libsqlite3-dev libpq-dev libyaml-cpp-dev libcli11-dev libspdlog-dev libfmt-dev
  libzstd-dev libsnappy-dev liblz4-dev zlib1g-dev
  libsasl2-dev  # librdkafka's SASL/GSSAPI (Cyrus); SCRAM, PLAIN and OAUTHBEARER are built in
  libgtest-dev libgmock-dev libbenchmark-dev libcpp-httplib-dev
  python3-venv
)
# The Kafka broker (the tests' and the demo's) runs on Java 17; Maven fetches its jars.
JAVA_APT_PACKAGES=(openjdk-17-jdk-headless maven)
SERVER_APT_PACKAGES=(
  postgresql "${JAVA_APT_PACKAGES[@]}"
  chromium chromium-driver  # the web console's browser tests (tests/integration/test_console.py)
  systemd  # systemd-analyze checks deploy/systemd/floe.service (tests/integration/test_deploying.py)
)
# What scripts/demo.py imports, by name: their pins (and extras) are read from
# tests/requirements.txt, so the demo's venv is the tests' venv minus what only tests use.
# pyarrow carries the Arrow C++ the build links; DuckDB loads all four extensions
# (tests/integration/fixtures/duckdb_ext.py).
DEMO_PYTHON_PACKAGES=(
  pyarrow pyiceberg duckdb duckdb-extension-iceberg duckdb-extension-avro duckdb-extension-httpfs
  duckdb-extension-delta confluent-kafka fastavro pytz
)

# sync_venv STAMP REQUIREMENTS [NODEPS_REQUIREMENTS]: pip-installs the files into .deps/venv
# unless .deps/venv/STAMP holds their hash already, so editing them re-syncs the venv.
sync_venv() {
  local stamp="$VENV/$1" req="$2" nodeps="${3:-}" want
  want="$(cat "$req" ${nodeps:+"$nodeps"} | sha256sum | cut -d' ' -f1)"
  if [ -x "$VENV/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    echo "deps: Python venv up to date ($(basename "$req"))"
    return
  fi
  echo "deps: building Python venv at .deps/venv ($(basename "$req"))"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  "$VENV/bin/pip" install -q -r "$req"
  [ -z "$nodeps" ] || "$VENV/bin/pip" install -q --no-deps -r "$nodeps"
  echo "$want" > "$stamp"
}

# The demo's lines of tests/requirements.txt (DEMO_PYTHON_PACKAGES), as a requirements file.
demo_requirements() {
  local out="$DEPS/requirements-demo.txt" names
  names="$(IFS='|'; echo "${DEMO_PYTHON_PACKAGES[*]}")"
  grep -E "^($names)(\[|=|<|>|~|\s|\$)" "$ROOT/tests/requirements.txt" > "$out.tmp"
  local found
  found="$(wc -l < "$out.tmp")"
  [ "$found" -eq "${#DEMO_PYTHON_PACKAGES[@]}" ] || {
    echo "deps: tests/requirements.txt has $found of the demo's ${#DEMO_PYTHON_PACKAGES[@]} Python packages" \
         "(${DEMO_PYTHON_PACKAGES[*]})" >&2; exit 1; }
  mv "$out.tmp" "$out"
  echo "$out"
}

# What compiling and linking Floe needs; with `demo`, the venv holds only the demo's packages.
install_build_deps() {
  local venv_part="${1:-all}"
  install_apt "${BUILD_APT_PACKAGES[@]}"

  # --- librdkafka, built from source --------------------------------------------------------
  # Debian 12's librdkafka 2.0.2 fails SASL/SCRAM against Kafka 4 and has no OIDC client; Floe
  # links a newer one built into .deps/librdkafka (scripts/librdkafka/install.sh, docs/security.md).
  "$ROOT/scripts/librdkafka/install.sh"

  # --- Python virtualenv with the independent readers and the Confluent serializers ------
  # A venv synced with all of tests/requirements.txt (.stamp) holds the demo's packages too.
  VENV="$DEPS/venv"
  REQ="$ROOT/tests/requirements.txt"
  REQ_NODEPS="$ROOT/tests/requirements-nodeps.txt"
  local full
  full="$(cat "$REQ" "$REQ_NODEPS" | sha256sum | cut -d' ' -f1)"
  if [ "$venv_part" = demo ] && [ "$(cat "$VENV/.stamp" 2>/dev/null)" != "$full" ]; then
    local demo_req
    demo_req="$(demo_requirements)"  # an assignment, so that its failure stops the script
    sync_venv .stamp-demo "$demo_req"
  else
    sync_venv .stamp "$REQ" "$REQ_NODEPS"
  fi

  # --- Arrow + Parquet C++ from the pinned pyarrow wheel -------------------------------
  # Debian ships no Arrow C++; the pyarrow wheel carries the C++ libraries and headers.
  # We expose them under .deps/arrow with the unversioned and SONAME link names that a
  # normal install has, so CMake and the runtime linker treat them like one.
  "$ROOT/scripts/arrow-from-wheel.sh" "$VENV/bin/python" "$DEPS/arrow"
  # Object storage goes through arrow::fs: a wheel built without a store would only fail at run time.
  for store in ARROW_S3 ARROW_AZURE ARROW_GCS; do
    grep -q "^#define $store\b" "$DEPS/arrow/include/arrow/util/config.h" || {
      echo "deps: the Arrow C++ in the pyarrow wheel lacks $store (object storage needs it)" >&2; exit 1; }
  done
  [ -e "$DEPS/arrow/lib/libarrow_s3.so" ] || { echo "deps: the pyarrow wheel has no libarrow_s3" >&2; exit 1; }
  # Azure's and GCS's file systems are inside libarrow itself (no separate library): check the symbols.
  for fs in AzureFileSystem GcsFileSystem; do
    nm -D --defined-only "$DEPS/arrow/lib/libarrow.so" | grep -c "_ZN5arrow2fs${#fs}${fs}4Make" >/dev/null || {
      echo "deps: the pyarrow wheel's libarrow has no arrow::fs::$fs" >&2; exit 1; }
  done

}

# The servers and readers the tests and the demo start.
# go_install NAME VERSION MODULE: the Go program NAME built from MODULE@VERSION into .deps/bin,
# unless that version is there already (a stamp file beside it records the version).
go_install() {
  local name="$1" version="$2" module="$3"
  if [ "$(cat "$DEPS/bin/.$name.version" 2>/dev/null)" = "$version" ] && [ -x "$DEPS/bin/$name" ]; then
    echo "deps: $name $version present"
    return
  fi
  local go
  go="$(command -v go || echo /usr/local/go/bin/go)"
  [ -x "$go" ] || { echo "deps: $name needs Go (go on PATH or /usr/local/go/bin/go)" >&2; exit 1; }
  echo "deps: building $name $version into .deps/bin"
  mkdir -p "$DEPS/bin"
  GOBIN="$DEPS/bin" "$go" install "$module@$version"
  echo "$version" > "$DEPS/bin/.$name.version"
}

install_servers() {
  [ -x "$DEPS/venv/bin/python" ] || { echo "deps: .deps/venv is missing: run scripts/deps.sh build first" >&2; exit 1; }
  install_apt "${SERVER_APT_PACKAGES[@]}"

  # --- Object-store emulators the tests run -------------------------------------------------
  # Azurite (Azure Blob Storage), from npm, pinned.
  AZURITE_VERSION=3.37.0
  if [ "$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$DEPS/azurite/node_modules/azurite/package.json" 2>/dev/null)" \
       != "$AZURITE_VERSION" ]; then
    command -v npm >/dev/null || install_apt npm
    echo "deps: installing Azurite $AZURITE_VERSION under .deps/azurite"
    mkdir -p "$DEPS/azurite"
    npm install --prefix "$DEPS/azurite" --no-audit --no-fund --silent "azurite@$AZURITE_VERSION"
  else
    echo "deps: Azurite $AZURITE_VERSION present"
  fi
  # oauth2-mock-server (an OpenID Connect token server) from npm, pinned; test_kafka_security.py's
  # SASL/OAUTHBEARER test gets its tokens there. 7.x runs on Debian 12's Node 18 (8.x needs Node 20.19).
  OAUTH2_MOCK_VERSION=7.2.1
  # (its package.json has CRLF line ends)
  if [ "$(sed -n 's/^  "version": "\(.*\)",\r\?$/\1/p' "$DEPS/oauth2-mock-server/node_modules/oauth2-mock-server/package.json" 2>/dev/null)" \
       != "$OAUTH2_MOCK_VERSION" ]; then
    command -v npm >/dev/null || install_apt npm
    echo "deps: installing oauth2-mock-server $OAUTH2_MOCK_VERSION under .deps/oauth2-mock-server"
    mkdir -p "$DEPS/oauth2-mock-server"
    npm install --prefix "$DEPS/oauth2-mock-server" --no-audit --no-fund --silent "oauth2-mock-server@$OAUTH2_MOCK_VERSION"
  else
    echo "deps: oauth2-mock-server $OAUTH2_MOCK_VERSION present"
  fi
  # fake-gcs-server (GCS JSON API), built from its Go module, pinned.
  go_install fake-gcs-server v1.56.1 github.com/fsouza/fake-gcs-server
  # promtool (Prometheus' rule checker) for deploy/'s alert rules and dashboard, from its Go
  # module, pinned (Prometheus 3.x releases are tagged v0.3xx.y as Go modules).
  go_install promtool v0.316.0 github.com/prometheus/prometheus/cmd/promtool

  # --- Java servers the tests run (Maven Central) -----------------------------------------
  "$ROOT/scripts/kafka/install.sh"                # Apache Kafka broker (KRaft)
  "$ROOT/scripts/iceberg-rest-fixture/install.sh" # Apache Iceberg's REST catalog test server
  # S3Proxy (org.gaul:s3proxy, one self-contained jar): an S3 API over a local directory, and a store
  # without conditional writes (it answers If-None-Match: * with 501), as some S3-compatible stores are.
  S3PROXY_VERSION=3.0.0
  S3PROXY_JAR="$DEPS/s3proxy/s3proxy-$S3PROXY_VERSION.jar"
  if [ ! -f "$S3PROXY_JAR" ]; then
    echo "deps: fetching S3Proxy $S3PROXY_VERSION into .deps/s3proxy"
    mkdir -p "$DEPS/s3proxy" "$DEPS/m2"
    mvn -q -B -Dmaven.repo.local="$DEPS/m2" dependency:copy \
      -Dartifact="org.gaul:s3proxy:$S3PROXY_VERSION:jar:jar-with-dependencies" -DoutputDirectory="$DEPS/s3proxy.tmp" \
      || { echo "deps: mvn could not fetch org.gaul:s3proxy:$S3PROXY_VERSION" >&2; exit 1; }
    mv "$DEPS/s3proxy.tmp/s3proxy-$S3PROXY_VERSION-jar-with-dependencies.jar" "$S3PROXY_JAR"
    rm -rf "$DEPS/s3proxy.tmp"
  else
    echo "deps: S3Proxy $S3PROXY_VERSION present"
  fi
  # Spark (pyspark + the Iceberg runtime) is large and only the slow tier uses it:
  # scripts/run-tests.sh installs it on demand via scripts/spark/install.sh.
}

if [ "$WHAT" = demo ]; then
  install_build_deps demo
  exit 0
fi
if [ "$WHAT" = demo-servers ]; then
  install_apt "${JAVA_APT_PACKAGES[@]}"
  "$ROOT/scripts/kafka/install.sh"  # Apache Kafka broker (KRaft)
  exit 0
fi
[ "$WHAT" = servers ] || install_build_deps
[ "$WHAT" = build ] || install_servers
