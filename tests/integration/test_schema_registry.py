"""The test Schema Registry, driven only through confluent-kafka's real clients.

Everything here goes through ``SchemaRegistryClient`` and the Avro / Protobuf /
JSON Schema serializers of the ``confluent-kafka`` package (no Kafka broker:
the serializers run with a ``SerializationContext`` naming a topic), so a pass
means those libraries accept the fixture as a Confluent Schema Registry.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import fastavro  # noqa: E402
try:  # the HTTP library confluent-kafka uses (httpx2 if installed, else httpx)
    from confluent_kafka.schema_registry.common._httpx_compat import httpx  # noqa: E402
except ImportError:  # pragma: no cover - older/newer confluent-kafka layouts
    try:
        import httpx2 as httpx  # noqa: E402
    except ImportError:
        import httpx  # noqa: E402
from confluent_kafka.schema_registry import Schema, SchemaReference, SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer  # noqa: E402
from confluent_kafka.schema_registry.error import SchemaRegistryError  # noqa: E402
from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer  # noqa: E402
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402
from google.protobuf import descriptor_pb2, descriptor_pool, timestamp_pb2  # noqa: E402
from google.protobuf.message_factory import GetMessageClass  # noqa: E402

from tests.integration.fixtures.schema_registry import SchemaRegistry, render_proto_descriptor  # noqa: E402

pytestmark = pytest.mark.timeout(60)

USER_V1 = """
{
  "type": "record",
  "name": "User",
  "namespace": "floe.test",
  "fields": [
    {"name": "id", "type": "long"},
    {"name": "name", "type": "string"}
  ]
}
"""

USER_V2 = """
{
  "type": "record",
  "name": "User",
  "namespace": "floe.test",
  "fields": [
    {"name": "id", "type": "long"},
    {"name": "name", "type": "string"},
    {"name": "email", "type": ["null", "string"], "default": null}
  ]
}
"""

ORDER_JSON_SCHEMA = """
{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "Order",
  "type": "object",
  "properties": {
    "id": {"type": "string"},
    "amount": {"type": "number"},
    "lines": {"type": "array", "items": {"type": "integer"}}
  },
  "required": ["id", "amount"]
}
"""


def value_ctx(topic: str) -> SerializationContext:
    return SerializationContext(topic, MessageField.VALUE)


def split_frame(data: bytes):
    """Confluent wire format: magic byte 0, 4-byte big-endian schema id, payload."""
    assert data[0] == 0, "magic byte"
    (schema_id,) = struct.unpack(">I", data[1:5])
    return schema_id, data[5:]


@pytest.fixture
def registry():
    with SchemaRegistry() as reg:
        yield reg


@pytest.fixture
def client(registry):
    return SchemaRegistryClient({"url": registry.url})


# --------------------------------------------------------------------------- protobuf types


def _build_order_pool(with_common: bool = True):
    """floe/common.proto (Money) and floe/order.proto (Order, imports common + Timestamp)."""
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(timestamp_pb2.DESCRIPTOR.serialized_pb)
    F = descriptor_pb2.FieldDescriptorProto

    common = descriptor_pb2.FileDescriptorProto(name="floe/common.proto", package="floe.common", syntax="proto3")
    money = common.message_type.add(name="Money")
    money.field.add(name="currency", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    money.field.add(name="units", number=2, type=F.TYPE_INT64, label=F.LABEL_OPTIONAL)
    pool.Add(common)

    order = descriptor_pb2.FileDescriptorProto(
        name="floe/order.proto",
        package="floe.orders",
        syntax="proto3",
        dependency=["floe/common.proto", "google/protobuf/timestamp.proto"],
    )
    order.options.java_package = "io.floe.test"
    msg = order.message_type.add(name="Order")
    msg.field.add(name="id", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    msg.field.add(name="total", number=2, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL, type_name=".floe.common.Money")
    msg.field.add(
        name="created_at", number=3, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL, type_name=".google.protobuf.Timestamp"
    )
    msg.field.add(name="tags", number=4, type=F.TYPE_STRING, label=F.LABEL_REPEATED)
    entry = msg.nested_type.add(name="CountsEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    entry.field.add(name="value", number=2, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    msg.field.add(
        name="counts", number=5, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED, type_name=".floe.orders.Order.CountsEntry"
    )
    msg.oneof_decl.add(name="payment")
    msg.field.add(name="card", number=6, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL, oneof_index=0)
    msg.field.add(name="iban", number=7, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL, oneof_index=0)
    msg.oneof_decl.add(name="_priority")
    msg.field.add(
        name="priority", number=8, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL, oneof_index=1, proto3_optional=True
    )
    status = msg.enum_type.add(name="Status")
    status.value.add(name="STATUS_UNKNOWN", number=0)
    status.value.add(name="STATUS_PAID", number=1)
    msg.field.add(
        name="status", number=9, type=F.TYPE_ENUM, label=F.LABEL_OPTIONAL, type_name=".floe.orders.Order.Status"
    )
    msg.reserved_range.add(start=20, end=23)
    msg.reserved_name.append("legacy")
    pool.Add(order)
    return pool


@pytest.fixture(scope="module")
def order_class():
    pool = _build_order_pool()
    return GetMessageClass(pool.FindMessageTypeByName("floe.orders.Order"))


@pytest.fixture(scope="module")
def event_class():
    """A single-file message that imports only google/protobuf/timestamp.proto."""
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(timestamp_pb2.DESCRIPTOR.serialized_pb)
    F = descriptor_pb2.FieldDescriptorProto
    fd = descriptor_pb2.FileDescriptorProto(
        name="floe/event.proto", package="floe.events", syntax="proto3", dependency=["google/protobuf/timestamp.proto"]
    )
    msg = fd.message_type.add(name="Event")
    msg.field.add(name="name", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    msg.field.add(name="at", number=2, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL, type_name=".google.protobuf.Timestamp")
    pool.Add(fd)
    return GetMessageClass(pool.FindMessageTypeByName("floe.events.Event"))


# --------------------------------------------------------------------------- Avro


def test_avro_round_trip_and_wire_format(registry, client):
    ctx = value_ctx("users")
    serializer = AvroSerializer(client, USER_V1)
    record = {"id": 42, "name": "Ada"}
    data = serializer(record, ctx)

    schema_id, payload = split_frame(data)
    assert schema_id == 1
    assert data[:5] == b"\x00\x00\x00\x00\x01"
    # The payload is plain Avro binary (schemaless) of the registered schema.
    writer = fastavro.parse_schema(json.loads(USER_V1))
    assert fastavro.schemaless_reader(io.BytesIO(payload), writer) == record

    assert AvroDeserializer(client)(data, ctx) == record

    registered = client.get_latest_version("users-value")
    assert (registered.version, registered.schema_id, registered.subject) == (1, 1, "users-value")
    assert registered.schema.schema_type == "AVRO"
    assert client.get_subjects() == ["users-value"]
    assert client.get_versions("users-value") == [1]
    assert client.get_schema(1).schema_str == registered.schema.schema_str
    looked_up = client.lookup_schema("users-value", Schema(USER_V1, "AVRO"))
    assert (looked_up.schema_id, looked_up.version) == (1, 1)


def test_avro_schema_evolution_registers_version_2(registry, client):
    ctx = value_ctx("users")
    old_bytes = AvroSerializer(client, USER_V1)({"id": 1, "name": "a"}, ctx)
    new_bytes = AvroSerializer(client, USER_V2)({"id": 2, "name": "b", "email": "b@x"}, ctx)

    assert split_frame(old_bytes)[0] == 1
    assert split_frame(new_bytes)[0] == 2
    assert client.get_versions("users-value") == [1, 2]
    latest = client.get_latest_version("users-value")
    assert (latest.version, latest.schema_id) == (2, 2)
    assert client.get_version("users-value", 1).schema_id == 1

    # Writer schemas are resolved by id; a v2 reader fills the new field's default.
    deserializer = AvroDeserializer(client)
    assert deserializer(old_bytes, ctx) == {"id": 1, "name": "a"}
    assert deserializer(new_bytes, ctx) == {"id": 2, "name": "b", "email": "b@x"}
    reader = AvroDeserializer(client, USER_V2)
    assert reader(old_bytes, ctx) == {"id": 1, "name": "a", "email": None}

    # Registering v1 again changes nothing.
    assert client.register_schema("users-value", Schema(USER_V1, "AVRO")) == 1
    assert client.get_versions("users-value") == [1, 2]


def test_same_schema_same_id_across_subjects(registry, client):
    a = split_frame(AvroSerializer(client, USER_V1)({"id": 1, "name": "a"}, value_ctx("topic-a")))[0]
    # Same schema with different whitespace is the same schema.
    compact = USER_V1.replace("\n", "").replace("  ", "")
    b = split_frame(AvroSerializer(client, compact)({"id": 1, "name": "a"}, value_ctx("topic-b")))[0]
    assert a == b == 1
    assert sorted(client.get_subjects()) == ["topic-a-value", "topic-b-value"]
    versions = client.get_schema_versions(1)
    assert sorted((v.subject, v.version) for v in versions) == [("topic-a-value", 1), ("topic-b-value", 1)]
    assert sorted(client.get_subjects_by_schema_id(1)) == ["topic-a-value", "topic-b-value"]
    # A different schema gets the next id.
    c = split_frame(AvroSerializer(client, USER_V2)({"id": 1, "name": "a"}, value_ctx("topic-a")))[0]
    assert c == 2


def test_avro_reference(registry, client):
    address = '{"type":"record","name":"Address","namespace":"floe.test","fields":[{"name":"city","type":"string"}]}'
    person = (
        '{"type":"record","name":"Person","namespace":"floe.test",'
        '"fields":[{"name":"name","type":"string"},{"name":"home","type":"floe.test.Address"}]}'
    )
    client.register_schema("address", Schema(address, "AVRO"))
    # Without the reference the named type is undefined: 422 / 42201 like Confluent.
    with pytest.raises(SchemaRegistryError) as err:
        client.register_schema("people-value", Schema(person, "AVRO"))
    assert (err.value.http_status_code, err.value.error_code) == (422, 42201)

    person_schema = Schema(person, "AVRO", [SchemaReference("floe.test.Address", "address", 1)])
    pid = client.register_schema("people-value", person_schema)
    fetched = client.get_schema(pid)
    assert [(r.name, r.subject, r.version) for r in fetched.references] == [("floe.test.Address", "address", 1)]

    ctx = value_ctx("people")
    serializer = AvroSerializer(client, person_schema, conf={"auto.register.schemas": False, "use.latest.version": True})
    record = {"name": "Ada", "home": {"city": "London"}}
    data = serializer(record, ctx)
    assert split_frame(data)[0] == pid
    assert AvroDeserializer(client)(data, ctx) == record
    assert client.get_referenced_by("address", 1) == [pid]
    # A referenced schema cannot be deleted (42206), like Confluent.
    with pytest.raises(SchemaRegistryError) as err:
        client.delete_subject("address")
    assert err.value.error_code == 42206


# --------------------------------------------------------------------------- Protobuf


def test_protobuf_round_trip_with_reference(registry, client, order_class):
    ctx = value_ctx("orders")
    serializer = ProtobufSerializer(order_class, client)
    msg = order_class(id="o-1", tags=["a", "b"], card="4111", priority=3, status=1)
    msg.total.currency = "EUR"
    msg.total.units = 1250
    msg.created_at.seconds = 1_700_000_000
    msg.counts["x"] = 7
    data = serializer(msg, ctx)

    schema_id, rest = split_frame(data)
    # The imported file was auto-registered first, under the subject named after it.
    assert client.get_subjects() == ["floe/common.proto", "orders-value"]
    assert client.get_latest_version("floe/common.proto").schema_id == 1
    assert schema_id == 2
    # Message-index array [0] is written as the single byte 0, then the protobuf payload.
    assert rest[0] == 0
    assert order_class.FromString(rest[1:]) == msg

    registered = client.get_latest_version("orders-value")
    assert registered.schema.schema_type == "PROTOBUF"
    assert [(r.name, r.subject, r.version) for r in registered.schema.references] == [
        ("floe/common.proto", "floe/common.proto", 1)
    ]

    out = ProtobufDeserializer(order_class, schema_registry_client=client)(data, ctx)
    assert out == msg
    assert out.total.units == 1250 and out.counts["x"] == 7 and out.WhichOneof("payment") == "card"


def test_protobuf_schema_text_and_serialized_formats(registry, client, order_class):
    """Reads return .proto text by default and base64 with ?format=serialized, like Confluent."""
    ProtobufSerializer(order_class, client)(order_class(id="x"), value_ctx("orders"))
    schema_id = client.get_latest_version("orders-value").schema_id

    text = client.get_schema(schema_id).schema_str
    assert 'syntax = "proto3";' in text
    assert "package floe.orders;" in text
    assert 'import "floe/common.proto";' in text
    assert 'import "google/protobuf/timestamp.proto";' in text
    assert "floe.common.Money total = 2;" in text
    assert "map<string, int32> counts = 5;" in text
    assert "optional int32 priority = 8;" in text
    assert "oneof payment {" in text

    fresh = SchemaRegistryClient({"url": registry.url})
    serialized = fresh.get_schema(schema_id, fmt="serialized").schema_str
    fd = descriptor_pb2.FileDescriptorProto.FromString(base64.b64decode(serialized))
    assert fd.name == "floe/order.proto" and fd.message_type[0].name == "Order"
    assert render_proto_descriptor(serialized) == text


@pytest.mark.skipif(shutil.which("protoc") is None, reason="protoc not installed")
def test_rendered_proto_text_compiles_back_to_the_same_descriptor():
    """The .proto text the registry renders is what protoc turns back into the registered descriptor."""
    pool = _build_order_pool()
    originals = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("floe/common.proto", "floe/order.proto"):
            fd = descriptor_pb2.FileDescriptorProto()
            pool.FindFileByName(name).CopyToProto(fd)
            originals[name] = fd
            b64 = base64.b64encode(fd.SerializeToString()).decode()
            path = Path(tmp, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render_proto_descriptor(b64))
        out = Path(tmp, "set.pb")
        subprocess.run(
            ["protoc", "-I", tmp, "--descriptor_set_out", str(out), "floe/common.proto", "floe/order.proto"],
            check=True,
            capture_output=True,
        )
        compiled = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    def clear_json_names(messages):  # protoc fills json_name in; the runtime's descriptors don't
        for msg in messages:
            for field in msg.field:
                field.ClearField("json_name")
            clear_json_names(msg.nested_type)

    for fd in compiled.file:
        clear_json_names(fd.message_type)
        assert fd == originals[fd.name], fd.name


LEGACY_PROTO2 = r"""
syntax = "proto2";
package floe.legacy;
import public "floe/thing.proto";
option java_multiple_files = true;
option optimize_for = CODE_SIZE;
option go_package = "example/floe;floe";
message Legacy {
  option deprecated = true;
  required int32 id = 1;
  optional string name = 2 [default = "a \"q\" \n\\ b"];
  optional Kind kind = 3 [default = KIND_B];
  optional double ratio = 4 [default = -1.5];
  optional bytes blob = 5 [default = "\001\377x"];
  repeated int32 nums = 6 [packed = true];
  optional float f = 7 [default = inf, deprecated = true];
  optional int64 big = 8 [default = -9223372036854775808];
  oneof choice { string left = 9; int32 right = 10; }
  optional sint32 s = 11 [json_name = "sss"];
  extensions 100 to 199, 1000 to max;
  enum Kind {
    option allow_alias = true;
    KIND_A = 0; KIND_B = 1; KIND_ALIAS = 1; KIND_NEG = -3 [deprecated = true];
    reserved 5 to 9, 12; reserved "OLD";
  }
  message Inner { optional uint64 u = 1; }
  optional Inner inner = 12;
  reserved 50, 60 to 70;
}
extend Legacy { optional string ext = 100; }
service Svc {
  rpc Get (Legacy) returns (floe.p3.Thing);
  rpc Stream (stream Legacy) returns (stream floe.p3.Thing);
}
"""

THING_PROTO3 = """
syntax = "proto3";
package floe.p3;
message Thing {
  fixed32 a = 1;
  sfixed64 b = 2;
  repeated double d = 3 [packed = false];
  map<int64, Thing> children = 4;
  optional bool flag = 5;
  oneof x { string y = 6; bytes z = 7; }
  Color color = 8;
}
enum Color { COLOR_UNSPECIFIED = 0; RED = 1; }
"""


def _protoc(files: dict) -> dict:
    """Compile {import name: text} with protoc; return {name: FileDescriptorProto}."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():
            path = Path(tmp, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        out = Path(tmp, "set.pb")
        subprocess.run(
            ["protoc", "-I", tmp, "--descriptor_set_out", str(out), *files], check=True, capture_output=True
        )
        return {fd.name: fd for fd in descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file}


@pytest.mark.skipif(shutil.which("protoc") is None, reason="protoc not installed")
def test_rendering_round_trips_proto2_and_proto3_features():
    compiled = _protoc({"floe/legacy.proto": LEGACY_PROTO2, "floe/thing.proto": THING_PROTO3})
    rendered = {
        name: render_proto_descriptor(base64.b64encode(fd.SerializeToString()).decode())
        for name, fd in compiled.items()
    }
    assert _protoc(rendered) == compiled


@pytest.mark.skipif(shutil.which("protoc") is None, reason="protoc not installed")
def test_protobuf_registered_as_text_is_served_serialized(registry, client):
    """A schema registered as .proto text (as a non-Python producer would) still decodes."""
    client.register_schema("floe/thing.proto", Schema(THING_PROTO3, "PROTOBUF"))
    order_text = (
        'syntax = "proto3";\npackage floe.text;\nimport "floe/thing.proto";\n'
        "message Box { string label = 1; floe.p3.Thing thing = 2; }\n"
    )
    box_id = client.register_schema(
        "boxes-value",
        Schema(order_text, "PROTOBUF", [SchemaReference("floe/thing.proto", "floe/thing.proto", 1)]),
    )
    assert client.get_schema(box_id).schema_str == order_text  # text as registered
    serialized = client.get_version("boxes-value", 1, fmt="serialized").schema.schema_str
    box_fd = descriptor_pb2.FileDescriptorProto.FromString(base64.b64decode(serialized))
    assert [m.name for m in box_fd.message_type] == ["Box"]

    pool = descriptor_pool.DescriptorPool()
    for name, fd in _protoc({"floe/thing.proto": THING_PROTO3}).items():
        pool.Add(fd)
    box_fd.name = "floe/box.proto"
    pool.Add(box_fd)
    box_class = GetMessageClass(pool.FindMessageTypeByName("floe.text.Box"))
    msg = box_class(label="l")
    msg.thing.a = 7
    framed = b"\x00" + struct.pack(">I", box_id) + b"\x00" + msg.SerializeToString()
    out = ProtobufDeserializer(box_class, schema_registry_client=client)(framed, value_ctx("boxes"))
    assert out.label == "l" and out.thing.a == 7


def test_protobuf_known_types_registered_as_references_when_not_skipped(registry, client, event_class):
    ctx = value_ctx("events")
    msg = event_class(name="boot")
    msg.at.seconds = 5
    data = ProtobufSerializer(event_class, client, {"skip.known.types": False})(msg, ctx)
    assert client.get_subjects() == ["events-value", "google/protobuf/timestamp.proto"]
    refs = client.get_latest_version("events-value").schema.references
    assert [(r.name, r.subject, r.version) for r in refs] == [
        ("google/protobuf/timestamp.proto", "google/protobuf/timestamp.proto", 1)
    ]
    assert ProtobufDeserializer(event_class, schema_registry_client=client)(data, ctx) == msg


def test_protobuf_missing_reference_is_invalid(registry, client, order_class):
    fd = descriptor_pb2.FileDescriptorProto()
    order_class.DESCRIPTOR.file.CopyToProto(fd)
    b64 = base64.b64encode(fd.SerializeToString()).decode()
    with pytest.raises(SchemaRegistryError) as err:
        client.register_schema("orders-value", Schema(b64, "PROTOBUF"))
    assert (err.value.http_status_code, err.value.error_code) == (422, 42201)


# --------------------------------------------------------------------------- JSON Schema


def test_json_schema_round_trip(registry, client):
    ctx = value_ctx("json-orders")
    serializer = JSONSerializer(ORDER_JSON_SCHEMA, client)
    record = {"id": "o-9", "amount": 12.5, "lines": [1, 2]}
    data = serializer(record, ctx)
    schema_id, payload = split_frame(data)
    assert schema_id == 1
    assert json.loads(payload) == record

    registered = client.get_latest_version("json-orders-value")
    assert registered.schema.schema_type == "JSON"
    # Deserializing with only the registry (writer schema fetched by id) and with a local schema.
    assert JSONDeserializer(None, schema_registry_client=client)(data, ctx) == record
    assert JSONDeserializer(ORDER_JSON_SCHEMA)(data, ctx) == record


# --------------------------------------------------------------------------- registry API


def test_schema_types_config_mode_and_compatibility(registry, client):
    assert sorted(client.get_schema_types()) == ["AVRO", "JSON", "PROTOBUF"]
    assert client.get_compatibility() == "BACKWARD"
    client.set_compatibility(level="FULL")
    assert client.get_compatibility() == "FULL"
    client.register_schema("users-value", Schema(USER_V1, "AVRO"))
    with pytest.raises(SchemaRegistryError) as err:
        client.get_compatibility("users-value")
    assert err.value.error_code == 40408
    client.set_compatibility("users-value", "NONE")
    assert client.get_compatibility("users-value") == "NONE"
    assert client.get_config("users-value").compatibility_level.value == "NONE"
    assert client.test_compatibility("users-value", Schema(USER_V2, "AVRO")) is True
    assert client.test_compatibility("users-value", Schema(USER_V2, "AVRO"), version=1) is True
    assert client.test_compatibility_all_versions("users-value", Schema(USER_V2, "AVRO")) is True
    assert client.get_global_mode() == "READWRITE"
    assert client.update_mode("users-value", "READONLY") == "READONLY"
    assert client.get_mode("users-value") == "READONLY"
    with pytest.raises(SchemaRegistryError) as err:
        client.register_schema("users-value", Schema(USER_V2, "AVRO"))
    assert (err.value.http_status_code, err.value.error_code) == (422, 42205)
    assert client.register_schema("other-value", Schema(USER_V2, "AVRO")) == 2
    assert client.delete_mode("users-value") == "READONLY"
    assert client.update_global_mode("READONLY") == "READONLY"
    with pytest.raises(SchemaRegistryError):
        client.register_schema("users-value", Schema(USER_V2, "AVRO"))
    client.update_global_mode("READWRITE")
    assert client.register_schema("users-value", Schema(USER_V2, "AVRO")) == 2


def test_errors_like_confluent(registry, client):
    with pytest.raises(SchemaRegistryError) as err:
        client.get_latest_version("nope")
    assert (err.value.http_status_code, err.value.error_code) == (404, 40401)
    assert err.value.error_message == "Subject 'nope' not found."

    client.register_schema("users-value", Schema(USER_V1, "AVRO"))
    with pytest.raises(SchemaRegistryError) as err:
        client.get_version("users-value", 7)
    assert (err.value.http_status_code, err.value.error_code) == (404, 40402)
    with pytest.raises(SchemaRegistryError) as err:
        client.get_schema(999)
    assert (err.value.http_status_code, err.value.error_code) == (404, 40403)
    with pytest.raises(SchemaRegistryError) as err:
        client.lookup_schema("users-value", Schema(USER_V2, "AVRO"))
    assert (err.value.http_status_code, err.value.error_code) == (404, 40403)
    for bad in ('{"type": "record", "name": "X"}', "not json", '{"type": "nosuchtype"}'):
        with pytest.raises(SchemaRegistryError) as err:
            client.register_schema("bad-value", Schema(bad, "AVRO"))
        assert (err.value.http_status_code, err.value.error_code) == (422, 42201), bad
    with pytest.raises(SchemaRegistryError) as err:
        client.register_schema("bad-value", Schema("[1, 2]", "JSON"))
    assert err.value.error_code == 42201
    with pytest.raises(SchemaRegistryError) as err:
        client.register_schema("bad-value", Schema('syntax = "proto3"; message M { string a = 1; ', "PROTOBUF"))
    assert err.value.error_code == 42201

    # Raw HTTP: media type and error body shape.
    response = httpx.get(registry.url + "/subjects/nope/versions")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/vnd.schemaregistry.v1+json"
    assert response.json() == {"error_code": 40401, "message": "Subject 'nope' not found."}
    response = httpx.get(registry.url + "/subjects/users-value/versions/latest/schema")
    assert response.json()["name"] == "User"


def test_delete_subject_soft_then_permanent(registry, client):
    client.register_schema("users-value", Schema(USER_V1, "AVRO"))
    client.register_schema("users-value", Schema(USER_V2, "AVRO"))
    assert client.delete_version("users-value", 1) == 1
    assert client.get_versions("users-value") == [2]
    assert client.delete_subject("users-value") == [2]
    assert client.get_subjects() == []
    # Soft-deleted schemas are still readable by id (consumers of old records keep working).
    assert client.get_schema(2).schema_str
    assert client.delete_subject("users-value", permanent=True) == [1, 2]
    with pytest.raises(SchemaRegistryError) as err:
        client.get_versions("users-value")
    assert err.value.error_code == 40401
    # Ids are never reused.
    assert client.register_schema("users-value", Schema('"string"', "AVRO")) == 3


# --------------------------------------------------------------------------- caching, auth, faults


def test_client_caches_schemas(registry, client):
    ctx = value_ctx("users")
    serializer = AvroSerializer(client, USER_V1)
    serializer({"id": 1, "name": "a"}, ctx)
    assert registry.requests_to("POST", "/subjects/users-value/versions") == [
        ("POST", "/subjects/users-value/versions")
    ]
    data = serializer({"id": 2, "name": "b"}, ctx)
    assert len(registry.requests_to("POST", "/subjects/")) == 1

    reader_client = SchemaRegistryClient({"url": registry.url})
    deserializer = AvroDeserializer(reader_client)
    registry.clear_request_log()
    for _ in range(3):
        deserializer(data, ctx)
    assert registry.requests_to("GET", "/schemas/ids/") == [("GET", "/schemas/ids/1")]


def test_basic_auth():
    with SchemaRegistry(basic_auth=("floe", "s3cret")) as reg:
        good = SchemaRegistryClient({"url": reg.url, "basic.auth.user.info": "floe:s3cret"})
        data = AvroSerializer(good, USER_V1)({"id": 1, "name": "a"}, value_ctx("users"))
        assert AvroDeserializer(good)(data, value_ctx("users")) == {"id": 1, "name": "a"}

        for conf in ({"basic.auth.user.info": "floe:wrong"}, {}):
            bad = SchemaRegistryClient({"url": reg.url, **conf})
            with pytest.raises(SchemaRegistryError) as err:
                bad.get_subjects()
            assert (err.value.http_status_code, err.value.error_code) == (401, 401)
            assert err.value.error_message == "Unauthorized"

        # Credentials in the URL work too (the client turns them into basic auth).
        host = reg.url.replace("http://", "http://floe:s3cret@")
        assert SchemaRegistryClient({"url": host}).get_subjects() == ["users-value"]


def test_bearer_token():
    with SchemaRegistry(bearer_token="tok-123") as reg:

        def bearer_client(token):
            return SchemaRegistryClient(
                {
                    "url": reg.url,
                    "bearer.auth.credentials.source": "STATIC_TOKEN",
                    "bearer.auth.token": token,
                    "bearer.auth.logical.cluster": "lsrc-test",
                }
            )

        assert bearer_client("tok-123").register_schema("users-value", Schema(USER_V1, "AVRO")) == 1
        with pytest.raises(SchemaRegistryError) as err:
            bearer_client("nope").get_subjects()
        assert err.value.http_status_code == 401


def test_set_down_makes_the_client_raise_and_recovery(registry):
    client = SchemaRegistryClient({"url": registry.url, "max.retries": 0})
    ctx = value_ctx("users")
    data = AvroSerializer(client, USER_V1)({"id": 1, "name": "a"}, ctx)
    deserializer = AvroDeserializer(client)
    assert deserializer(data, ctx) == {"id": 1, "name": "a"}

    registry.set_down(True)
    with pytest.raises(SchemaRegistryError) as err:
        client.get_subjects()
    assert err.value.http_status_code == 503
    # A new (uncached) client cannot resolve the schema id.
    cold = AvroDeserializer(SchemaRegistryClient({"url": registry.url, "max.retries": 0}))
    with pytest.raises(SchemaRegistryError):
        cold(data, ctx)
    # Cached schemas keep working while the registry is down.
    assert deserializer(data, ctx) == {"id": 1, "name": "a"}
    assert ("GET", "/subjects") in registry.request_log

    registry.set_down(True, mode="close")
    with pytest.raises(httpx.TransportError):
        client.get_subjects()

    registry.set_down(False)
    assert client.get_subjects() == ["users-value"]


def test_stopped_registry_refuses_connections_and_restarts_on_same_port(registry):
    client = SchemaRegistryClient({"url": registry.url, "max.retries": 0})
    client.register_schema("users-value", Schema(USER_V1, "AVRO"))
    port = registry.port
    registry.stop()
    with pytest.raises(httpx.TransportError):
        client.get_subjects()
    registry.start()
    assert registry.port == port
    assert client.get_subjects() == ["users-value"]


def test_cli_serves_until_killed():
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.integration.fixtures.schema_registry", "--port", "0"],
        cwd=str(REPO_ROOT),
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert "listening on http://127.0.0.1:" in line, line
        url = line.strip().rsplit(" ", 1)[-1]
        client = SchemaRegistryClient({"url": url})
        assert client.register_schema("demo-value", Schema(USER_V1, "AVRO")) == 1
        assert client.get_subjects() == ["demo-value"]
    finally:
        proc.terminate()
        assert proc.wait(timeout=10) == 0
