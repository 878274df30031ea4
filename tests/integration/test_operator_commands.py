"""Operating a suspended topic through the admin API (issue #16, docs/admin-api.md "Resume and
skip"): resume once the cause is fixed, skip exactly the record a topic is suspended at, and
the mutating routes' admin.token. A real broker, the test Schema Registry, `floe run` as a
service, and pyiceberg reading the table."""
import io
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest
from fastavro import parse_schema, schemaless_writer

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.test_pipeline_avro import ORDER, order, read_rows

TOKEN = "op-" + uuid.uuid4().hex

# ORDER plus a field with a default: a compatible change (a new optional column).
ORDER_V2 = json.loads(json.dumps(ORDER))
ORDER_V2["fields"].append({"name": "channel", "type": "string", "default": "web"})


def produce_orders(producer, topic, ids, partition=None):
    """ORDER records order(i) for each i of `ids`, keyed k<i>, then flushed."""
    v1 = producer.serializer(ORDER)
    for i in ids:
        producer.send_avro(topic, v1, order(i), key=f"k{i}", partition=partition)
    producer.flush()


def produce_poison(producer, topic, partition=None):
    """One record Floe cannot decode (the Avro payload is cut short)."""
    producer.send_raw(topic, b"\x00\x00\x00\x00\x01\xff\xff\xff", key="poison", partition=partition)
    producer.flush()


def poisoned_topic(kafka, schema_registry, prefix, good):
    """A new one-partition topic: orders 0..good-1, one record Floe cannot decode (at offset
    `good`), then orders good..2*good-1."""
    topic = f"{prefix}-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    produce_orders(producer, topic, range(good))
    produce_poison(producer, topic)
    produce_orders(producer, topic, range(good, 2 * good))
    return topic


def fresh_order_v2() -> dict:
    """ORDER_V2 as a schema this registry has not seen: the registry keeps one id per distinct
    schema for the whole session (other tests register ORDER_V2 itself), and a unique doc makes
    a distinct schema without changing a column."""
    return {**ORDER_V2, "doc": f"variant {uuid.uuid4().hex}"}


def produce_with_unregistered_schema(producer, schema_registry, topic, ids, schema: dict) -> int:
    """Records of `schema` (an ORDER_V2 variant not registered yet, see fresh_order_v2) framed
    with the id the registry will give the next schema it learns, so they are undecodable until
    `schema` is registered; returns that id."""
    probe = schema_registry.register(f"probe-{uuid.uuid4().hex}", json.dumps(
        {"type": "record", "name": "P" + uuid.uuid4().hex[:8], "fields": [{"name": "a", "type": "int"}]}))
    future_id = probe + 1
    for i in ids:
        buf = io.BytesIO()
        schemaless_writer(buf, parse_schema(schema), {**order(i), "channel": "app"})
        producer.send_raw(topic, b"\x00" + future_id.to_bytes(4, "big") + buf.getvalue(), key=f"k{i}")
    producer.flush()
    return future_id


def post(floe, path, body=None, token=TOKEN):
    """(HTTP status, JSON body) of a POST to the admin API."""
    data = json.dumps(body).encode() if body is not None else b""
    request = urllib.request.Request(floe.admin_url + path, data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=90) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def topic_status(floe, topic):
    status = json.loads(urllib.request.urlopen(floe.admin_url + "/status", timeout=5).read())
    return next((t for t in status["topics"] if t["topic"] == topic), None)


def wait_for(condition, what, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError("timed out waiting for " + what)


def wait_suspended(floe, topic, position):
    state = wait_for(lambda: (lambda t: t if t and t["state"] == "suspended" else None)(topic_status(floe, topic)),
                     f"{topic} to be suspended")
    assert state["error"]["position"] == position, state
    return state


def start_floe(floe_bin, kafka, schema_registry, tmp_path, topic, token=TOKEN, **topic_config):
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, **topic_config}],
                   registry_url=schema_registry.url, admin=True)
    if token is not None:
        floe.config["admin"]["token"] = token
    return floe.start()


def ids_of(floe, table):
    return sorted(r["id"] for r in read_rows(floe, table).values())


def test_resume_after_the_missing_schema_is_registered(kafka, schema_registry, floe_bin, tmp_path):
    """A producer wrote with a schema not (yet) in this registry: the topic suspends at that
    record. Resuming before the fix suspends again at the same record; once the compatible
    schema is registered, resume → the rows arrive, every record exactly once."""
    topic = f"resume-{uuid.uuid4().hex[:8]}"
    table = "kafka." + topic.replace("-", "_")
    kafka.create_topic(topic, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    produce_orders(producer, topic, range(10))
    producer_schema = fresh_order_v2()
    future_id = produce_with_unregistered_schema(producer, schema_registry, topic, range(10, 15), producer_schema)

    floe = start_floe(floe_bin, kafka, schema_registry, tmp_path, topic)
    try:
        state = wait_suspended(floe, topic, f"{topic}/0@10")
        assert str(future_id) in state["error"]["reason"]
        wait_for(lambda: floe.committed_offsets(table) == {topic: {0: 10}}, "the first 10 records committed")
        # Nothing fixed yet: resume is accepted, and the same record suspends the topic again.
        status, body = post(floe, f"/topics/{topic}/resume")
        assert status == 200, body
        assert body == {"topic": topic, "resumed_partitions": [0]}
        wait_suspended(floe, topic, f"{topic}/0@10")
        # The fix: the producer's schema is registered (and gets the id the records carry).
        registered = schema_registry.register(f"{topic}-value", json.dumps(producer_schema))
        assert registered == future_id
        status, body = post(floe, f"/topics/{topic}/resume")
        assert status == 200, body
        wait_for(lambda: floe.committed_offsets(table) == {topic: {0: 15}}, "all 15 records committed")
        assert topic_status(floe, topic)["state"] == "running"
        rows = read_rows(floe, table)
        assert ids_of(floe, table) == list(range(15))  # each once
        assert sorted(r.get("channel") for r in rows.values() if r["id"] >= 10) == ["app"] * 5
        # Resuming a running topic is a conflict; an unknown topic is not found.
        assert post(floe, f"/topics/{topic}/resume")[0] == 409
        assert post(floe, "/topics/no-such-topic/resume")[0] == 404
    finally:
        floe.stop()
    assert "resumed topic " + topic in floe.log_path.read_text()


def test_skip_exactly_the_poison_record(kafka, schema_registry, floe_bin, tmp_path):
    """error_mode suspend: a corrupt record at offset 10 suspends the topic. A skip naming
    another offset is refused (naming the suspended one); a skip without or with a wrong token
    is refused; the right skip moves past exactly that record: all others once, and the snapshot
    summary says floe.skipped."""
    topic = poisoned_topic(kafka, schema_registry, "poison", 10)
    table = "kafka." + topic.replace("-", "_")

    floe = start_floe(floe_bin, kafka, schema_registry, tmp_path, topic)
    try:
        wait_suspended(floe, topic, f"{topic}/0@10")
        status, body = post(floe, f"/topics/{topic}/skip", {"partition": 0, "offset": 11})
        assert status == 409, body
        assert f"{topic}/0@10" in body["error"]["message"]
        assert post(floe, f"/topics/{topic}/skip", {"partition": 0, "offset": 10}, token=None)[0] == 401
        assert post(floe, f"/topics/{topic}/skip", {"partition": 0, "offset": 10}, token="wrong")[0] == 401
        assert post(floe, f"/topics/{topic}/skip", {"partition": 0}, token=TOKEN)[0] == 400
        assert topic_status(floe, topic)["state"] == "suspended"  # nothing was changed by those

        status, body = post(floe, f"/topics/{topic}/skip", {"partition": 0, "offset": 10})
        assert status == 200, body
        assert body["topic"] == topic and body["partition"] == 0 and body["offset"] == 10 and body["skipped"]
        wait_for(lambda: floe.committed_offsets(table) == {topic: {0: 21}}, "all 21 offsets committed")
        assert ids_of(floe, table) == list(range(20))  # exactly the poison record is missing
        skipped = [json.loads(s.summary["floe.skipped"]) for s in floe.table(table).snapshots()
                   if s.summary and s.summary.get("floe.skipped")]
        assert skipped == [{topic: {"0": [10]}}]
        # Not suspended any more: a second skip is a conflict.
        assert post(floe, f"/topics/{topic}/skip", {"partition": 0, "offset": 10})[0] == 409
        metrics = urllib.request.urlopen(floe.admin_url + "/metrics", timeout=5).read().decode()
        assert f'floe_records_skipped_total{{topic="{topic}"}} 1' in metrics
        assert f'floe_topic_suspended{{topic="{topic}"}} 0' in metrics
    finally:
        floe.stop()
    log = floe.log_path.read_text()
    assert f"skipped {topic}/0@10 by operator request" in log
    assert TOKEN not in log


def test_mutating_routes_are_off_without_a_token(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"notoken-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    floe = start_floe(floe_bin, kafka, schema_registry, tmp_path, topic, token=None)
    try:
        status, body = post(floe, f"/topics/{topic}/resume", token="anything")
        assert status == 403
        assert "admin.token" in body["error"]["message"]
        assert post(floe, f"/topics/{topic}/skip", {"partition": 0, "offset": 0})[0] == 403
        # GET routes stay open.
        assert urllib.request.urlopen(floe.admin_url + "/status", timeout=5).status == 200
    finally:
        floe.stop()


def test_skip_is_recorded_in_delta_commit_info(kafka, schema_registry, floe_bin, tmp_path):
    """formats: [delta]: the skip lands in the version's commitInfo as floe.skipped; delta-rs
    reads every record but the skipped one, once; the txn versions move past it."""
    from tests.integration.test_pipeline_delta import delta_rows, txn_offsets
    topic = poisoned_topic(kafka, schema_registry, "dpoison", 5)

    floe = start_floe(floe_bin, kafka, schema_registry, tmp_path, topic, table="lake.poison", formats=["delta"])
    path = floe.warehouse_dir / "lake" / "poison"
    try:
        wait_suspended(floe, topic, f"{topic}/0@5")
        status, body = post(floe, f"/topics/{topic}/skip", {"partition": 0, "offset": 5})
        assert status == 200, body
        wait_for(lambda: txn_offsets(path) == {f"floe:{topic}:0": 11}, "every offset committed to Delta")
    finally:
        floe.stop()
    assert sorted(r["id"] for r in delta_rows(path).values()) == list(range(10))
    infos = [json.loads(line)["commitInfo"] for f in sorted((path / "_delta_log").glob("*.json"))
             for line in f.read_text().splitlines() if "commitInfo" in json.loads(line)]
    skipped = [json.loads(i["floe.skipped"]) for i in infos if "floe.skipped" in i]
    assert skipped == [{topic: {"0": [5]}}]


def admin_oauth_token(floe, client_id, secret):
    """An access token from the admin listener's POST /v1/oauth/tokens (client credentials)."""
    form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": client_id,
                                   "client_secret": secret}).encode()
    request = urllib.request.Request(floe.admin_url + "/v1/oauth/tokens", data=form, method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = json.loads(response.read())
    assert body["token_type"].lower() == "bearer" and body["expires_in"] > 0, body
    return body["access_token"]


def test_admin_oauth_clients_read_tokens_cannot_skip_write_tokens_can(kafka, schema_registry, floe_bin, tmp_path,
                                                                       monkeypatch):
    """admin.auth: OAuth2 client credentials on the admin listener, secrets from the environment.
    A read client's token is refused 403 on skip and resume, a made-up one 401, a wrong secret
    gets no token; the write client's token skips the poison record. No secret or token is
    logged."""
    topic = poisoned_topic(kafka, schema_registry, "oauthadm", 5)
    table = "kafka." + topic.replace("-", "_")
    write_secret, read_secret = "w-" + uuid.uuid4().hex, "r-" + uuid.uuid4().hex
    monkeypatch.setenv("FLOE_TEST_ADMIN_WRITE_SECRET", write_secret)
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic}], registry_url=schema_registry.url, admin=True)
    floe.config["admin"]["auth"] = {"token_ttl": "10m", "clients": [
        {"id": "ops", "secret": "${env:FLOE_TEST_ADMIN_WRITE_SECRET}", "scope": "write"},
        {"id": "dashboard", "secret": read_secret, "scope": "read"}]}
    floe.start()
    try:
        wait_suspended(floe, topic, f"{topic}/0@5")
        with pytest.raises(urllib.error.HTTPError) as refused:
            admin_oauth_token(floe, "ops", "wrong")
        assert refused.value.code == 401
        read_token = admin_oauth_token(floe, "dashboard", read_secret)
        status, body = post(floe, f"/topics/{topic}/skip", {"partition": 0, "offset": 5}, token=read_token)
        assert status == 403 and "read-only" in body["error"]["message"], body
        assert post(floe, f"/topics/{topic}/resume", token=read_token)[0] == 403
        assert post(floe, f"/topics/{topic}/skip", {"partition": 0, "offset": 5}, token="made-up")[0] == 401
        assert topic_status(floe, topic)["state"] == "suspended"

        write_token = admin_oauth_token(floe, "ops", write_secret)
        status, body = post(floe, f"/topics/{topic}/skip", {"partition": 0, "offset": 5}, token=write_token)
        assert status == 200, body
        wait_for(lambda: floe.committed_offsets(table) == {topic: {0: 11}}, "all 11 offsets committed")
        assert ids_of(floe, table) == list(range(10))
    finally:
        floe.stop()
    log = floe.log_path.read_text()
    for secret in (write_secret, read_secret, read_token, write_token):
        assert secret not in log
