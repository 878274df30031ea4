#!/bin/sh
# Regenerates the golden manifests in this directory (see README.md). Off-line, by hand.
# Java: iceberg-core 1.11.0 and its dependencies from the Maven repository under .deps/m2.
# Python: pyiceberg 0.12.0 from the project venv.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
M2="$ROOT/.deps/m2"
CP=""
for jar in org/apache/iceberg/iceberg-api/1.11.0/iceberg-api-1.11.0.jar \
           org/apache/iceberg/iceberg-core/1.11.0/iceberg-core-1.11.0.jar \
           org/apache/iceberg/iceberg-common/1.11.0/iceberg-common-1.11.0.jar \
           org/apache/iceberg/iceberg-bundled-guava/1.11.0/iceberg-bundled-guava-1.11.0.jar \
           org/apache/avro/avro/1.12.1/avro-1.12.1.jar; do
  CP="$CP:$M2/$jar"
done
for name in jackson-core-2.21.7.jar jackson-databind-2.21.7.jar jackson-annotations-2.21.jar slf4j-api-2.0.17.jar \
            snappy-java-1.1.10.7.jar zstd-jni-1.5.7-17.jar caffeine-3.2.0.jar RoaringBitmap-1.6.14.jar \
            commons-compress-1.28.0.jar; do
  CP="$CP:$(find "$M2" -name "$name" | head -1)"
done
java -cp "${CP#:}" "$HERE/GenerateJavaManifests.java" "$HERE"
"$ROOT/.deps/venv/bin/python" "$HERE/generate_pyiceberg_manifests.py"
