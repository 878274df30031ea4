#!/usr/bin/env bash
# Builds the librdkafka Floe links (C and C++ libraries, shared) into .deps/librdkafka.
#
# Why not Debian's: Debian 12 ships librdkafka 2.0.2. Its SASL/SCRAM client fails against
# Kafka 4 brokers (fixed in librdkafka 2.6.1) and it has no OIDC client for SASL/OAUTHBEARER
# (`sasl.oauthbearer.method: oidc`). See docs/security.md.
#
# Where the source comes from: the `rdkafka-sys` crate vendors librdkafka's full source tree
# (its version's build metadata names the librdkafka release, e.g. 4.10.0+2.12.1 carries
# librdkafka 2.12.1). We let the ordinary cargo client resolve a throwaway manifest that
# depends on the pinned crate: cargo downloads and unpacks it into its registry cache and
# `cargo metadata` says where. Nothing is compiled by cargo.
#
# Idempotent: .deps/librdkafka/VERSION records the installed crate version; when it matches
# the pin and the libraries are there, nothing is done. The build goes to a temporary prefix
# that is swapped in at the end, so an interrupted run never leaves a half install.
set -euo pipefail

# The pin: the rdkafka-sys crate version and the librdkafka release it carries.
CRATE_VERSION="4.10.0+2.12.1"
LIBRDKAFKA_VERSION="${CRATE_VERSION#*+}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
prefix="$root/.deps/librdkafka"
stamp="$prefix/VERSION"

if [[ -f "$stamp" && "$(cat "$stamp")" == "$CRATE_VERSION" && -e "$prefix/lib/librdkafka.so" &&
      -e "$prefix/lib/librdkafka++.so" && -f "$prefix/lib/pkgconfig/rdkafka++.pc" ]]; then
  echo "deps: librdkafka $LIBRDKAFKA_VERSION present"
  exit 0
fi

CARGO="$(command -v cargo || echo "$HOME/.cargo/bin/cargo")"
[[ -x "$CARGO" ]] || { echo "deps: building librdkafka needs cargo (to fetch the rdkafka-sys crate's source)" >&2; exit 1; }

echo "deps: building librdkafka $LIBRDKAFKA_VERSION into .deps/librdkafka"
start=$SECONDS
work="$root/.deps/librdkafka-work"
rm -rf "$work"
mkdir -p "$work/fetch"
trap 'rm -rf "$work"' EXIT

# 1. The source, through cargo. default-features off: no optional dependency gets resolved.
cat > "$work/fetch/Cargo.toml" <<EOF
[package]
name = "floe-fetch-librdkafka"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
path = "lib.rs"

[dependencies]
rdkafka-sys = { version = "=$CRATE_VERSION", default-features = false }
EOF
: > "$work/fetch/lib.rs"
if ! "$CARGO" metadata --quiet --format-version 1 --manifest-path "$work/fetch/Cargo.toml" \
     > "$work/metadata.json" 2> "$work/cargo.log"; then
  cat "$work/cargo.log" >&2
  echo "deps: cargo could not fetch rdkafka-sys $CRATE_VERSION" >&2
  exit 1
fi
crate_dir="$(python3 - "$work/metadata.json" "$CRATE_VERSION" <<'EOF'
import json, os, sys
meta = json.load(open(sys.argv[1]))
for p in meta["packages"]:
    if p["name"] == "rdkafka-sys" and p["version"] == sys.argv[2]:
        print(os.path.dirname(p["manifest_path"]))
EOF
)"
src="$crate_dir/librdkafka"
[[ -f "$src/CMakeLists.txt" ]] || { echo "deps: rdkafka-sys $CRATE_VERSION has no librdkafka source at $src" >&2; exit 1; }
# The crate's version metadata is a claim; the header is the fact.
grep -q "^#define RD_KAFKA_VERSION  *0x$(printf '%02x%02x%02x' ${LIBRDKAFKA_VERSION//./ })ff" "$src/src/rdkafka.h" ||
  { echo "deps: $src/src/rdkafka.h is not librdkafka $LIBRDKAFKA_VERSION" >&2; exit 1; }

# 2. Build with CMake: shared C and C++ libraries, OpenSSL, Cyrus SASL (GSSAPI), zstd, external
# lz4, zlib, libcurl (the OIDC token client needs it). No examples, no tests: ~1.5 min on 2 cores.
# The source tree in cargo's cache stays read-only: out-of-tree build. RPATH $ORIGIN lets
# librdkafka++.so find this librdkafka.so, never the system's (same SONAME, librdkafka.so.1).
stage="$work/prefix"
cmake -S "$src" -B "$work/build" -G Ninja -Wno-dev \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib \
  -DRDKAFKA_BUILD_STATIC=OFF -DRDKAFKA_BUILD_EXAMPLES=OFF -DRDKAFKA_BUILD_TESTS=OFF \
  -DWITH_SSL=ON -DWITH_SASL=ON -DWITH_ZSTD=ON -DENABLE_LZ4_EXT=ON -DWITH_ZLIB=ON -DWITH_CURL=ON \
  -DWITH_PLUGINS=ON -DCMAKE_INSTALL_RPATH='$ORIGIN' > "$work/cmake.log" 2>&1 || { cat "$work/cmake.log" >&2; exit 1; }
ninja -C "$work/build" -j"${JOBS:-2}" > "$work/ninja.log" 2>&1 || { tail -50 "$work/ninja.log" >&2; exit 1; }
DESTDIR="$stage" ninja -C "$work/build" install > "$work/install.log" 2>&1 || { cat "$work/install.log" >&2; exit 1; }

# 3. Check that what was built is what Floe needs, then swap it in. A -dev package missing
# makes librdkafka's CMake drop the feature silently; say which instead.
staged="$stage$prefix"
built_with="$(sed -n 's/^#define BUILT_WITH *"\(.*\)"$/\1/p' "$work/build/generated/config.h")"
for feature in SSL SASL_SCRAM SASL_OAUTHBEARER SASL_CYRUS CURL ZSTD LZ4_EXT ZLIB; do
  [[ " $built_with " == *" $feature "* ]] ||
    { echo "deps: librdkafka built without $feature (built with: $built_with)" >&2; exit 1; }
done
rm -rf "$prefix"
mv "$staged" "$prefix"
echo "$CRATE_VERSION" > "$stamp"
echo "deps: librdkafka $LIBRDKAFKA_VERSION built in $((SECONDS - start)) s"
