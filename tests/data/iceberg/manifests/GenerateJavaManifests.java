// Generates the Java-written golden manifests in this directory (see README.md), with
// Apache Iceberg's own ManifestWriter (iceberg-core 1.11.0). Run off-line, by hand, only
// when the files must change (generate_manifests.sh runs it with the right class path).
// The entries are a function of their index only; manifest_golden_test.cc computes the
// same values in C++, and generate_pyiceberg_manifests.py writes the same with pyiceberg.
import java.io.File;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.Files;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

public class GenerateJavaManifests {
  static final long SNAPSHOT_ID = 42L;

  static Schema schema() {
    return new Schema(
        Types.NestedField.optional(1, "b", Types.BooleanType.get()),
        Types.NestedField.optional(2, "i", Types.IntegerType.get()),
        Types.NestedField.optional(3, "l", Types.LongType.get()),
        Types.NestedField.optional(4, "f", Types.FloatType.get()),
        Types.NestedField.optional(5, "d", Types.DoubleType.get()),
        Types.NestedField.optional(6, "dt", Types.DateType.get()),
        Types.NestedField.optional(7, "t", Types.TimeType.get()),
        Types.NestedField.optional(8, "ts", Types.TimestampType.withoutZone()),
        Types.NestedField.optional(9, "tstz", Types.TimestampType.withZone()),
        Types.NestedField.optional(10, "s", Types.StringType.get()),
        Types.NestedField.optional(11, "u", Types.UUIDType.get()),
        Types.NestedField.optional(12, "fx", Types.FixedType.ofLength(4)),
        Types.NestedField.optional(13, "bin", Types.BinaryType.get()),
        Types.NestedField.optional(14, "dec", Types.DecimalType.of(9, 2)),
        Types.NestedField.optional(15, "dec_big", Types.DecimalType.of(20, 4)));
  }

  // No identity(fx): iceberg-core 1.11.0's manifest writer encoded fixed[4] partition values
  // length-prefixed (as Avro bytes) although the file's schema says fixed, so neither Java's
  // Avro nor fastavro could read such a file back. The column stays in the schema.
  static PartitionSpec spec(Schema schema) {
    return PartitionSpec.builderFor(schema)
        .identity("b").identity("i").identity("l").identity("f").identity("d").identity("dt").identity("t")
        .identity("ts").identity("tstz").identity("s").identity("u").identity("bin")
        .identity("dec").identity("dec_big")
        .day("ts", "ts_day").hour("tstz", "tstz_hour").bucket("l", 8, "l_bucket").truncate("s", 3, "s_trunc")
        .month("dt", "dt_month")
        .withSpecId(3)
        .build();
  }

  static ByteBuffer bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int k = 0; k < values.length; ++k) b[k] = (byte) values[k];
    return ByteBuffer.wrap(b);
  }

  // Partition values of entry i (2: all null), in Iceberg's internal Java representation.
  static PartitionData partition(PartitionSpec spec, int i) {
    PartitionData p = new PartitionData(spec.partitionType());
    if (i == 0) {
      Object[] v = {true, 42, 1234567890123L, 1.5f, -2.25, 19000, 45296789012L, 1700000000123456L, -86400000001L,
          "h\u00e9llo", UUID.fromString("f79c3e09-677c-4bbd-a479-3f349cb785e7"), bytes(0, 0xff, 0x10),
          new BigDecimal(BigInteger.valueOf(12345), 2), new BigDecimal(BigInteger.valueOf(123456789012345678L), 4),
          19675, -25, 5, "h\u00e9l", 624};
      for (int k = 0; k < v.length; ++k) p.set(k, v[k]);
    } else if (i == 1) {
      Object[] v = {false, -7, -9L, -0.25f, 1e300, -1, 0L, -1L, 0L, "",
          UUID.fromString("00000000-0000-0000-0000-000000000001"), bytes(),
          new BigDecimal(BigInteger.valueOf(-1), 2), new BigDecimal(BigInteger.valueOf(-123456789012345678L), 4),
          -1, 0, 0, "", -1};
      for (int k = 0; k < v.length; ++k) p.set(k, v[k]);
    }
    return p;
  }

  static ByteBuffer le64(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, v);
  }

  static DataFile dataFile(PartitionSpec spec, int i) {
    Map<Integer, Long> columnSizes = new HashMap<>(Map.of(1, 800L + i, 2, 900L + i));
    Map<Integer, Long> valueCounts = new HashMap<>(Map.of(1, 100L + i, 2, 100L + i));
    Map<Integer, Long> nullCounts = new HashMap<>(Map.of(1, 0L, 2, (long) i));
    Map<Integer, Long> nanCounts = new HashMap<>(Map.of(4, (long) i));
    Map<Integer, ByteBuffer> lower = new HashMap<>(Map.of(3, le64(i)));
    Map<Integer, ByteBuffer> upper = new HashMap<>(Map.of(3, le64(1000 + i)));
    Metrics metrics = new Metrics(100L + i, columnSizes, valueCounts, nullCounts, nanCounts, lower, upper);
    return DataFiles.builder(spec)
        .withPath("s3://bucket/t/data/f" + i + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withPartition(partition(spec, i))
        .withFileSizeInBytes(4096L + i)
        .withMetrics(metrics)
        .withSplitOffsets(List.of(4L, 1000L + i))
        .withSortOrderId(0)
        .build();
  }

  static void write(File dir, int formatVersion, String codec, String name, PartitionSpec spec) throws Exception {
    File out = new File(dir, name);
    out.delete();
    ManifestWriter<DataFile> w = ManifestFiles.write(formatVersion, spec, Files.localOutput(out), SNAPSHOT_ID,
        Map.of("write.avro.compression-codec", codec));
    try {
      w.add(dataFile(spec, 0));
      w.existing(dataFile(spec, 1), 11L, 3L, 2L);
      w.delete(dataFile(spec, 2), 4L, 4L);
    } finally {
      w.close();
    }
    System.out.println(name + ": " + out.length() + " bytes");
  }

  static void writeDeletes(File dir, PartitionSpec spec) throws Exception {
    File out = new File(dir, "java-v2-deletes.avro");
    out.delete();
    DeleteFile deletes = FileMetadata.deleteFileBuilder(spec)
        .ofPositionDeletes()
        .withPath("s3://bucket/t/data/d0.parquet")
        .withFormat(FileFormat.PARQUET)
        .withPartition(partition(spec, 2))
        .withRecordCount(5)
        .withFileSizeInBytes(1234)
        .build();
    ManifestWriter<DeleteFile> w = ManifestFiles.writeDeleteManifest(2, spec, Files.localOutput(out), SNAPSHOT_ID);
    try {
      w.add(deletes);
    } finally {
      w.close();
    }
    System.out.println(out.getName() + ": " + out.length() + " bytes");
  }

  // Two partition fields of one decimal type: Java defines the Avro fixed type
  // "decimal_9_2" once and refers to it by name the second time.
  static void writeSharedType(File dir, Schema schema) throws Exception {
    PartitionSpec spec = PartitionSpec.builderFor(schema).identity("dec").truncate("dec", 100, "dec_trunc")
        .withSpecId(5).build();
    File out = new File(dir, "java-v2-shared-decimal.avro");
    out.delete();
    PartitionData p = new PartitionData(spec.partitionType());
    p.set(0, new BigDecimal(BigInteger.valueOf(12345), 2));
    p.set(1, new BigDecimal(BigInteger.valueOf(12300), 2));
    DataFile file = DataFiles.builder(spec).withPath("s3://bucket/t/data/dec.parquet").withFormat(FileFormat.PARQUET)
        .withPartition(p).withRecordCount(3).withFileSizeInBytes(300).build();
    ManifestWriter<DataFile> w = ManifestFiles.write(2, spec, Files.localOutput(out), SNAPSHOT_ID);
    try {
      w.add(file);
    } finally {
      w.close();
    }
    System.out.println(out.getName() + ": " + out.length() + " bytes");
  }

  public static void main(String[] args) throws Exception {
    File dir = new File(args.length > 0 ? args[0] : ".");
    Schema schema = schema();
    PartitionSpec spec = spec(schema);
    // Iceberg's codec names (write.avro.compression-codec); the files say null/deflate/snappy/zstandard.
    write(dir, 2, "uncompressed", "java-v2-null.avro", spec);
    write(dir, 2, "gzip", "java-v2-deflate.avro", spec);
    write(dir, 2, "snappy", "java-v2-snappy.avro", spec);
    write(dir, 2, "zstd", "java-v2-zstandard.avro", spec);
    write(dir, 1, "gzip", "java-v1-deflate.avro", spec);
    writeDeletes(dir, spec);
    writeSharedType(dir, schema);
  }
}
