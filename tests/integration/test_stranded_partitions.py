"""Partitions stranded by a static member restarted between the two rounds of a cooperative
rebalance (src/floe/kafka/stranded_partitions.h, docs/reliability.md "Static membership").

Worker a owns all four partitions; worker b joins, so a gives up two of them in the first round
and must rejoin to start the second, which would hand them to b. a is killed with SIGKILL right
after it gave them up and started again under the same kafka.instance_id: the coordinator hands
it its last assignment without a rebalance, and nobody owns the two partitions. Floe's group watch
sees them without an owner in the stable group, makes the group rebalance with a brief second
member, and every record reaches the table exactly once."""
import time
import uuid

from tests.integration.fixtures.exactly_once import BackgroundProducer, assert_exactly_once, end_offsets
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.worker_group import status_of
from tests.integration.test_pipeline_avro import ORDER, order

STRANDED_LINE = "have had no owner"


def wait_for_line(worker, text, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in worker.log_path.read_text(errors="replace"):
            return True
        time.sleep(0.005)  # the kill has to land between the revoke and the rejoin
    return False


def logs(worker):
    return "".join(p.read_text(errors="replace") for p in sorted(worker.workdir.glob("floe-*.log")))


def test_static_member_killed_between_cooperative_rounds_strands_nothing(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"strand-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=4)
    producing = BackgroundProducer(kafka, schema_registry.url, topic, 4, 4000, 20, lambda p: p.serializer(ORDER), order)
    topics = [{"name": topic, "table": "kafka.strand"}]
    common = dict(registry_url=schema_registry.url, group_id=f"g-{topic}", defaults={"commit_interval": "1s"},
                  admin=True)
    a = FloeRun(floe_bin, tmp_path / "a", kafka.bootstrap, topics, **common)
    b = FloeRun(floe_bin, tmp_path / "b", kafka.bootstrap, topics, **common)
    b.config["warehouse"] = a.config["warehouse"]  # one table: one warehouse and catalog
    b.config["catalog"] = a.config["catalog"]
    for name, worker in (("a", a), ("b", b)):
        worker.config["kafka"]["properties"] = {}  # Floe's own consumer defaults (session 10 s)
        worker.config["kafka"]["instance_id"] = f"{topic}-{name}"
    producing.start()
    a.start()
    try:
        assert wait_for_line(a, "kafka: assigned", 60), a.log_tail()
        assert wait_for_line(a, "committed", 60), a.log_tail()
        b.start()
        assert wait_for_line(a, "kafka: revoked", 60), a.log_tail() + b.log_tail()
        a.kill()
        a.start()  # within the session timeout: a static rejoin, no rebalance
        producing.join(120)
        assert producing.sent is not None
        want = {topic: end_offsets(producing.sent)}
        assert a.wait_for_offsets("kafka.strand", want) == want, logs(a) + logs(b)
        # /status counts the rebalances the watch made (the worker that probed is either one).
        assert sum(status_of(w)["kafka"]["stranded_partition_rebalances"] for w in (a, b)) >= 1
    finally:
        assert b.stop() == 0, b.log_tail()
        assert a.stop() == 0, a.log_tail()
    assert_exactly_once(a, "kafka.strand", producing.sent)
    # The partitions were stranded and the watch healed them (the kill landed between the rounds;
    # had it not, the test proves nothing, so it says so).
    said = [line for w in (a, b) for line in logs(w).splitlines() if STRANDED_LINE in line]
    assert said, "the kill did not land between the two rounds:\n" + logs(a) + logs(b)
    assert f"{topic}/" in said[0] and f"group g-{topic}" in said[0], said
    assert "kafka rebalance probe: joined group" in logs(a) + logs(b)
