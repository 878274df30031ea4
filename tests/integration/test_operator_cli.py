"""`floe status`, `floe skip` and `floe resume` against a running `floe run` (issue #16,
docs/running.md "Operating a running process"): plain stdout, the address and token from
flags, $FLOE_ADMIN_TOKEN or the process's floe.yaml."""
import os
import socket
import subprocess
import time
import uuid

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.test_operator_commands import produce_orders, topic_status, wait_for, wait_suspended

TOKEN = "cli-" + uuid.uuid4().hex


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def floe_cli(floe_bin, *args, env_token=None, extra_env=None):
    env = {k: v for k, v in os.environ.items() if k != "FLOE_ADMIN_TOKEN"}
    if env_token:
        env["FLOE_ADMIN_TOKEN"] = env_token
    env.update(extra_env or {})
    return subprocess.run([str(floe_bin), *args], capture_output=True, text=True, timeout=120, env=env)


def test_status_skip_and_resume_from_the_command_line(kafka, schema_registry, floe_bin, tmp_path):
    topic = f"cli-{uuid.uuid4().hex[:8]}"
    table = "kafka." + topic.replace("-", "_")
    kafka.create_topic(topic, partitions=2)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    produce_orders(producer, topic, range(10), partition=0)
    producer.send_raw(topic, b"\x07not avro", partition=0)  # not even the wire format's magic byte
    produce_orders(producer, topic, range(10, 15), partition=0)
    produce_orders(producer, topic, range(15, 25), partition=1)

    port = free_port()
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic}], registry_url=schema_registry.url,
                   admin=True)
    floe.config["admin"] = {"listen": f"127.0.0.1:{port}", "token": "${env:TEST_FLOE_ADMIN_TOKEN}"}
    os.environ["TEST_FLOE_ADMIN_TOKEN"] = TOKEN
    try:
        floe.start()
    finally:
        del os.environ["TEST_FLOE_ADMIN_TOKEN"]
    admin = floe.admin_url
    try:
        wait_suspended(floe, topic, f"{topic}/0@10")
        wait_for(lambda: floe.committed_offsets(table).get(topic, {}).get(0) == 10, "partition 0 committed up to 10")
        status = floe_cli(floe_bin, "status", "--admin", admin)
        assert status.returncode == 0, status.stderr
        out = status.stdout
        print(out)
        assert out.startswith("floe ")
        header = next(line for line in out.splitlines() if line.startswith("TOPIC"))
        for column in ("PARTITION", "STATE", "LAG", "FRESHNESS", "LAST COMMIT"):
            assert column in header
        topic_line = next(line for line in out.splitlines() if line.startswith(topic))
        assert "suspended" in topic_line and table in topic_line
        assert f"error at {topic}/0@10" in out and "magic" in out
        partition_lines = [line.split() for line in out.splitlines() if line.startswith("  ") and
                           line.split()[0] in ("0", "1")]
        assert sorted(p[0] for p in partition_lines) == ["0", "1"]
        assert all(p[1] == "suspended" for p in partition_lines)

        # A skip of the wrong record is refused and names the right one; no token: refused.
        wrong = floe_cli(floe_bin, "skip", topic, "--partition", "0", "--offset", "11", "--admin", admin,
                         "--token", TOKEN)
        assert wrong.returncode == 1 and f"{topic}/0@10" in wrong.stderr, wrong.stderr
        no_token = floe_cli(floe_bin, "resume", topic, "--admin", admin)
        assert no_token.returncode == 1 and "token" in no_token.stderr, no_token.stderr
        # The token from the environment.
        skipped = floe_cli(floe_bin, "skip", topic, "--partition", "0", "--offset", "10", "--admin", admin,
                           env_token=TOKEN)
        assert skipped.returncode == 0, skipped.stderr
        assert f"skipped {topic}/0@10" in skipped.stdout
        wait_for(lambda: floe.committed_offsets(table) == {topic: {0: 16, 1: 10}}, "everything committed")

        # Address and token from the process's floe.yaml; resuming a running topic is refused.
        config = str(tmp_path / "floe.yaml")
        # (floe.yaml's admin.token is ${env:TEST_FLOE_ADMIN_TOKEN}: resolved as `floe run` does.)
        config_env = {"TEST_FLOE_ADMIN_TOKEN": TOKEN}
        resumed = floe_cli(floe_bin, "resume", topic, "--config", config, extra_env=config_env)
        assert resumed.returncode == 1 and "not suspended" in resumed.stderr, resumed.stderr
        # /status catches up with the table a moment after the catalog commit (the commit's
        # outcome is applied on the poll thread), so wait for its lag as well.
        wait_for(lambda: (s := topic_status(floe, topic))["last_commit"] and s["backlog_records"] == 0
                 and all(p["lag"] == 0 for p in s["partitions"]),
                 "a last commit, no backlog and no lag in /status")
        status = floe_cli(floe_bin, "status", "--config", config, extra_env=config_env)
        assert status.returncode == 0, status.stderr
        topic_line = next(line for line in status.stdout.splitlines() if line.startswith(topic))
        cells = topic_line.split()
        assert cells[1] == "running", topic_line
        assert cells[2] == "0", topic_line  # lag: everything is in the table
        assert " ago" in topic_line and "error at" not in status.stdout
    finally:
        floe.stop()
    assert TOKEN not in floe.log_path.read_text()


def test_status_without_an_address_says_how_to_give_one(floe_bin, tmp_path):
    result = floe_cli(floe_bin, "status")
    assert result.returncode == 2
    assert "--admin" in result.stderr
    down = floe_cli(floe_bin, "status", "--admin", f"http://127.0.0.1:{free_port()}")
    assert down.returncode == 1 and "no answer" in down.stderr
