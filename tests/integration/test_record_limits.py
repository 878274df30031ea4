"""Record size and nesting limits (docs/errors.md, "Record limits"; issue 19, hostile input):
a 100 MiB record and 10k-deep nesting are bad records for the topic's error_mode, never an
out-of-memory, a stack overflow or a stalled partition. Three topics, good records around the
hostile ones:
- JSON (value: json): a 100 MiB record (over max_record_size, 32 MiB by default; the topic allows
  110 MiB records), an object and an array nested 10,000 deep (over simdjson's 1024);
- Avro: a recursive schema (a linked list) with a 10,000-deep record, and a schema whose arrays
  nest 300 deep (over the parser's 128);
- Protobuf: a recursive message 10,000 deep, between records of another message.
One `floe run` per error mode (skip, dlq) reads all three; each takes ~20 s with the ASan build
(most of it producing and fetching the 100 MiB record twice)."""
import json
import shutil
import struct
import uuid

import pytest
from confluent_kafka import Consumer
from confluent_kafka.schema_registry import Schema

from tests.integration.fixtures.exactly_once import read_rows
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer

pytestmark = pytest.mark.skipif(shutil.which("protoc") is None, reason="protoc not installed (make deps installs it)")

BIG = 100 << 20
DEEP = 10_000
MAX_MESSAGE = 110 << 20  # the topics' max.message.bytes: the broker must take the 100 MiB record

ITEM = {"type": "record", "name": "Item", "namespace": "floe.limits", "fields": [{"name": "id", "type": "long"}]}
NODE = {"type": "record", "name": "Node", "namespace": "floe.limits",
        "fields": [{"name": "next", "type": ["null", "Node"]}]}
NODE_PROTO = 'syntax = "proto3";\npackage floe.limits;\nmessage Node { Node child = 1; int64 id = 2; }\n'
ITEM_PROTO = 'syntax = "proto3";\npackage floe.limits;\nmessage Item { int64 id = 1; }\n'


def deep_arrays(levels):
    schema = "long"
    for _ in range(levels):
        schema = {"type": "array", "items": schema}
    return {"type": "record", "name": "Deep", "namespace": "floe.limits", "fields": [{"name": "a", "type": schema}]}


def framed(schema_id, payload):
    return b"\x00" + struct.pack(">I", schema_id) + payload


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def nested_proto(levels):
    inner = b"\x10\x01"  # id = 1 at the bottom
    for _ in range(levels):
        inner = b"\x0a" + varint(len(inner)) + inner
    return inner


@pytest.fixture(scope="module")
def topics(kafka, schema_registry):
    """Produces the three topics once; returns {topic: [(offset, expected rule text) of each bad record]}
    and the number of good records per topic."""
    suffix = uuid.uuid4().hex[:8]
    names = {"json": f"limits-json-{suffix}", "avro": f"limits-avro-{suffix}", "proto": f"limits-proto-{suffix}"}
    for name in names.values():
        kafka.create_topic(name, partitions=1, config={"max.message.bytes": str(MAX_MESSAGE)})
    producer = RecordProducer(kafka.bootstrap, schema_registry.url, **{"message.max.bytes": str(MAX_MESSAGE)})
    registry = producer.registry
    bad = {}

    # JSON: 2 good, the 100 MiB record, a deep object, a deep array, 2 good.
    t = names["json"]
    big = b'{"id": 100, "pad": "' + b"x" * (BIG - 30) + b'"}'
    assert len(big) >= BIG - 10
    values = [b'{"id": 0}', b'{"id": 1}', big,
              b'{"id": 101, "deep": ' + b'{"a": ' * DEEP + b"1" + b"}" * DEEP + b"}",
              b'{"id": 102, "deep": ' + b"[" * DEEP + b"]" * DEEP + b"}",
              b'{"id": 2}', b'{"id": 3}']
    for v in values:
        producer.send_raw(t, v, key=b"k")
        producer.producer.flush(60)  # the 100 MiB record alone in its request
    bad[t] = [(2, "max_record_size"), (3, "too deep"), (4, "too deep")]

    # Avro: good records of Item; a 10k-deep linked list of the recursive Node; a 300-deep array schema.
    t = names["avro"]
    item = producer.serializer(ITEM)
    node_id = registry.register_schema(f"{t}-node", Schema(json.dumps(NODE), "AVRO"))
    deep_id = registry.register_schema(f"{t}-deep", Schema(json.dumps(deep_arrays(300)), "AVRO"))
    producer.send_avro(t, item, {"id": 0})
    producer.send_raw(t, framed(node_id, b"\x02" * DEEP + b"\x00"))
    producer.send_raw(t, framed(deep_id, b"\x00"))
    producer.send_avro(t, item, {"id": 1})
    bad[t] = [(1, "recursive"), (2, "deeper than 128")]

    # Protobuf: a 10k-deep record of the recursive Node (message index [0]) between good Items.
    t = names["proto"]
    proto_id = registry.register_schema(f"{t}-value", Schema(NODE_PROTO, "PROTOBUF"))
    item_id = registry.register_schema(f"{t}-item", Schema(ITEM_PROTO, "PROTOBUF"))
    producer.send_raw(t, framed(item_id, b"\x00\x08\x07"))
    producer.send_raw(t, framed(proto_id, b"\x00" + nested_proto(DEEP)))
    producer.send_raw(t, framed(item_id, b"\x00\x08\x08"))
    bad[t] = [(1, "recursive")]
    producer.flush()
    return names, bad, {names["json"]: 4, names["avro"]: 2, names["proto"]: 2}


def run(floe_bin, tmp_path, kafka, schema_registry, names, topic_extra):
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": names["json"], "value": "json", **topic_extra},
                    {"name": names["avro"], **topic_extra}, {"name": names["proto"], **topic_extra}],
                   registry_url=schema_registry.url, group_id=f"limits-{uuid.uuid4().hex[:8]}")
    result = floe.run_batch(timeout=300)
    assert result.returncode == 0, result.stderr[-4000:]
    return floe, result


def check_tables(floe, names, good):
    for topic in names.values():
        rows = read_rows(floe, "kafka." + topic.replace("-", "_"))
        assert len(rows) == good[topic], (topic, rows.keys())
    json_rows = read_rows(floe, "kafka." + names["json"].replace("-", "_"))
    assert sorted(json.loads(r["id"]) if isinstance(r["id"], str) else r["id"] for r in json_rows.values()) == [0, 1, 2, 3]


def test_skip_mode_skips_the_huge_and_the_deep_records(kafka, schema_registry, floe_bin, tmp_path, topics):
    names, bad, good = topics
    floe, result = run(floe_bin, tmp_path, kafka, schema_registry, names, {"error_mode": "skip"})
    check_tables(floe, names, good)
    for topic, records in bad.items():
        for offset, rule in records:
            line = next((l for l in result.stderr.splitlines() if f"skipped {topic}/0@{offset}" in l), None)
            assert line is not None, result.stderr[-4000:]
            assert rule in line, line[:500]
    assert f"{sum(len(r) for r in bad.values())} skipped" in result.stdout
    assert len(result.stderr) < 1 << 20  # no record is quoted whole in the log


def test_dlq_mode_dead_letters_them_the_huge_one_without_its_value(kafka, schema_registry, floe_bin, tmp_path, topics):
    names, bad, good = topics
    dlq = f"limits-dlq-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(dlq, partitions=1)  # the default 1 MB limit: the 100 MiB value could not go there
    floe, result = run(floe_bin, tmp_path, kafka, schema_registry, names, {"error_mode": "dlq", "dlq_topic": dlq})
    check_tables(floe, names, good)
    consumer = Consumer({"bootstrap.servers": kafka.bootstrap, "group.id": f"check-{uuid.uuid4().hex}",
                         "auto.offset.reset": "earliest"})
    consumer.subscribe([dlq])
    letters = []
    expected = sum(len(r) for r in bad.values())
    for _ in range(120):
        msg = consumer.poll(1.0)
        if msg is not None and msg.error() is None:
            letters.append(msg)
        if len(letters) == expected:
            break
    consumer.close()
    assert len(letters) == expected
    by_origin = {}
    for m in letters:
        h = {k: v for k, v in (m.headers() or [])}
        by_origin[(h["floe.error.topic"].decode(), int(h["floe.error.offset"]))] = (m, h)
    for topic, records in bad.items():
        for offset, rule in records:
            m, h = by_origin[(topic, offset)]
            assert rule in h["floe.error.reason"].decode()
    huge, h = by_origin[(names["json"], 2)]
    assert huge.value() is None and huge.key() is None
    assert int(h["floe.error.dropped_bytes"]) >= BIG - 10
    deep, _ = by_origin[(names["json"], 3)]
    assert deep.value().count(b'{"a": ') == DEEP  # small enough: dead-lettered as it was
