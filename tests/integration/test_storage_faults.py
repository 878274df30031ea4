"""Object storage faults (issue #14): the S3 warehouse answering 503 SlowDown for a while, and
going away entirely (connections refused) and coming back, while records keep arriving and
`floe run` commits both formats every half second. Floe must wait, retry, lose nothing, write
nothing twice and carry on by itself — and say what happened in its log and /metrics."""
import json
import time
import urllib.request
import uuid

import pytest
from deltalake import DeltaTable

from tests.integration.fixtures.exactly_once import BackgroundProducer, assert_exactly_once, end_offsets
from tests.integration.fixtures.fault_proxy import FaultProxy
from tests.integration.fixtures.s3_server import S3Server
from tests.integration.test_pipeline_avro import ORDER, order
from tests.integration.test_pipeline_s3 import S3FloeRun, delta_storage_options, rows_by_offset


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    with S3Server(tmp_path_factory.mktemp("moto")) as server:
        yield server


def metric_total(admin_url: str, name: str) -> float:
    text = urllib.request.urlopen(f"{admin_url}/metrics", timeout=10).read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name))


def faulty_run(kafka, schema_registry, floe_bin, s3, tmp_path, inject):
    """Produces 3,000 records over 12 s into a 2-partition topic while `floe run` writes
    Iceberg and Delta through the proxy; `inject(proxy)` runs 3 s in and returns once the
    store is healthy again. Then checks both tables hold every record exactly once."""
    bucket = s3.create_bucket()
    topic = f"s3fault-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producing = BackgroundProducer(kafka, schema_registry.url, topic, 2, 3_000, 12,
                                   lambda p: p.serializer(ORDER), order)
    with FaultProxy(s3.port, ignore_conditional=False) as proxy:
        floe = S3FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                         [{"name": topic, "table": "kafka.faults", "formats": ["iceberg", "delta"]}],
                         registry_url=schema_registry.url, group_id=f"g-{topic}", admin=True,
                         defaults={"commit_interval": "500ms"},
                         extra={"warehouse": f"s3://{bucket}/wh",
                                "storage": s3.storage_config(s3.admin_key, endpoint=proxy.endpoint)},
                         s3_server=s3)
        floe.start()
        producing.start()
        time.sleep(3)
        inject(proxy)
        assert floe.proc.poll() is None, f"floe run gave up during the fault:\n{floe.log_tail()}"
        producing.join(120)
        assert producing.sent is not None
        # Still running and catching up by itself: wait for the table to reach the end.
        deadline = time.monotonic() + 120
        while floe.committed_offsets("kafka.faults").get(topic) != end_offsets(producing.sent):
            assert floe.proc.poll() is None, floe.log_tail()
            assert time.monotonic() < deadline, f"not caught up: {floe.committed_offsets('kafka.faults')}"
            time.sleep(0.5)
        retries = metric_total(floe.admin_url, "floe_storage_retries_total")
        with urllib.request.urlopen(f"{floe.admin_url}/status", timeout=10) as answer:
            status = json.load(answer)
        assert floe.stop() == 0
    assert_exactly_once(floe, "kafka.faults", producing.sent)
    delta = rows_by_offset(DeltaTable(f"s3://{bucket}/wh/kafka/faults",
                                      storage_options=delta_storage_options(s3, s3.admin_key))
                           .to_pyarrow_table().to_pylist())
    assert set(delta) == set(producing.sent)
    return proxy, floe, retries, status


def test_503_slow_down_for_ten_seconds_loses_nothing(kafka, schema_registry, floe_bin, s3, tmp_path):
    def slow_down(proxy):
        proxy.fail_for(10)
        time.sleep(10.5)

    proxy, floe, retries, status = faulty_run(kafka, schema_registry, floe_bin, s3, tmp_path, slow_down)
    assert proxy.faulted > 0
    assert retries > 0  # visible to monitoring, not only in the log
    # …and to an operator: /status counts them per store and error, with the latest.
    s3_retries = status["storage_retries"]["s3"]
    # (SlowDown, or "unnamed" for answers that carry no error body, such as a 503 to a HEAD)
    assert s3_retries["total"] > 0 and s3_retries["total"] == sum(s3_retries["by_error"].values())
    assert s3_retries["last_error"] in s3_retries["by_error"] and s3_retries["seconds_since_last"] >= 0
    assert "retrying with backoff" in floe.log_tail(400)


def test_store_unreachable_then_back_loses_nothing(kafka, schema_registry, floe_bin, s3, tmp_path):
    def outage(proxy):
        proxy.stop_listening()
        time.sleep(10)
        proxy.start_listening()

    proxy, floe, retries, _ = faulty_run(kafka, schema_registry, floe_bin, s3, tmp_path, outage)
    assert retries > 0
