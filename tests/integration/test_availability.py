"""Availability through worker failures (issue 19, docs/reliability.md): two `floe run` workers in
one consumer group on a 6-partition topic, one warehouse, the built-in catalog on PostgreSQL,
records arriving all the time. One worker is killed with SIGKILL and restarted at once. Targets:
every partition commits again within 15 s of the kill, and the survivor's partitions never go
longer than 2 × commit_interval without a commit. Exactly once at the end.

With `kafka.instance_id` (static membership) the restarted worker takes its partitions back
without a rebalance; without it (a dynamic member) the group waits for the killed member's
session to time out (Floe's default session.timeout.ms, 10 s) while the survivor goes on
committing its own partitions. The workers run with Floe's own consumer defaults (no test
overrides of session or heartbeat timeouts). Timings are printed (run with -s) for
docs/reliability.md."""
import time
import uuid

import pytest

from tests.integration.fixtures.exactly_once import BackgroundProducer, assert_exactly_once, end_offsets
from tests.integration.fixtures.postgres import PostgresServer
from tests.integration.fixtures.worker_group import CommitWatcher, PgFloeRun, commit_times, longest_pause
from tests.integration.test_pipeline_avro import ORDER, order

pytestmark = pytest.mark.timeout(400)

PARTITIONS = 6
COMMIT_INTERVAL = 1.0
RECOVERY_TARGET = 15.0
WATCH = 16.0  # seconds watched after each kill


@pytest.fixture(scope="module")
def postgres(tmp_path_factory):
    with PostgresServer(tmp_path_factory.mktemp("postgres")) as pg:
        yield pg


def start_group(kafka, schema_registry, floe_bin, postgres, tmp_path, monkeypatch, static: bool, seconds: float):
    """Creates the topic, starts producing for `seconds` and starts workers a and b."""
    topic = f"avail-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=PARTITIONS)
    uri = postgres.database_uri(f"avail_{topic[-8:]}")
    producing = BackgroundProducer(kafka, schema_registry.url, topic, PARTITIONS, int(seconds * 120), seconds,
                                   lambda p: p.serializer(ORDER), order)
    workers = []
    for name in ("a", "b"):
        w = PgFloeRun(floe_bin, tmp_path / name, kafka.bootstrap, [{"name": topic, "table": "kafka.avail"}],
                      catalog_uri=uri, warehouse_dir=tmp_path / "warehouse", registry_url=schema_registry.url,
                      group_id=f"g-{topic}", admin=True, defaults={"commit_interval": f"{int(COMMIT_INTERVAL * 1000)}ms"})
        (tmp_path / "warehouse").mkdir(exist_ok=True)
        # Floe's defaults, not the fixtures' fast test timeouts: what a user gets.
        w.config["kafka"]["properties"] = {}
        if static:
            # As a StatefulSet would: the id comes from the environment.
            variable = f"FLOE_TEST_INSTANCE_{name.upper()}"
            monkeypatch.setenv(variable, f"{topic}-{name}")
            w.config["kafka"]["instance_id"] = "${env:" + variable + "}"
        workers.append(w)
    producing.start()
    for w in workers:
        w.start()
    return topic, producing, workers


def wait_until_shared(watcher, deadline_s=90):
    """Both workers own 3 partitions and every partition has committed."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        now = time.monotonic()
        if (len(watcher.owned_by(0, now)) == 3 and len(watcher.owned_by(1, now)) == 3
                and all(watcher.first_commit_after(p, 0) for p in range(PARTITIONS))):
            return
        time.sleep(0.5)
    raise AssertionError(f"the workers never shared the partitions: {watcher.owners[-1:]}, {watcher.moves.keys()}")


def kill_and_restart(watcher, victim, survivor_index):
    """SIGKILLs the victim and starts it again at once, then watches for WATCH seconds; returns
    (kill time on the wall clock, the survivor's partitions then, seconds the restart took)."""
    killed_at, t0 = time.time(), time.monotonic()
    survivor_partitions = watcher.owned_by(survivor_index, t0)
    victim.kill()
    victim.start()
    restarted = time.monotonic() - t0
    time.sleep(WATCH)
    return killed_at, survivor_partitions, restarted


def measure(times, killed_at, survivor_partitions, restarted):
    """Timings of one kill from the table's commit times (commit_times)."""
    firsts = {p: next((t for t in times.get(p, []) if t > killed_at), None) for p in range(PARTITIONS)}
    assert None not in firsts.values(), f"partitions without a commit since the kill: {firsts}"
    return {"restart_s": round(restarted, 2),
            "every_partition_committed_s": round(max(t - killed_at for t in firsts.values()), 2),
            "survivor_partitions": sorted(survivor_partitions),
            "survivor_longest_pause_s": round(longest_pause(times, survivor_partitions,
                                                            killed_at - 2 * COMMIT_INTERVAL, killed_at + WATCH), 2)}


@pytest.mark.parametrize("membership", ["static", "dynamic"])
def test_kill_9_and_immediate_restart_keeps_every_partition_committing(kafka, schema_registry, floe_bin, postgres,
                                                                       tmp_path, monkeypatch, membership):
    static = membership == "static"
    kills = 2 if static else 1
    topic, producing, (a, b) = start_group(kafka, schema_registry, floe_bin, postgres, tmp_path, monkeypatch, static,
                                           seconds=25 + kills * (WATCH + 3))
    watcher = CommitWatcher([a, b], topic)
    watcher.start()
    kills_done, stops = [], {}
    try:
        wait_until_shared(watcher)
        time.sleep(2)
        for _ in range(kills):
            kills_done.append(kill_and_restart(watcher, b, survivor_index=0))
        producing.join(180)
        assert producing.sent is not None
        want = end_offsets(producing.sent)
        deadline = time.monotonic() + 60
        while watcher.last_offsets() != want and time.monotonic() < deadline:
            time.sleep(0.5)
        assert watcher.last_offsets() == want, (watcher.last_offsets(), want)
    finally:
        watcher.stop()
        for name, w in (("b", b), ("a", a)):
            started = time.monotonic()
            rc = w.stop()
            stops[name] = round(time.monotonic() - started, 2)
            assert rc == 0, w.log_tail()
    times = commit_times(a.table("kafka.avail"), topic)
    results = [measure(times, *k) for k in kills_done]
    print(f"\navailability ({membership} membership, commit_interval {COMMIT_INTERVAL} s): kills {results}, "
          f"shutdown seconds {stops}, records {len(producing.sent)}")
    assert_exactly_once(a, "kafka.avail", producing.sent)
    for r in results:
        assert r["every_partition_committed_s"] <= RECOVERY_TARGET, results
        assert r["survivor_longest_pause_s"] <= 2 * COMMIT_INTERVAL, results
    assert max(stops.values()) < 10, stops
