"""The smallest config of docs/configuration.md on a warehouse folder that does not exist yet:
`floe run`, `floe maintain` and `floe catalog serve` create the warehouse and the default SQLite
catalog (<warehouse>/catalog.db) — once they failed with SQLite's "unable to open database file"
(issue 33) — and refuse a folder they cannot create with its name and what to do."""
import json
import re
import select
import subprocess
import time
import urllib.request
import uuid

from confluent_kafka import Producer


def smallest_config(tmp_path, warehouse, bootstrap="127.0.0.1:9", topic="events", extra=""):
    """kafka.bootstrap_servers, warehouse and one topic: what docs/configuration.md requires
    (`value: json` because the default, avro, needs a schema registry)."""
    path = tmp_path / "floe.yaml"
    path.write_text(f'kafka:\n  bootstrap_servers: "{bootstrap}"\nwarehouse: "{warehouse}"\n{extra}'
                    f"topics:\n  - name: {topic}\n    value: json\n")
    return path


def floe(floe_bin, *args, timeout=120):
    return subprocess.run([str(floe_bin), *args], capture_output=True, text=True, timeout=timeout)


def test_run_creates_the_warehouse_and_its_catalog(floe_bin, kafka, tmp_path):
    topic = f"fresh-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    producer = Producer({"bootstrap.servers": kafka.bootstrap})
    for i in range(3):
        producer.produce(topic, json.dumps({"id": i, "name": f"n{i}"}).encode())
    assert producer.flush(30) == 0
    warehouse = tmp_path / "not" / "yet" / "warehouse"
    config = smallest_config(tmp_path, f"file://{warehouse}", kafka.bootstrap, topic)

    r = floe(floe_bin, "run", "--config", str(config), "--exit-when-caught-up", timeout=180)

    assert r.returncode == 0, r.stdout + r.stderr
    assert "floe: 3 records written" in r.stdout, r.stdout + r.stderr
    assert (warehouse / "catalog.db").is_file()
    assert list((warehouse / "kafka").rglob("*.parquet")), "no data file under the new warehouse"


def test_maintain_creates_the_warehouse_and_its_catalog(floe_bin, tmp_path):
    warehouse = tmp_path / "new" / "warehouse"
    config = smallest_config(tmp_path, str(warehouse))  # a plain path is a local warehouse too

    r = floe(floe_bin, "maintain", "--config", str(config))

    assert "unable to open database file" not in r.stderr, r.stderr
    assert (warehouse / "catalog.db").is_file(), r.stdout + r.stderr
    assert r.returncode == 0, r.stdout + r.stderr


def serve(floe_bin, config, tmp_path):
    """`floe catalog serve` on a free port, answering: (process, base URL)."""
    log = tmp_path / "serve.log"
    with open(log, "w") as err:
        proc = subprocess.Popen([str(floe_bin), "catalog", "serve", "--config", str(config), "--listen", "127.0.0.1:0"],
                                stdout=subprocess.PIPE, stderr=err, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if select.select([proc.stdout], [], [], 0.5)[0]:
            m = re.search(r"listening on (http://\S+)", proc.stdout.readline())
            if m:
                with urllib.request.urlopen(f"{m.group(1)}/v1/config", timeout=10) as response:
                    assert response.status == 200
                return proc, m.group(1)
    proc.kill()
    proc.wait(10)
    raise AssertionError(f"floe catalog serve did not start:\n{log.read_text()[-3000:]}")


def test_catalog_serve_creates_the_warehouse_and_its_catalog(floe_bin, tmp_path):
    warehouse = tmp_path / "new" / "warehouse"
    proc, url = serve(floe_bin, smallest_config(tmp_path, f"file://{warehouse}"), tmp_path)
    try:
        with urllib.request.urlopen(f"{url}/v1/namespaces", timeout=10) as response:
            assert json.load(response) == {"namespaces": []}
        assert (warehouse / "catalog.db").is_file()
    finally:
        proc.terminate()
        assert proc.wait(30) == 0


def test_catalog_uri_in_a_new_folder_is_created_too(floe_bin, tmp_path):
    """catalog.uri set to a SQLite file elsewhere: its folder is created as well."""
    database = tmp_path / "catalogs" / "floe" / "catalog.db"
    config = smallest_config(tmp_path, f"file://{tmp_path / 'wh'}", extra=f'catalog:\n  uri: "sqlite://{database}"\n')
    proc, _ = serve(floe_bin, config, tmp_path)
    proc.terminate()
    assert proc.wait(30) == 0
    assert database.is_file()


def test_a_warehouse_that_cannot_be_created_is_refused_by_name(floe_bin, tmp_path):
    """(Run as root, permissions do not stop it: a file where a folder should be does.)"""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    warehouse = blocker / "warehouse"
    config = smallest_config(tmp_path, f"file://{warehouse}")
    for command in (["run", "--exit-when-caught-up"], ["maintain"], ["catalog", "serve"]):
        r = floe(floe_bin, *command, "--config", str(config))
        assert r.returncode != 0, (command, r.stdout, r.stderr)
        assert f"cannot create the warehouse folder {warehouse}: Not a directory" in r.stderr, (command, r.stderr)
        assert f"mkdir -p {warehouse}" in r.stderr and "set `warehouse:` in floe.yaml" in r.stderr, r.stderr
