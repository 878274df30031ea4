"""The demo behind `make demo`. Starts a single-node Kafka (KRaft) and the test schema
registry on loopback, produces a sample `orders` topic with the Confluent Avro serializer,
materializes it with `floe run` (serving its own Iceberg REST catalog), prints a DuckDB
query over the table, then shows new records arriving within seconds.
Everything it writes goes to demo-data/ (git-ignored), or to --data-dir; every port is a free
one; services stop when it ends. Exits non-zero when any step fails or a query finds fewer rows
than were produced: tests/integration/test_demo.py runs it so under `make test`."""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import duckdb  # noqa: E402
from confluent_kafka import Producer  # noqa: E402
from confluent_kafka.schema_registry import SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

from tests.integration.fixtures.kafka_broker import KafkaBroker  # noqa: E402
from tests.integration.fixtures.schema_registry import SchemaRegistry  # noqa: E402

BUILD = pathlib.Path(os.environ["FLOE_BUILD_DIR"])
DEFAULT_DATA = ROOT / "demo-data"
TOPIC = "orders"
RECORDS = 20_000

SCHEMA = {
    "type": "record", "name": "Order", "namespace": "demo",
    "fields": [
        {"name": "order_id", "type": "long"},
        {"name": "customer", "type": "string"},
        {"name": "country", "type": "string"},
        {"name": "amount", "type": "double"},
        {"name": "coupon", "type": ["null", "string"], "default": None},
        {"name": "ordered_at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    ],
}
COUNTRIES = ["DE", "FR", "US", "JP", "BR", "IN"]


def step(text: str) -> None:
    print(f"\n==> {text}", flush=True)


def produce(bootstrap: str, registry_url: str) -> None:
    serializer = AvroSerializer(SchemaRegistryClient({"url": registry_url}), json.dumps(SCHEMA))
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20})
    start_ms = int(time.time() * 1000) - RECORDS * 1000
    for i in range(RECORDS):
        order = {"order_id": 100_000 + i, "customer": f"customer-{i % 500:03d}",
                 "country": COUNTRIES[i % len(COUNTRIES)], "amount": round(5 + (i * 37 % 1000) / 10, 2),
                 "coupon": "SPRING" if i % 7 == 0 else None, "ordered_at": start_ms + i * 1000}
        producer.produce(TOPIC, key=order["customer"].encode(),
                         value=serializer(order, SerializationContext(TOPIC, MessageField.VALUE)))
        if i % 2000 == 0:
            producer.poll(0)
    if producer.flush(60) != 0:
        raise SystemExit("demo: the producer could not deliver every record")


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_offsets(catalog, table: str, want: int, timeout: float = 120) -> float:
    """Seconds until the table's floe.offsets cover `want` records of the topic."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            snapshot = catalog.load_table(table).current_snapshot()
            if snapshot and "floe.offsets" in snapshot.summary.additional_properties:
                offsets = json.loads(snapshot.summary["floe.offsets"]).get(TOPIC, {})
                if sum(offsets.values()) >= want:
                    return time.monotonic() - started
        except Exception:  # the table is created with the first record
            pass
        time.sleep(0.2)
    raise SystemExit(f"demo: the table did not reach {want} records in {timeout}s")


def shown(path: pathlib.Path) -> str:
    """A path as the user typed it: relative to the repo when inside it (demo-data/…)."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=pathlib.Path, default=DEFAULT_DATA,
                        help="where the broker, warehouse, catalog and logs go; emptied first (default demo-data/)")
    data = parser.parse_args().data_dir.resolve()

    from pyiceberg.catalog.rest import RestCatalog
    from tests.integration.fixtures.duckdb_ext import connect

    # Emptied first, so each run starts from nothing; but never a folder the demo did not make
    # (the marker file), other than its own demo-data/.
    marker = data / ".floe-demo"
    if data != DEFAULT_DATA and data.is_dir() and any(data.iterdir()) and not marker.exists():
        raise SystemExit(f"demo: {data} is not empty and holds no earlier demo: give --data-dir a new or empty folder")
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True)
    marker.touch()
    floe = BUILD / "apps" / "floe" / "floe"
    step("starting a single-node Kafka broker (KRaft) and a schema registry on loopback")
    with KafkaBroker(data / "kafka") as kafka, SchemaRegistry() as registry:
        print(f"    kafka {kafka.bootstrap}, schema registry {registry.url}")
        kafka.create_topic(TOPIC, 3)

        step(f"producing {RECORDS} Avro records to '{TOPIC}' with the Confluent serializer")
        produce(kafka.bootstrap, registry.url)

        catalog_port, admin_port = free_port(), free_port()
        config = data / "floe.yaml"
        config.write_text(textwrap.dedent(f"""\
            kafka:
              bootstrap_servers: "{kafka.bootstrap}"
            schema_registry:
              url: "{registry.url}"
            warehouse: "file://{data / 'warehouse'}"   # created by floe run, with its catalog.db
            catalog:
              listen: "127.0.0.1:{catalog_port}"   # engines query through Floe's Iceberg REST catalog
            admin:
              listen: "127.0.0.1:{admin_port}"
            defaults:
              commit_interval: 2s
            topics:
              - name: {TOPIC}
                value: avro
                key: string
                partition_by: ["day(_kafka.timestamp)"]
            """))
        print(textwrap.indent(config.read_text(), "    "))
        step(f"floe validate --config {shown(config)}")
        subprocess.run([str(floe), "validate", "--config", str(config)], check=True)

        step(f"floe run --config {shown(config)}   (continuous; Ctrl-C or SIGTERM commits and stops)")
        log = open(data / "floe-run.log", "w")
        proc = subprocess.Popen([str(floe), "run", "--config", str(config)], stdout=log, stderr=log)
        try:
            deadline = time.monotonic() + 60
            while "REST catalog listening" not in (data / "floe-run.log").read_text():
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("demo: floe run did not start:\n" + (data / "floe-run.log").read_text())
                time.sleep(0.1)
            catalog = RestCatalog("floe", uri=f"http://127.0.0.1:{catalog_port}")
            seconds = wait_for_offsets(catalog, "kafka.orders", RECORDS)
            print(f"    all {RECORDS} records committed to kafka.orders after {seconds:.1f}s")

            step("querying kafka.orders with DuckDB (iceberg_scan of the table Floe committed)")
            table = catalog.load_table("kafka.orders")
            con = connect()
            print(con.sql(f"""
                SELECT country, count(*) AS orders, round(sum(amount), 2) AS revenue,
                       count(coupon) AS with_coupon, max(ordered_at) AS latest
                FROM iceberg_scan('{table.metadata_location}') GROUP BY country ORDER BY revenue DESC"""))
            total = con.execute(f"""SELECT count(*), count(DISTINCT (_kafka.partition, _kafka."offset"))
                                    FROM iceberg_scan('{table.metadata_location}')""").fetchone()
            print(f"    {total[0]} rows, {total[1]} distinct (partition, offset): every record exactly once")
            if total[0] != RECORDS or total[1] != RECORDS:
                raise SystemExit(f"demo: DuckDB read {total[0]} rows ({total[1]} distinct), not the {RECORDS} produced")

            step("producing 1000 more records: how fast do they show up?")
            produce_more(kafka.bootstrap, registry.url)
            seconds = wait_for_offsets(catalog, "kafka.orders", RECORDS + 1000)
            rows = catalog.load_table("kafka.orders").scan().to_arrow().num_rows
            print(f"    pyiceberg (through Floe's REST catalog) sees {rows} rows, {seconds:.1f}s after producing")
            if rows != RECORDS + 1000:
                raise SystemExit(f"demo: pyiceberg read {rows} rows, not the {RECORDS + 1000} produced")
            import urllib.request
            status = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{admin_port}/status", timeout=5).read())
            for t in status.get("topics", []):
                print(f"    /status: {t['topic']} -> {t['table']}: {t['state']}")
        finally:
            proc.terminate()
            proc.wait(60)
            log.close()
        print(f"    floe run exited with {proc.returncode}; its log is {shown(data / 'floe-run.log')}")
        if proc.returncode != 0:
            raise SystemExit(f"demo: floe run exited with {proc.returncode} on SIGTERM")
    step(f"done. The warehouse, catalog and log stay in {shown(data)}/.")
    return 0


def produce_more(bootstrap: str, registry_url: str) -> None:
    serializer = AvroSerializer(SchemaRegistryClient({"url": registry_url}), json.dumps(SCHEMA))
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    now_ms = int(time.time() * 1000)
    for i in range(1000):
        order = {"order_id": 900_000 + i, "customer": f"customer-{i % 500:03d}", "country": COUNTRIES[i % 6],
                 "amount": 10.0, "coupon": None, "ordered_at": now_ms}
        producer.produce(TOPIC, key=order["customer"].encode(),
                         value=serializer(order, SerializationContext(TOPIC, MessageField.VALUE)))
    if producer.flush(60) != 0:
        raise SystemExit("demo: the producer could not deliver every record")


if __name__ == "__main__":
    sys.exit(main())
