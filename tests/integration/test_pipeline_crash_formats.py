"""Exactly-once under crashes for Protobuf and JSON Schema topics (issue #13, like
test_pipeline_crash.py for Avro): while the real ProtobufSerializer / JSONSerializer keep
producing, `floe run` is killed with SIGKILL at random moments and restarted; a final batch run
catches up. The table then holds every acknowledged (partition, offset) exactly once, with the
values produced there, and its committed offsets are the topic's end offsets."""
import datetime as dt
import shutil
import uuid

import pytest

from tests.integration.fixtures.exactly_once import (BackgroundProducer, assert_exactly_once, end_offsets,
                                                     crash_while_producing)
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.protobuf import message_classes

EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
EVENT_PROTO = """syntax = "proto3";
package floe.crash;
import "google/protobuf/timestamp.proto";
message Event {
  int64 id = 1;
  string name = 2;
  double amount = 3;
  repeated string tags = 4;
  google.protobuf.Timestamp at = 5;
}
"""
EVENT_JSON = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Event",
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "amount": {"type": "number"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "at": {"type": "string", "format": "date-time"},
    },
    "required": ["id", "name", "amount"],
}


def expected(i: int) -> dict:
    return {"name": f"event-{i % 31}-é", "amount": i / 8, "tags": [f"t{j}" for j in range(i % 3)],
            "at": EPOCH + dt.timedelta(seconds=i)}


def protobuf_format():
    cls = message_classes({"floe/crash/event.proto": EVENT_PROTO}, ["floe.crash.Event"])["floe.crash.Event"]

    def record(i):
        want = expected(i)
        msg = cls(id=i, name=want["name"], amount=want["amount"], tags=want["tags"])
        msg.at.FromDatetime(want["at"])
        return msg
    return (lambda producer: producer.protobuf_serializer(cls)), record


def json_schema_format():
    def record(i):
        want = expected(i)
        return {"id": i, "name": want["name"], "amount": want["amount"], "tags": want["tags"],
                "at": want["at"].isoformat().replace("+00:00", "Z")}
    return (lambda producer: producer.json_serializer(EVENT_JSON)), record


FORMATS = {"protobuf": protobuf_format, "json_schema": json_schema_format}


@pytest.mark.parametrize("value_format", [
    pytest.param("protobuf", marks=pytest.mark.skipif(shutil.which("protoc") is None, reason="protoc not installed")),
    "json_schema",
])
def test_kill_9_at_random_moments_then_restart(kafka, schema_registry, floe_bin, tmp_path, value_format):
    topic = f"crash-{value_format.replace('_', '')}-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=3)
    serializer, record = FORMATS[value_format]()
    producing = BackgroundProducer(kafka, schema_registry.url, topic, 3, 9_000, 10, serializer, record)
    # Static membership: a restarted process takes its partitions back at once.
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.crash", "value": value_format}],
                   registry_url=schema_registry.url, group_id=f"g-{topic}",
                   defaults={"commit_interval": "300ms"}, kafka_properties={"group.instance.id": f"crash-{topic}"})
    crash_while_producing(floe, producing, 6, 0.8, 2.5)

    rows = assert_exactly_once(floe, "kafka.crash", producing.sent)
    for key, i in producing.sent.items():
        want = expected(i)
        got = rows[key]
        assert (got["name"], got["amount"], got["tags"], got["at"]) == (
            want["name"], want["amount"], want["tags"], want["at"]), (key, got)
    assert floe.committed_offsets("kafka.crash") == {topic: end_offsets(producing.sent)}
    # The kills did happen mid-ingestion: commits from several of the killed processes.
    snapshots = floe.table("kafka.crash").metadata.snapshots
    assert len(snapshots) >= 3, len(snapshots)
