/*
 * A Kafka Connect Converter for Confluent-framed Avro values (magic byte 0, 4-byte big-endian
 * schema id, Avro binary), for the benchmark's peer (bench/README.md). Confluent's AvroConverter
 * does this job but is not published on Maven Central, so the peer cannot fetch it here; this
 * does the same work it does on the read path — fetch the writer schema from the registry by id
 * (once per id), decode with Avro's GenericDatumReader, convert to a Connect Struct — and nothing
 * more (no schema registration, no fromConnectData). Configured with `schema.registry.url`.
 */
package floe.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalTypes;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.storage.Converter;

public final class FloeBenchAvroConverter implements Converter {
  private static final class Writer {
    final GenericDatumReader<Object> reader;
    final Schema connect;
    Writer(org.apache.avro.Schema avro) {
      this.reader = new GenericDatumReader<>(avro);
      this.connect = toConnect(avro, false);
    }
  }

  private final Map<Integer, Writer> writers = new HashMap<>();
  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper json = new ObjectMapper();
  private String registryUrl;
  private BinaryDecoder decoder;

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    Object url = configs.get("schema.registry.url");
    if (url == null) throw new DataException("schema.registry.url is required");
    registryUrl = url.toString().replaceAll("/+$", "");
  }

  @Override
  public byte[] fromConnectData(String topic, Schema schema, Object value) {
    throw new UnsupportedOperationException("FloeBenchAvroConverter only reads");
  }

  @Override
  public SchemaAndValue toConnectData(String topic, byte[] value) {
    if (value == null) return SchemaAndValue.NULL;
    ByteBuffer buf = ByteBuffer.wrap(value);
    if (value.length < 5 || buf.get() != 0) throw new DataException("not Confluent-framed Avro");
    Writer w = writer(buf.getInt());
    try {
      decoder = DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, decoder);
      return new SchemaAndValue(w.connect, toConnectValue(w.connect, w.reader.read(null, decoder)));
    } catch (IOException e) {
      throw new DataException("bad Avro datum", e);
    }
  }

  private Writer writer(int id) {
    return writers.computeIfAbsent(id, key -> {
      try {
        HttpResponse<String> r = http.send(
            HttpRequest.newBuilder(URI.create(registryUrl + "/schemas/ids/" + key)).build(),
            HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new DataException("registry: schema " + key + ": " + r.body());
        String text = json.readTree(r.body()).get("schema").asText();
        return new Writer(new org.apache.avro.Schema.Parser().parse(text));
      } catch (IOException | InterruptedException e) {
        throw new DataException("registry: schema " + key, e);
      }
    });
  }

  private static Schema toConnect(org.apache.avro.Schema s, boolean optional) {
    SchemaBuilder b;
    switch (s.getType()) {
      case UNION: {
        List<org.apache.avro.Schema> branches = s.getTypes();
        if (branches.size() == 2 && branches.get(0).getType() == org.apache.avro.Schema.Type.NULL) {
          return toConnect(branches.get(1), true);
        }
        throw new DataException("only [null, X] unions are supported: " + s);
      }
      case RECORD:
        b = SchemaBuilder.struct().name(s.getFullName());
        for (org.apache.avro.Schema.Field f : s.getFields()) b.field(f.name(), toConnect(f.schema(), false));
        break;
      case ARRAY: b = SchemaBuilder.array(toConnect(s.getElementType(), false)); break;
      case MAP: b = SchemaBuilder.map(Schema.STRING_SCHEMA, toConnect(s.getValueType(), false)); break;
      case STRING: case ENUM: b = SchemaBuilder.string(); break;
      case BOOLEAN: b = SchemaBuilder.bool(); break;
      case INT: b = SchemaBuilder.int32(); break;
      case FLOAT: b = SchemaBuilder.float32(); break;
      case DOUBLE: b = SchemaBuilder.float64(); break;
      case LONG:
        b = s.getLogicalType() instanceof LogicalTypes.TimestampMillis ? Timestamp.builder() : SchemaBuilder.int64();
        break;
      case BYTES:
        b = s.getLogicalType() instanceof LogicalTypes.Decimal d ? Decimal.builder(d.getScale()) : SchemaBuilder.bytes();
        break;
      default: throw new DataException("unsupported Avro type " + s.getType());
    }
    return optional ? b.optional().build() : b.build();
  }

  private static Object toConnectValue(Schema schema, Object v) {
    if (v == null) return null;
    switch (schema.type()) {
      case STRUCT: {
        GenericRecord r = (GenericRecord) v;
        Struct out = new Struct(schema);
        for (Field f : schema.fields()) out.put(f, toConnectValue(f.schema(), r.get(f.name())));
        return out;
      }
      case ARRAY: {
        List<?> in = (List<?>) v;
        List<Object> out = new ArrayList<>(in.size());
        for (Object item : in) out.add(toConnectValue(schema.valueSchema(), item));
        return out;
      }
      case MAP: {
        Map<String, Object> out = new HashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          out.put(e.getKey().toString(), toConnectValue(schema.valueSchema(), e.getValue()));
        }
        return out;
      }
      case STRING: return v.toString();  // Utf8 and enum symbols
      case INT64: return Timestamp.LOGICAL_NAME.equals(schema.name()) ? new Date((Long) v) : v;
      case BYTES: {
        ByteBuffer bb = ((ByteBuffer) v).duplicate();
        byte[] bytes = new byte[bb.remaining()];
        bb.get(bytes);
        if (Decimal.LOGICAL_NAME.equals(schema.name())) {
          return new BigDecimal(new BigInteger(bytes), Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD)));
        }
        return bytes;
      }
      default: return v;
    }
  }
}
