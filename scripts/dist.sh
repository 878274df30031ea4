#!/usr/bin/env bash
# Packs a release people can install without building (docs/deploying.md):
#   floe-<version>-linux-x86_64/
#     bin/floe       the Release build's binary, stripped, RUNPATH $ORIGIN/../lib
#     lib/           the shared libraries it needs that a stock Debian/Ubuntu does not have
#                    (Arrow/Parquet, librdkafka, and the Debian libraries only a -dev package
#                    pulls in: protobuf, yaml-cpp, simdjson, spdlog, fmt, libpq, SQLite, …),
#                    each with RUNPATH $ORIGIN
#     docs/ deploy/ README.md   (deploy/floe.yaml is the example config)
# as build/dist/floe-<version>-linux-x86_64.tar.gz.
#
# Usage: scripts/dist.sh [BUILD_DIR [OUT_DIR]]   (default build/release, build/dist)
# `make dist` builds the `floe` target of build/release first, then runs this.
#
# What counts as the base system (not bundled): glibc (libc, libm, libpthread, libdl, librt,
# libresolv, the loader), libstdc++, libgcc_s, zlib, OpenSSL 3 (libssl, libcrypto) and libcurl,
# together with whatever those load. Everything else the binary reaches is bundled, and what a
# bundled library needs is bundled in turn unless it is base.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build/release}"
OUT="${2:-$ROOT/build/dist}"
FLOE="$BUILD/apps/floe/floe"
[ -x "$FLOE" ] || { echo "dist: $FLOE is missing: build it first (make dist does)" >&2; exit 1; }
mkdir -p "$OUT"; OUT="$(cd "$OUT" && pwd)"

VERSION="$(sed -n 's/^project(floe VERSION \([0-9][0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")"
[ -n "$VERSION" ] || { echo "dist: no version in CMakeLists.txt's project()" >&2; exit 1; }
# The binary must be the one of this source tree: `floe --version` names the same version.
reported="$("$FLOE" --version | head -n1)"
case "$reported" in "floe $VERSION"*) ;; *)
  echo "dist: $FLOE reports '$reported', CMakeLists.txt says $VERSION: rebuild it" >&2; exit 1;; esac
ARCH="$(uname -m)"
[ "$ARCH" = x86_64 ] || { echo "dist: only x86_64 builds are packaged (this is $ARCH)" >&2; exit 1; }

# patchelf (Debian's) rewrites the RUNPATHs; installed on first use.
if ! command -v patchelf >/dev/null; then
  echo "dist: installing patchelf (Debian package)"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends patchelf >/dev/null
fi

NAME="floe-$VERSION-linux-$ARCH"
STAGE="$OUT/$NAME"
TARBALL="$OUT/$NAME.tar.gz"
rm -rf "$STAGE" "$TARBALL"
mkdir -p "$STAGE/bin" "$STAGE/lib"

is_base() {
  case "$1" in
    ld-linux*.so*|libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|libutil.so.*) return 0;;
    libstdc++.so.*|libgcc_s.so.*|libz.so.*|libssl.so.*|libcrypto.so.*|libcurl.so.*) return 0;;
  esac
  return 1
}
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'; }

# Where the loader finds each library for this build (its RUNPATHs point into .deps/).
declare -A RESOLVED=()
while read -r soname _ path _; do
  [ -n "${path:-}" ] && [ "${path:0:1}" = / ] && RESOLVED["$soname"]="$path"
done < <(ldd "$FLOE" | grep '=>')

cp "$FLOE" "$STAGE/bin/floe"
strip --strip-unneeded "$STAGE/bin/floe"
patchelf --set-rpath '$ORIGIN/../lib' "$STAGE/bin/floe"

# Breadth-first over DT_NEEDED: bundle every non-base library and what it needs.
declare -A SEEN=()
queue=($(needed "$FLOE"))
bundled=()
while ((${#queue[@]})); do
  soname="${queue[0]}"; queue=("${queue[@]:1}")
  [ -n "${SEEN[$soname]:-}" ] && continue
  SEEN["$soname"]=1
  is_base "$soname" && continue
  path="${RESOLVED[$soname]:-}"
  [ -n "$path" ] || { echo "dist: ldd does not resolve $soname (needed by the floe binary's closure)" >&2; exit 1; }
  cp -L "$path" "$STAGE/lib/$soname"
  chmod 0644 "$STAGE/lib/$soname"
  patchelf --set-rpath '$ORIGIN' "$STAGE/lib/$soname"
  bundled+=("$soname")
  queue+=($(needed "$path"))
done

# Check it: with no LD_LIBRARY_PATH every library resolves inside the package or in the base
# system's /lib, /usr/lib, and the binary runs.
bad="$(env -u LD_LIBRARY_PATH ldd "$STAGE/bin/floe" | awk -v stage="$STAGE/" '
  /not found/ {print; next}
  /=>/ { p = $3; if (index(p, stage) != 1 && p !~ /^\/(usr\/)?lib(64)?\//) print }')"
[ -z "$bad" ] || { echo "dist: libraries resolved outside the package and the base system:" >&2; echo "$bad" >&2; exit 1; }
env -u LD_LIBRARY_PATH "$STAGE/bin/floe" --version >/dev/null

# Documentation, deployment examples, the example config (deploy/floe.yaml), the README.
cp -r "$ROOT/docs" "$STAGE/docs"
cp -r "$ROOT/deploy" "$STAGE/deploy"
cp "$ROOT/README.md" "$STAGE/"
for f in LICENSE LICENSE.md LICENSE.txt NOTICE COPYING; do [ -f "$ROOT/$f" ] && cp "$ROOT/$f" "$STAGE/"; done
# The newest glibc and libstdc++ symbol versions anything in the package uses: the oldest base
# system it runs on.
newest() { objdump -T "$STAGE/bin/floe" "$STAGE"/lib/* 2>/dev/null | grep -o "$1_[0-9][0-9.]*" | sort -uV | tail -n1; }
{
  echo "floe $VERSION ($ARCH), $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "needs: $(newest GLIBC) (glibc), $(newest GLIBCXX) (libstdc++), libssl.so.3, libcurl.so.4, libz.so.1"
  echo "bundled libraries (lib/): ${bundled[*]}"
  echo "found in the build machine's system by ldd: $(env -u LD_LIBRARY_PATH ldd "$STAGE/bin/floe" | awk -v stage="$STAGE/" '/=>/ && index($3, stage) != 1 {print $1}' | sort | tr '\n' ' ')"
} > "$STAGE/BUILDINFO"

# Reproducible-ish: sorted names, root-owned, the commit's time as every file's time.
mtime="$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || date +%s)"
tar -C "$OUT" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -cf - "$NAME" | gzip -n > "$TARBALL"
rm -rf "$STAGE"
echo "dist: $TARBALL ($(du -h "$TARBALL" | cut -f1); ${#bundled[@]} bundled libraries: ${bundled[*]})"
