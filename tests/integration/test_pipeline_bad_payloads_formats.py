"""Malformed Protobuf and JSON Schema payloads under each error mode (issue #13, like
test_pipeline_errors.py for Avro). Each kind of bad record sits on its own topic between good
records produced by the real ProtobufSerializer / JSONSerializer (5 good, the bad one at offset
5, 5 good): a truncated varint in the message and in the message-index array, a message index
beyond the file's messages (top-level and nested), an unknown schema id, invalid UTF-8 in a
Protobuf string field; JSON of the wrong type, without a required property, not JSON at all, with
invalid UTF-8, and an unknown schema id. One `floe run` takes all of them per error mode:
- skip: every good record lands exactly once, each bad one is logged with its
  topic/partition@offset and the rule broken, and counted in the run's summary;
- dlq: the same, and each bad record is on the dead-letter topic unchanged, with its key, its
  own headers and the floe.error.* headers;
- suspend: each topic stops at its bad record with the good records before it committed and the
  offsets stopped there; switched to skip, a rerun continues exactly where the table stopped."""
import shutil
import struct
import time
import uuid

import pytest
from confluent_kafka import Consumer
from confluent_kafka.serialization import MessageField, SerializationContext

from tests.integration.fixtures.exactly_once import read_rows
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.protobuf import message_classes

pytestmark = pytest.mark.skipif(shutil.which("protoc") is None, reason="protoc not installed (make deps installs it)")

READING_PROTO = """syntax = "proto3";
package floe.bad;
message Reading {
  message Inner { int32 x = 1; }
  int64 id = 1;
  string label = 2;
  Inner inner = 3;
}
message Other { int64 id = 1; }
"""
READING_JSON = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Reading",
    "type": "object",
    "properties": {"id": {"type": "integer"}, "label": {"type": "string"}},
    "required": ["id", "label"],
}
UNKNOWN_ID = 987654
GOOD_BEFORE, GOOD_AFTER = 5, 5
BAD_OFFSET = GOOD_BEFORE


def framed(schema_id: int, payload: bytes) -> bytes:
    return b"\x00" + struct.pack(">I", schema_id) + payload


# (kind, bad value from the schema id of the good records, text the error must contain).
# A Protobuf payload after the schema id: the message-index array (b"\x00" is [0]; otherwise a
# zig-zag count and zig-zag indexes), then the message: field 1 (id) is tag 0x08, field 2
# (label) is tag 0x12.
PROTOBUF_BAD = [
    ("truncated-varint", lambda sid: framed(sid, b"\x00" + b"\x08\xff"), "truncated varint"),
    ("truncated-index", lambda sid: framed(sid, b"\x02\x80"), "truncated varint"),
    ("index-beyond", lambda sid: framed(sid, b"\x02\x0a" + b"\x08\x05"), "message indexes [5] name no message"),
    ("nested-index-beyond", lambda sid: framed(sid, b"\x04\x00\x04" + b"\x08\x05"),
     "message indexes [0, 2] name no message"),
    ("unknown-id", lambda sid: framed(UNKNOWN_ID, b"\x00" + b"\x08\x05"), str(UNKNOWN_ID)),
    ("invalid-utf8", lambda sid: framed(sid, b"\x00" + b"\x08\x05" + b"\x12\x02\xc3\x28"), "not valid UTF-8"),
]
JSON_BAD = [
    ("wrong-type", lambda sid: framed(sid, b'{"id": "five", "label": "x"}'), "$.id"),
    ("missing-required", lambda sid: framed(sid, b'{"id": 5}'), "$.label"),
    ("not-json", lambda sid: framed(sid, b'{"id": 5, "label": '), "invalid JSON"),
    ("invalid-utf8", lambda sid: framed(sid, b'{"id": 5, "label": "\xc3\x28"}'), "UTF-8"),
    ("unknown-id", lambda sid: framed(UNKNOWN_ID, b'{"id": 5, "label": "x"}'), str(UNKNOWN_ID)),
]


@pytest.fixture(scope="module")
def reading_class():
    return message_classes({"floe/bad/reading.proto": READING_PROTO}, ["floe.bad.Reading"])["floe.bad.Reading"]


class Case:
    """One topic: good records with ids 0..9 around one bad record at offset 5."""

    def __init__(self, value_format: str, kind: str, make_bad, hint: str):
        self.value_format, self.kind, self.make_bad, self.hint = value_format, kind, make_bad, hint
        self.topic = f"bad-{value_format.replace('_', '')}-{kind}-{uuid.uuid4().hex[:6]}"
        self.table = "kafka." + self.topic.replace("-", "_")
        self.bad = None

    def produce(self, kafka, producer, serializer, record):
        kafka.create_topic(self.topic, partitions=1)
        good = serializer(record(0), SerializationContext(self.topic, MessageField.VALUE))
        schema_id = struct.unpack(">I", good[1:5])[0]
        self.bad = self.make_bad(schema_id)
        for i in range(GOOD_BEFORE):
            producer.send_avro(self.topic, serializer, record(i), key=f"k{i}")
        producer.send_raw(self.topic, self.bad, key=b"bad", headers=[("origin", b"test")])
        for i in range(GOOD_BEFORE, GOOD_BEFORE + GOOD_AFTER):
            producer.send_avro(self.topic, serializer, record(i), key=f"k{i}")

    def config(self, error_mode: str, dlq: str | None) -> dict:
        entry = {"name": self.topic, "table": self.table, "value": self.value_format, "error_mode": error_mode}
        if dlq:
            entry["dlq_topic"] = dlq
        return entry


def produce_cases(kafka, registry_url, reading_class) -> list:
    producer = RecordProducer(kafka.bootstrap, registry_url)
    pb = producer.protobuf_serializer(reading_class)
    js = producer.json_serializer(READING_JSON)
    cases = []
    for kind, make_bad, hint in PROTOBUF_BAD:
        case = Case("protobuf", kind, make_bad, hint)
        case.produce(kafka, producer, pb, lambda i: reading_class(id=i, label=f"label {i}"))
        cases.append(case)
    for kind, make_bad, hint in JSON_BAD:
        case = Case("json_schema", kind, make_bad, hint)
        case.produce(kafka, producer, js, lambda i: {"id": i, "label": f"label {i}"})
        cases.append(case)
    producer.flush()
    return cases


def assert_all_good_records_once(floe, case):
    rows = read_rows(floe, case.table)  # fails on a duplicate (partition, offset)
    want = {(0, i if i < GOOD_BEFORE else i + 1): i for i in range(GOOD_BEFORE + GOOD_AFTER)}
    assert {k: r["id"] for k, r in rows.items()} == want, case.topic
    assert all(r["label"] == f"label {r['id']}" for r in rows.values()), case.topic
    assert floe.committed_offsets(case.table) == {case.topic: {0: GOOD_BEFORE + 1 + GOOD_AFTER}}


def line_naming(stderr: str, prefix: str, case) -> str:
    position = f"{case.topic}/0@{BAD_OFFSET}"
    lines = [l for l in stderr.splitlines() if prefix in l and position in l]
    assert len(lines) == 1, (case.kind, lines, stderr[-3000:])
    return lines[0]


def consume_all(kafka, topic: str, n: int) -> list:
    consumer = Consumer({"bootstrap.servers": kafka.bootstrap, "group.id": f"check-{uuid.uuid4().hex}",
                         "auto.offset.reset": "earliest"})
    consumer.subscribe([topic])
    got = []
    deadline = time.monotonic() + 30
    while len(got) < n and time.monotonic() < deadline:
        msg = consumer.poll(0.5)
        if msg is not None and msg.error() is None:
            got.append(msg)
    # Nothing more than n: another short poll finds no extra record.
    extra = consumer.poll(1.0)
    consumer.close()
    assert extra is None or extra.error() is not None, "more dead letters than bad records"
    return got


@pytest.mark.parametrize("error_mode", ["skip", "dlq", "suspend"])
def test_malformed_payloads_under_each_error_mode(kafka, schema_registry, floe_bin, tmp_path, reading_class,
                                                 error_mode):
    cases = produce_cases(kafka, schema_registry.url, reading_class)
    dlq = None
    if error_mode == "dlq":
        dlq = f"bad-dlq-{uuid.uuid4().hex[:8]}"
        kafka.create_topic(dlq, partitions=1)
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [c.config(error_mode, dlq) for c in cases],
                   registry_url=schema_registry.url, group_id=f"g-bad-{error_mode}-{uuid.uuid4().hex[:6]}")
    result = floe.run_batch()

    if error_mode == "skip":
        assert result.returncode == 0, result.stderr[-3000:]
        assert f"{len(cases)} skipped, 0 dead-lettered" in result.stdout, result.stdout
        for case in cases:
            assert case.hint in line_naming(result.stderr, "skipped ", case), case.kind
            assert_all_good_records_once(floe, case)

    elif error_mode == "dlq":
        assert result.returncode == 0, result.stderr[-3000:]
        assert f"0 skipped, {len(cases)} dead-lettered" in result.stdout, result.stdout
        for case in cases:
            assert case.hint in line_naming(result.stderr, "dead-lettered ", case), case.kind
            assert_all_good_records_once(floe, case)
        letters = {}
        for msg in consume_all(kafka, dlq, len(cases)):
            headers = dict(msg.headers())
            letters[headers["floe.error.topic"].decode()] = (msg, headers)
        assert sorted(letters) == sorted(c.topic for c in cases)
        for case in cases:
            msg, headers = letters[case.topic]
            assert msg.value() == case.bad and msg.key() == b"bad", case.kind
            assert headers["origin"] == b"test"
            assert headers["floe.error.partition"] == b"0"
            assert headers["floe.error.offset"] == str(BAD_OFFSET).encode()
            assert case.hint in headers["floe.error.reason"].decode(), (case.kind, headers["floe.error.reason"])

    else:
        assert result.returncode == 3, result.stderr[-3000:]
        for case in cases:
            line = line_naming(result.stderr, "suspended topic ", case)
            assert f"suspended topic {case.topic} at" in line and case.hint in line, (case.kind, line)
            rows = read_rows(floe, case.table)
            assert sorted((k, r["id"]) for k, r in rows.items()) == [((0, i), i) for i in range(GOOD_BEFORE)]
            assert floe.committed_offsets(case.table) == {case.topic: {0: BAD_OFFSET}}
        # The operator switches to skip: the rerun goes on from the bad records, losing and
        # duplicating nothing.
        for entry in floe.config["topics"]:
            entry["error_mode"] = "skip"
        result = floe.run_batch()
        assert result.returncode == 0, result.stderr[-3000:]
        assert f"{len(cases)} skipped" in result.stdout, result.stdout
        for case in cases:
            assert_all_good_records_once(floe, case)
