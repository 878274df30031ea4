"""Soak (issue 19, docs/reliability.md): two `floe run` workers in one consumer group (static
membership) write one topic to Iceberg and Delta (formats: [iceberg, delta]) through the built-in
catalog on PostgreSQL while records keep arriving. One of the two, chosen at random, is killed with
SIGKILL at a random moment and restarted at once, FLOE_SOAK_KILLS times (default 5; the issue's
soak run is FLOE_SOAK_KILLS=100); a third of the way through the broker restarts, two thirds of the
way the catalog database restarts. Afterwards both tables hold every acknowledged record exactly
once, and their committed offsets are the topic's end offsets. The numbers (kills, rebalances,
restarts, records, duplicates, lost, duration) are printed for docs/reliability.md (run with -s)."""
import os
import random
import re
import threading
import time
import uuid

import pytest
from deltalake import DeltaTable

from tests.integration.fixtures.exactly_once import end_offsets, read_rows
from tests.integration.fixtures.postgres import PostgresServer
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.worker_group import PgFloeRun, table_offsets
from tests.integration.test_pipeline_avro import ORDER, order
from tests.integration.test_pipeline_delta import txn_offsets

KILLS = int(os.environ.get("FLOE_SOAK_KILLS", "5"))
PARTITIONS = 4
RATE = 150  # records per second, round-robin over the partitions
pytestmark = pytest.mark.timeout(600 + KILLS * 20)


@pytest.fixture(scope="module")
def postgres(tmp_path_factory):
    with PostgresServer(tmp_path_factory.mktemp("postgres")) as pg:
        yield pg


class SteadyProducer(threading.Thread):
    """Produces Avro orders at RATE per second until stopped; idempotent, so a broker restart
    cannot write a record twice. `sent`: (partition, offset) -> id, once flushed."""

    def __init__(self, kafka, registry_url, topic):
        super().__init__(daemon=True)
        self.producer = RecordProducer(kafka.bootstrap, registry_url, **{"enable.idempotence": True})
        self.serializer = self.producer.serializer(ORDER)
        self.topic = topic
        self.stopping = threading.Event()
        self.sent = None

    def run(self):
        i = 0
        started = time.monotonic()
        while not self.stopping.is_set():
            self.producer.send_avro(self.topic, self.serializer, order(i), partition=i % PARTITIONS, sent=i)
            i += 1
            ahead = i / RATE - (time.monotonic() - started)
            if ahead > 0:
                time.sleep(ahead)
        self.sent = self.producer.flush()

    def finish(self):
        self.stopping.set()
        self.join(180)
        assert self.sent is not None, "the producer did not finish"
        return self.sent


def restart_fenced(workers, self_exits, when):
    """Starts again a worker that exited by itself. Only one way out is expected: librdkafka's
    fatal error when the coordinator fenced this static member (a request of its previous session
    answered after it rejoined, seen after the broker restart): floe run exits 1 and its supervisor
    (systemd, Kubernetes) starts it again; so does this test."""
    for w in workers:
        if w.proc.poll() is None:
            continue
        assert w.proc.returncode == 1 and "kafka consumer failed for good" in w.log_tail(), \
            f"worker exited {w.proc.returncode}:\n{w.log_tail()}"
        self_exits.append(when)
        w.start()


def count_lines(workers, pattern):
    regex = re.compile(pattern)
    total = 0
    for w in workers:
        for log in w.workdir.glob("floe-*.log"):
            total += sum(1 for line in log.read_text(errors="replace").splitlines() if regex.search(line))
    return total


def test_random_kill_9s_broker_and_catalog_restarts_exactly_once(kafka, schema_registry, floe_bin, postgres,
                                                                  tmp_path):
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    print(f"\nsoak: {KILLS} kills, seed {seed}")
    topic = f"soak-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=PARTITIONS)
    uri = postgres.database_uri(f"soak_{topic[-8:]}")
    warehouse = tmp_path / "warehouse"
    warehouse.mkdir()
    workers = []
    for name in ("a", "b"):
        w = PgFloeRun(floe_bin, tmp_path / name, kafka.bootstrap,
                      [{"name": topic, "table": "kafka.soak", "formats": ["iceberg", "delta"]}],
                      catalog_uri=uri, warehouse_dir=warehouse, registry_url=schema_registry.url,
                      group_id=f"g-{topic}", defaults={"commit_interval": "1s"})
        w.config["kafka"]["properties"] = {}  # Floe's own consumer defaults
        w.config["kafka"]["instance_id"] = f"{topic}-{name}"
        workers.append(w)
    producing = SteadyProducer(kafka, schema_registry.url, topic)
    started = time.monotonic()
    producing.start()
    for w in workers:
        w.start()
    broker_restart_at, catalog_restart_at = KILLS // 3, (2 * KILLS) // 3
    events, self_exits = [], []
    try:
        for k in range(KILLS):
            time.sleep(rng.uniform(0.5, 3.0))
            if k == broker_restart_at:
                kafka.restart()
                events.append(f"broker restarted before kill {k + 1}")
            if k == catalog_restart_at:
                postgres.stop(mode="immediate")
                time.sleep(2)
                postgres.start()
                events.append(f"catalog database restarted before kill {k + 1}")
            victim = rng.choice(workers)
            restart_fenced(workers, self_exits, f"before kill {k + 1}")
            victim.kill()
            victim.start()
        sent = producing.finish()
        want = end_offsets(sent)
        want_delta = {f"floe:{topic}:{p}": o for p, o in end_offsets(sent).items()}
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            restart_fenced(workers, self_exits, "after the kills")
            try:
                if (table_offsets(workers[0].table("kafka.soak"), topic) == want
                        and txn_offsets(warehouse / "kafka" / "soak") == want_delta):
                    break
            except Exception:  # a catalog hiccup while reading, a log file being written: try again
                pass
            time.sleep(1)
        assert table_offsets(workers[0].table("kafka.soak"), topic) == want, workers[0].log_tail() + workers[1].log_tail()
        assert txn_offsets(warehouse / "kafka" / "soak") == want_delta
    finally:
        producing.stopping.set()
        for w in workers:
            assert w.stop() == 0, w.log_tail()
    duration = time.monotonic() - started

    iceberg = read_rows(workers[0], "kafka.soak")  # asserts no (partition, offset) twice
    delta = {}
    duplicates = 0
    for row in DeltaTable(str(warehouse / "kafka" / "soak")).to_pyarrow_table().to_pylist():
        key = (row["_kafka"]["partition"], row["_kafka"]["offset"])
        duplicates += key in delta
        delta[key] = row
    lost_iceberg = set(sent) - set(iceberg)
    lost_delta = set(sent) - set(delta)
    rebalances = count_lines(workers, r"kafka: (assigned|revoked|lost) ")
    print(f"soak: kills {KILLS}, restarts {KILLS} (+ broker and catalog database once each: {events}), "
          f"rebalance callbacks {rebalances}, fatal fencing exits restarted {len(self_exits)} {self_exits}, records {len(sent)}, duplicates 0/{duplicates} (iceberg/delta), "
          f"lost {len(lost_iceberg)}/{len(lost_delta)}, extra {len(set(iceberg) - set(sent))}/"
          f"{len(set(delta) - set(sent))}, duration {duration:.0f} s")
    assert not lost_iceberg and not lost_delta and duplicates == 0
    assert set(iceberg) == set(sent) and set(delta) == set(sent)
    assert all(iceberg[k]["id"] == i and delta[k]["id"] == i for k, i in sent.items())
