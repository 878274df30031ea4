# Floe's entry points. `make demo` and `make test` work on a fresh machine: both install
# whatever is missing first (scripts/deps.sh, cached under .deps/): `make test` everything,
# `make demo` only what building `floe` and running the demo need.
JOBS ?= 2
ASAN_DIR := build/asan
RELEASE_DIR := build/release
CMAKE_COMMON := -G Ninja -DFLOE_WERROR=ON

.PHONY: all deps deps-build deps-demo build build-release test unit integration demo bench clean

all: build

deps:
	@scripts/deps.sh

# Only what compiling needs; `make test` installs the servers while the build runs.
deps-build:
	@scripts/deps.sh build

# The demo's build part: the build packages, librdkafka, the venv with the demo's readers (its
# Java and Kafka jars install while `floe` compiles, below).
deps-demo:
	@scripts/deps.sh demo

# Debug + AddressSanitizer/UBSan: what the tests run against. A unity build (up to 8 .cc files of
# a target compiled as one): the headers they share (Arrow, nlohmann::json, GoogleTest) are parsed
# and their inline code instrumented once per 8 files, not once per file: about half the compile
# time (docs/development.md). Reconfigure with -DCMAKE_UNITY_BUILD=OFF to rebuild one file at a time.
$(ASAN_DIR)/build.ninja:
	cmake -S . -B $(ASAN_DIR) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Debug -DFLOE_SANITIZE=ON -DCMAKE_UNITY_BUILD=ON

build: deps $(ASAN_DIR)/build.ninja
	ninja -C $(ASAN_DIR) -j$(JOBS)

# Optimized build: what the demo and the benchmarks run. A unity build too, as the ASan build:
# `floe` alone is 37 compiles instead of 237 (docs/development.md, "How long the first `make demo` takes").
$(RELEASE_DIR)/build.ninja:
	cmake -S . -B $(RELEASE_DIR) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON

build-release: deps $(RELEASE_DIR)/build.ninja
	ninja -C $(RELEASE_DIR) -j$(JOBS)

# Every unit and integration test (the Spark tier included), one summary at the end,
# non-zero exit on any failure. The tests' servers (mostly downloads) install while the ASan
# build compiles.
test: deps-build $(ASAN_DIR)/build.ninja $(RELEASE_DIR)/build.ninja
	@scripts/build-while-installing.sh $(ASAN_DIR)/deps-servers.log -- ninja -C $(ASAN_DIR) -j$(JOBS)
	ninja -C $(RELEASE_DIR) -j$(JOBS) floe
	@scripts/dist.sh $(RELEASE_DIR) $(DIST_DIR)
	@FLOE_DIST_TARBALL=$(CURDIR)/$(DIST_TARBALL) scripts/run-tests.sh $(ASAN_DIR)

unit: build
	@scripts/run-tests.sh $(ASAN_DIR) unit

integration: build
	@scripts/run-tests.sh $(ASAN_DIR) integration

# Builds only the `floe` binary (not the unit tests, tools and fuzz replays) while Java and the
# Kafka jars install, then runs the demo.
demo: deps-demo $(RELEASE_DIR)/build.ninja
	@scripts/build-while-installing.sh --demo $(RELEASE_DIR)/deps-demo.log -- ninja -C $(RELEASE_DIR) -j$(JOBS) floe
	@scripts/demo.sh $(RELEASE_DIR)

# A release people install without building (docs/deploying.md): the Release build's `floe` alone,
# packed by scripts/dist.sh with the shared libraries a stock Debian/Ubuntu lacks into
# build/dist/floe-<version>-linux-x86_64.tar.gz. `make test` builds it too (tests/integration/test_dist.py).
.PHONY: dist
DIST_DIR := build/dist
VERSION := $(shell sed -n 's/^project.floe VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
DIST_TARBALL := $(DIST_DIR)/floe-$(VERSION)-linux-x86_64.tar.gz
dist: deps-build $(RELEASE_DIR)/build.ninja
	ninja -C $(RELEASE_DIR) -j$(JOBS) floe
	@scripts/dist.sh $(RELEASE_DIR) $(DIST_DIR)

clean:
	rm -rf build

# Benchmarks (bench/README.md): the Release build with the bench tools, then the driver, which
# starts its own Kafka and registry, prints one table and writes bench/results/latest.md.
# Sizes via environment, e.g. `make bench BENCH_RECORDS=5000000` (see bench/README.md).
bench: deps
	cmake -S . -B $(RELEASE_DIR) $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Release -DFLOE_BUILD_BENCH=ON
	ninja -C $(RELEASE_DIR) -j$(JOBS) floe_bench
	.deps/venv/bin/python bench/run.py --build $(RELEASE_DIR)

# The slow tier alone: Apache Spark + the Iceberg runtime, and Iceberg's REST compatibility kit, against Floe's REST catalog
# (docs/testing-with-spark.md). `make test` runs it too.
.PHONY: test-slow
test-slow: build
	@scripts/run-tests.sh $(ASAN_DIR) slow

# Coverage-guided fuzzing of the payload decoders (tests/fuzz/, docs/development.md): clang +
# libFuzzer + ASan/UBSan in its own build directory, FUZZ_SECONDS per target (default 60),
# FUZZ_TARGETS to pick some (default all). `make test` only replays the committed corpora.
FUZZ_DIR := build/fuzz
.PHONY: fuzz fuzz-deps
fuzz-deps: deps
	@scripts/deps.sh fuzz

$(FUZZ_DIR)/build.ninja: | fuzz-deps
	cmake -S . -B $(FUZZ_DIR) $(CMAKE_COMMON) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_CXX_FLAGS=-O1 -DFLOE_SANITIZE=ON -DFLOE_FUZZ=ON

fuzz: fuzz-deps $(FUZZ_DIR)/build.ninja
	ninja -C $(FUZZ_DIR) -j$(JOBS) floe_fuzzers
	@scripts/fuzz.sh $(FUZZ_DIR)
