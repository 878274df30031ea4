"""floe::kafka group membership and the dead-letter producer against a real broker, through
tests/tools/floe_kafka_group_probe (one JSON line per event on its stdout): cooperative
splitting and hand-over between two members, seek and pause, lost partitions, and
dead-letter records (content, and Flush failing in time without a broker).

Members use session.timeout.ms=6000 (the broker's minimum) and heartbeat.interval.ms=500 so
rebalances take about a second."""
import json
import signal
import subprocess
import threading
import time
import uuid

import pytest
from confluent_kafka import Consumer, Producer

FAST_GROUP = ["-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=500"]


class Probe:
    """One running floe_kafka_group_probe; its events collected by a reader thread."""

    def __init__(self, path, *args):
        self.proc = subprocess.Popen([str(path), *map(str, args)], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.events = []
        self._eof = False
        self._new = threading.Condition()
        self._stderr = []
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr), daemon=True).start()

    def _read_stdout(self):
        for line in self.proc.stdout:
            with self._new:
                self.events.append(json.loads(line))
                self._new.notify_all()
        with self._new:
            self._eof = True
            self._new.notify_all()

    def stderr(self):
        return "".join(self._stderr)

    def wait_for(self, predicate, timeout=20.0, what="event"):
        """Block until predicate(events) is true; return the events."""
        deadline = time.monotonic() + timeout
        with self._new:
            while not predicate(self.events):
                left = deadline - time.monotonic()
                if left <= 0 or self._eof:
                    raise AssertionError(f"no {what} (exit {self.proc.poll()}); events {self.events}\n"
                                         f"stderr:\n{self.stderr()[-3000:]}")
                self._new.wait(min(left, 0.2))
            return list(self.events)

    def stop(self, timeout=20.0):
        """SIGTERM: the probe leaves its loop and Close()s the consumer."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        rc = self.proc.wait(timeout)
        time.sleep(0.05)  # let the reader threads take the last lines
        assert rc == 0, f"probe exited {rc}; stderr:\n{self.stderr()[-3000:]}"
        return self.events

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def probes():
    started = []

    def start(path, *args):
        p = Probe(path, *args)
        started.append(p)
        return p
    yield start
    for p in started:
        p.kill()


def owned(events):
    """Partitions a member holds after these events."""
    held = set()
    for e in events:
        if e["event"] == "assigned":
            assert not held & set(e["partitions"]), f"assigned twice: {e}"
            held |= set(e["partitions"])
        elif e["event"] == "revoked":
            held -= set(e["partitions"])
    return held


def records(events):
    return [(e["partition"], e["offset"]) for e in events if e["event"] == "record"]


def produce(bootstrap, topic, partitions, per_partition, start=0):
    p = Producer({"bootstrap.servers": bootstrap})
    for i in range(start, start + per_partition):
        for part in range(partitions):
            p.produce(topic, value=f"v{i}".encode(), partition=part)
    assert p.flush(30) == 0


def group_member(tool, kafka, topic, group, *extra):
    return (tool("floe_kafka_group_probe"), "--bootstrap", kafka.bootstrap, "--topic", topic,
            "--group", group, *FAST_GROUP, *extra)


def wait_owned(probe, want, what):
    probe.wait_for(lambda ev: owned(ev) == want, what=what)


def test_two_members_split_partitions_and_hand_over(kafka, tool, probes):
    """(a) A second member takes some partitions from the first incrementally (cooperative:
    the first keeps the rest throughout); together they read every record once.
    (b) When one member Close()s, the other gets its partitions and continues from the
    offsets the leaver committed in OnRevoked: still every record exactly once."""
    topic, group = f"group-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=4)
    args = group_member(tool, kafka, topic, group, "--start-offset", "committed")
    a = probes(*args)
    wait_owned(a, {0, 1, 2, 3}, "first member owning all 4 partitions")

    b = probes(*args)
    b.wait_for(lambda ev: len(owned(ev)) == 2, what="second member owning 2 partitions")
    wait_owned(a, {0, 1, 2, 3} - owned(b.events), "first member giving up exactly those")
    a_rebalance = [e for e in a.events if e["event"] in ("assigned", "revoked")]
    assert a_rebalance[0] == {"event": "assigned", "partitions": [0, 1, 2, 3]}
    # Cooperative: one orderly revoke of only the moved partitions, no revoke-all + re-assign.
    assert a_rebalance[1:] == [{"event": "revoked", "partitions": sorted(owned(b.events)), "lost": False}]
    assert [e["event"] for e in b.events if e["event"] in ("assigned", "revoked")] == ["assigned"]

    per_partition = 25
    produce(kafka.bootstrap, topic, 4, per_partition)
    expected = {(p, o) for p in range(4) for o in range(per_partition)}
    both = lambda: records(a.events) + records(b.events)  # noqa: E731
    a.wait_for(lambda _: len(both()) >= len(expected), what="all records read")
    b.wait_for(lambda _: len(both()) >= len(expected), what="all records read")
    assert sorted(both()) == sorted(expected)
    assert {p for p, _ in records(a.events)} == owned(a.events)
    assert {p for p, _ in records(b.events)} == owned(b.events)

    # (b) the first member leaves; its revoke runs in Close() and commits its progress.
    a_parts, b_parts = owned(a.events), owned(b.events)
    a_events = a.stop()
    assert a_events[-1] == {"event": "closed", "records": 2 * per_partition}
    assert {"event": "revoked", "partitions": sorted(a_parts), "lost": False} in a_events
    assert {"event": "committed", "partitions": sorted(a_parts), "ok": True} in a_events
    wait_owned(b, {0, 1, 2, 3}, "survivor owning all 4 partitions")
    # Only the freed partitions were added; the survivor's own were never revoked.
    assert [e for e in b.events if e["event"] in ("assigned", "revoked")] == [
        {"event": "assigned", "partitions": sorted(b_parts)},
        {"event": "assigned", "partitions": sorted(a_parts)}]

    produce(kafka.bootstrap, topic, 4, 5, start=per_partition)
    expected |= {(p, o) for p in range(4) for o in range(per_partition, per_partition + 5)}
    b.wait_for(lambda _: len(both()) >= len(expected), what="records after the hand-over")
    time.sleep(0.5)  # a duplicate would show up right behind
    b_events = b.stop()
    assert sorted(records(a_events) + records(b_events)) == sorted(expected)
    after = {(p, o) for p, o in records(b_events) if p in a_parts}
    assert after == {(p, o) for p in a_parts for o in range(per_partition, per_partition + 5)}


def test_seek_drops_fetched_records_and_pause_holds_the_partition(kafka, tool, probes):
    """Seek back after 10 records: the next record is offset 0 again, although librdkafka had
    fetched further. Pause after 25: nothing arrives while paused, and after Resume reading
    continues at the next offset, none skipped or repeated. Then the pipeline's retry: pause,
    seek back to the last record, resume: that record comes again."""
    topic = f"seek-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    produce(kafka.bootstrap, topic, 1, 30)
    p = probes(*group_member(tool, kafka, topic, f"g-{uuid.uuid4().hex[:8]}", "--rewind-after-records", 10,
                             "--pause-after-records", 25, "--pause-seconds", 1, "--max-records", 40))
    events = p.wait_for(lambda ev: ev and ev[-1]["event"] == "closed", what="probe done")
    kinds = [e["event"] for e in events]
    offsets = [e["offset"] for e in events if e["event"] == "record"]
    assert offsets == list(range(10)) + list(range(30)), offsets
    seek, paused, resumed = kinds.index("seek"), kinds.index("paused"), kinds.index("resumed")
    assert events[seek] == {"event": "seek", "partitions": [0], "offset": -2}
    assert resumed == paused + 1, "a record arrived while the partition was paused"
    assert [e["offset"] for e in events[seek:paused] if e["event"] == "record"] == list(range(15))
    assert p.stop() == events

    retry = probes(*group_member(tool, kafka, topic, f"g-{uuid.uuid4().hex[:8]}", "--pause-after-records", 12,
                                 "--pause-seconds", 0.5, "--pause-retries-last", "--max-records", 31))
    events = retry.wait_for(lambda ev: ev and ev[-1]["event"] == "closed", what="retrying probe done")
    assert [e["offset"] for e in events if e["event"] == "record"] == list(range(12)) + list(range(11, 30))
    kinds = [e["event"] for e in events]
    assert kinds[kinds.index("paused"):][:3] == ["paused", "seek", "resumed"]


def dlq_expected(i):
    key = None if i % 2 == 0 else f"key-{i}".encode()
    value = None if i % 5 == 4 else bytes([0x00, 0xFF, i & 0xFF, 0x80]) + f"v{i}".encode()
    headers = [("floe.error", f"record {i} failed".encode()), ("floe.binary", b"\x00\xff\x01"),
               ("floe.null", None), ("floe.empty", b""), ("floe.error", b"again")]
    return key, value, headers


def test_dead_letter_records_arrive_intact(kafka, tool):
    """(c) Null keys, tombstones, binary values and headers (null, empty, repeated keys)
    arrive byte for byte, read back with an independent client and with floe::kafka::Record."""
    topic, n = f"dlq-{uuid.uuid4().hex[:8]}", 20
    kafka.create_topic(topic, partitions=1)
    out = subprocess.run([tool("floe_kafka_group_probe"), "--bootstrap", kafka.bootstrap,
                          "--dlq-produce", str(n), "--dlq-topic", topic,
                          # A 3-record local queue: Produce() must wait out "queue full" (poll) to queue 20.
                          "-X", "queue.buffering.max.messages=3"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1])["event"] == "flushed"

    c = Consumer({"bootstrap.servers": kafka.bootstrap, "group.id": f"check-{uuid.uuid4()}",
                  "auto.offset.reset": "earliest", "enable.auto.commit": False})
    c.subscribe([topic])
    got = []
    try:
        deadline = time.monotonic() + 30
        while len(got) < n and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is not None:
                assert m.error() is None, m.error()
                got.append((m.key(), m.value(), m.headers()))
    finally:
        c.close()
    assert got == [dlq_expected(i) for i in range(n)]

    # And through floe::kafka::Record, whose key/value/header views point into the message.
    out = subprocess.run([tool("floe_kafka_group_probe"), "--bootstrap", kafka.bootstrap, "--topic", topic,
                          "--group", f"g-{uuid.uuid4().hex[:8]}", *FAST_GROUP, "--max-records", str(n),
                          "--print-payloads"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    hexed = lambda b: None if b is None else b.hex()  # noqa: E731
    read = [e for e in map(json.loads, out.stdout.splitlines()) if e["event"] == "record"]
    assert [(e["key"], e["value"], [tuple(h) for h in e["headers"]]) for e in read] == [
        (hexed(k), hexed(v), [(hk, hexed(hv)) for hk, hv in hs]) for k, v, hs in map(dlq_expected, range(n))]


@pytest.mark.parametrize("settings, flush_timeout_ms, budget_s, error", [
    # Records expire in librdkafka's queue: the delivery reports name the topic and the error.
    (["-X", "message.timeout.ms=1500"], 20000, 8,
     "kafka producer: 3 record(s) for 'dead-letters' failed: Local: Message timed out"),
    # Flush gives up first: the records are reported as still undelivered.
    (["-X", "message.timeout.ms=60000"], 1500, 4,
     "kafka producer flush timed out after 1500 ms: 3 record(s) for 'dead-letters' still undelivered"),
], ids=["message-timeout", "flush-timeout"])
def test_flush_to_unreachable_broker_fails_in_time(tool, settings, flush_timeout_ms, budget_s, error):
    """(d) With no broker (127.0.0.1:1), Flush returns kUnavailable within its timeout."""
    started = time.monotonic()
    out = subprocess.run([tool("floe_kafka_group_probe"), "--bootstrap", "127.0.0.1:1", "--dlq-produce", "3",
                          "--dlq-topic", "dead-letters", "--flush-timeout-ms", str(flush_timeout_ms),
                          "-X", "log_level=0", *settings], capture_output=True, text=True, timeout=60)
    elapsed = time.monotonic() - started
    assert out.returncode == 1, out
    last = json.loads(out.stdout.splitlines()[-1])
    assert last["event"] == "flush_failed"
    assert last["error"] == f"Unavailable: {error}"
    assert last["elapsed_ms"] <= flush_timeout_ms + 500
    assert elapsed < budget_s, f"took {elapsed:.1f}s"
    assert error in out.stderr


def test_member_that_stops_heartbeating_loses_its_partitions(kafka, tool, probes):
    """A member frozen (SIGSTOP) past session.timeout.ms is evicted: the other member gets its
    partitions, and the frozen one, once it runs again, is told they were lost (lost=true,
    not an orderly revoke, so it must not commit for them)."""
    topic, group = f"lost-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    args = group_member(tool, kafka, topic, group)
    a = probes(*args)
    wait_owned(a, {0, 1}, "first member owning both partitions")
    b = probes(*args)
    b.wait_for(lambda ev: len(owned(ev)) == 1, what="second member owning one partition")
    wait_owned(a, {0, 1} - owned(b.events), "first member keeping the other")
    frozen = owned(a.events)

    a.proc.send_signal(signal.SIGSTOP)
    try:
        wait_owned(b, {0, 1}, "survivor owning both after the session timeout")
    finally:
        a.proc.send_signal(signal.SIGCONT)
    a.wait_for(lambda ev: {"event": "revoked", "partitions": sorted(frozen), "lost": True} in ev,
               what="lost revoke")
    events = a.stop()
    lost_at = events.index({"event": "revoked", "partitions": sorted(frozen), "lost": True})
    # The frozen member saw no orderly revoke before the loss: it never knew it was evicted.
    assert [e for e in events[:lost_at] if e["event"] == "revoked"] == [
        {"event": "revoked", "partitions": sorted(owned(b.events) - frozen), "lost": False}]


def test_close_right_after_an_assignment_with_records_in_flight(kafka, tool):
    """Close() right after the group answered: the new partitions' first fetches land in the
    queue that close(queue) serves. librdkafka aborted the process on such a record when that
    queue was served for callbacks only (rd_kafka_q_serve: res != RD_KAFKA_OP_RES_PASS); the
    group watch's rebalance probe closes exactly like this."""
    topic = f"closing-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=4)
    produce(kafka.bootstrap, topic, 4, 5000)
    for i in range(20):
        member = subprocess.run([str(tool("floe_kafka_group_probe")), "--bootstrap", kafka.bootstrap, "--topic", topic,
                                 "--group", f"g-{uuid.uuid4().hex[:8]}", "--close-when-joined", *FAST_GROUP,
                                 "-X", "fetch.wait.max.ms=1"],
                                capture_output=True, text=True, timeout=60)
        assert member.returncode == 0, (i, member.returncode, member.stderr[-2000:])
        assert '"event": "closed"' in member.stdout or '"event":"closed"' in member.stdout, member.stdout
