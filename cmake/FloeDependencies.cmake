# Every third-party library Floe links, as an imported target. Debian packages come from
# scripts/deps.sh; Arrow/Parquet C++ come from an Arrow install when CMake can find one,
# otherwise from the pinned pyarrow wheel laid out under .deps/arrow (scripts/arrow-from-wheel.sh).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)

# --- Arrow + Parquet ---------------------------------------------------------------------
set(FLOE_ARROW_PREFIX "${PROJECT_SOURCE_DIR}/.deps/arrow" CACHE PATH "Arrow C++ prefix from the pyarrow wheel")
find_package(Arrow CONFIG QUIET)
find_package(Parquet CONFIG QUIET)
if(Arrow_FOUND AND Parquet_FOUND)
  message(STATUS "Arrow ${Arrow_VERSION}: installed package")
  set(FLOE_ARROW_VERSION_STRING "${Arrow_VERSION}")
  add_library(floe_arrow INTERFACE)
  target_link_libraries(floe_arrow INTERFACE Arrow::arrow_shared Parquet::parquet_shared)
  find_package(ArrowCompute CONFIG QUIET)
  if(TARGET ArrowCompute::arrow_compute_shared)
    target_link_libraries(floe_arrow INTERFACE ArrowCompute::arrow_compute_shared)
  endif()
  find_package(ArrowS3 CONFIG QUIET)
  if(TARGET ArrowS3::arrow_s3_shared)
    target_link_libraries(floe_arrow INTERFACE ArrowS3::arrow_s3_shared)
  endif()
else()
  if(NOT EXISTS "${FLOE_ARROW_PREFIX}/include/arrow/api.h")
    message(FATAL_ERROR "Arrow C++ not found: no Arrow CMake package and no ${FLOE_ARROW_PREFIX}. Run `make deps` first.")
  endif()
  file(READ "${FLOE_ARROW_PREFIX}/VERSION" FLOE_ARROW_VERSION)
  string(STRIP "${FLOE_ARROW_VERSION}" FLOE_ARROW_VERSION)
  set(FLOE_ARROW_VERSION_STRING "${FLOE_ARROW_VERSION} (pyarrow wheel)")
  message(STATUS "Arrow ${FLOE_ARROW_VERSION}: C++ libraries of the pyarrow wheel at ${FLOE_ARROW_PREFIX}")
  add_library(floe_arrow INTERFACE)
  # The wheel's headers are third-party: SYSTEM keeps their warnings out of -Werror.
  target_include_directories(floe_arrow SYSTEM INTERFACE "${FLOE_ARROW_PREFIX}/include")
  foreach(lib arrow_s3 parquet arrow_compute arrow)
    find_library(FLOE_LIB_${lib} NAMES ${lib} PATHS "${FLOE_ARROW_PREFIX}/lib" NO_DEFAULT_PATH REQUIRED)
    target_link_libraries(floe_arrow INTERFACE "${FLOE_LIB_${lib}}")
  endforeach()
  # The wheel's libraries are not on the loader path: bake their directory into RPATH.
  target_link_options(floe_arrow INTERFACE "-Wl,-rpath,${FLOE_ARROW_PREFIX}/lib")
endif()
add_library(floe::arrow ALIAS floe_arrow)

# --- Debian-packaged libraries -------------------------------------------------------------
# librdkafka: the one scripts/librdkafka/install.sh builds into .deps/librdkafka (Debian 12's 2.0.2
# fails SASL/SCRAM against Kafka 4 and has no OIDC client: docs/security.md). Its pkg-config files
# go first on the search path, and >= 2.6.1 is required so an old system librdkafka is never taken
# by accident. The C library too: Record reads headers in place through it.
set(FLOE_RDKAFKA_PREFIX "${PROJECT_SOURCE_DIR}/.deps/librdkafka" CACHE PATH "librdkafka prefix built by make deps")
if(EXISTS "${FLOE_RDKAFKA_PREFIX}/lib/pkgconfig/rdkafka.pc")
  set(ENV{PKG_CONFIG_PATH} "${FLOE_RDKAFKA_PREFIX}/lib/pkgconfig:$ENV{PKG_CONFIG_PATH}")
endif()
# Looked up afresh at every configure: find_library caches its result, so a build directory
# configured against another librdkafka would otherwise keep linking that one's files.
unset(__pkg_config_checked_RDKAFKA CACHE)
unset(pkgcfg_lib_RDKAFKA_rdkafka CACHE)
unset(pkgcfg_lib_RDKAFKA_rdkafka++ CACHE)
pkg_check_modules(RDKAFKA IMPORTED_TARGET "rdkafka++>=2.6.1" "rdkafka>=2.6.1")
if(NOT RDKAFKA_FOUND)
  message(FATAL_ERROR "librdkafka >= 2.6.1 not found (looked in ${FLOE_RDKAFKA_PREFIX} first). Run `make deps` first.")
endif()
message(STATUS "librdkafka ${RDKAFKA_rdkafka_VERSION} at ${RDKAFKA_rdkafka_PREFIX}")
# Not on the loader path, and the system may hold another librdkafka.so.1 (Debian's librdkafka1,
# a dependency of other packages): bake the directory into the binaries' RUNPATH.
foreach(dir IN LISTS RDKAFKA_LIBRARY_DIRS)
  if(NOT dir MATCHES "^/(usr/)?lib")
    target_link_options(PkgConfig::RDKAFKA INTERFACE "-Wl,-rpath,${dir}")
  endif()
endforeach()
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
find_package(Protobuf REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(simdjson REQUIRED)
find_package(CURL REQUIRED)
find_package(OpenSSL REQUIRED)  # SHA-256 of S3 conditional-put payloads (storage/)
find_package(SQLite3 REQUIRED)
find_package(PostgreSQL REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
find_package(spdlog REQUIRED)
if(FLOE_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(FLOE_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
