"""Table maintenance under faults (issue 18, docs/maintenance.md): `floe run` dies like kill -9
(the fault points of src/floe/core/fault_injection.h) right after a snapshot-expiry commit,
midway through expiry's deletes and midway through orphan removal, while records keep coming.
Afterwards every record is in the table exactly once (pyiceberg and DuckDB), every file any
snapshot references exists (manifest lists, manifests, data files), and a later `floe maintain`
finishes the interrupted cleanup. With formats [iceberg, delta] (midway through expiry's
deletes) delta-rs reads the same rows and every file of the Delta version exists too; files the
Delta log still names as removed stay live for the orphan pass. And a fenced zombie's files are removed by the orphan pass
and by nothing else: compaction and expiry leave every unreferenced file alone.
Compaction-commit crashes are in test_maintenance.py."""
import json
import os
import pathlib
import shutil
import time
import urllib.parse
import uuid

import pytest
from deltalake import DeltaTable

from tests.integration.fixtures.exactly_once import BackgroundProducer, assert_exactly_once, end_offsets, read_rows
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.test_iceberg_maintenance_lib import local
from tests.integration.test_maintenance import (TWO_DAYS, avro, data_files_on_disk, duckdb_count, maintain,
                                                referenced_files)
from tests.integration.test_pipeline_avro import order
from tests.integration.test_pipeline_delta import delta_rows


def table_files(location: pathlib.Path) -> set:
    """The data files and the Avro metadata files (manifests, manifest lists) on disk."""
    return data_files_on_disk(location) | {str(p) for p in (location / "metadata").glob("*.avro")}


def assert_sound(floe, table_name, sent) -> dict:
    """Every record exactly once (pyiceberg, DuckDB) and every referenced file on disk."""
    rows = assert_exactly_once(floe, table_name, sent)
    table = floe.table(table_name)
    assert duckdb_count(f"select count(*) from iceberg_scan('{table.metadata_location}')") == len(sent)
    referenced = referenced_files(table)
    missing = [p for p in referenced if not pathlib.Path(p).exists()]
    assert not missing, missing[:5]
    return rows


def age(paths, seconds=TWO_DAYS):
    for p in paths:
        os.utime(p, (time.time() - seconds, time.time() - seconds))


def crash_run(floe, monkeypatch, point: str, producing: BackgroundProducer) -> None:
    """Starts `floe run` with `point` armed and `producing` running; it must die there (137)."""
    monkeypatch.setenv("FLOE_FAULT_POINTS", point)
    floe.start()
    monkeypatch.delenv("FLOE_FAULT_POINTS")
    producing.start()
    assert floe.proc.wait(timeout=120) == 137, floe.log_tail()
    floe.stop()
    producing.join(120)
    assert producing.sent is not None


def delta_named(location: pathlib.Path) -> set:
    """Every data file the Delta log names, added or removed (local paths)."""
    named = set()
    for f in (location / "_delta_log").glob("*.json"):
        for line in f.read_text().splitlines():
            action = json.loads(line)
            for kind in ("add", "remove"):
                if kind in action:
                    named.add(str(location / urllib.parse.unquote(action[kind]["path"])))
    return named


def assert_delta_sound(location: pathlib.Path, rows: dict) -> None:
    """delta-rs reads the rows pyiceberg read, and every file of its version exists."""
    assert set(delta_rows(location)) == set(rows)
    for uri in DeltaTable(str(location)).file_uris():
        assert local(uri).exists(), uri


@pytest.mark.parametrize("point,formats", [
    pytest.param("crash-after-expiry-commit", ["iceberg"], id="after-commit"),
    pytest.param("crash-during-expiry-deletes", ["iceberg"], id="midway"),
    pytest.param("crash-during-expiry-deletes", ["iceberg", "delta"], id="midway-both-formats")])
def test_kill_9_during_expiry_loses_nothing_and_the_next_pass_cleans_up(kafka, schema_registry, floe_bin, tmp_path,
                                                                        monkeypatch, point, formats):
    topic = f"expcrash-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producing = BackgroundProducer(kafka, schema_registry.url, topic, 2, 2_000, 12, avro, order)
    # Passes every 6 s: the first expiry has several snapshots (and, after the compaction of the
    # same pass, replaced data files) to delete, so "midway" leaves some of them behind.
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.expcrash", "formats": formats}],
                   registry_url=schema_registry.url, kafka_properties={"group.instance.id": f"crash-{topic}"},
                   extra={"maintenance": {"interval": "6s", "compaction": {"min_files": 3},
                                          "snapshot_retention": "1s", "min_snapshots": 2}})
    crash_run(floe, monkeypatch, point, producing)
    result = floe.run_batch()  # no maintenance in batch mode: the state the crash left, caught up
    assert result.returncode == 0, result.stderr[-3000:]

    rows = assert_sound(floe, "kafka.expcrash", producing.sent)
    table = floe.table("kafka.expcrash")
    location = floe.warehouse_dir / "kafka" / "expcrash"
    # The expired snapshots' files the crash kept from being deleted: unreferenced now.
    leftovers = table_files(location) - referenced_files(table)
    assert leftovers, "the crash came before (some of) expiry's deletes"
    dual = "delta" in formats
    if dual:
        assert_delta_sound(location, rows)
        # Files the Delta log still names (removed, not vacuumed) are live for the orphan pass.
        leftovers -= delta_named(location)

    # The next pass: expiry no longer sees them (their snapshots are gone), the orphan pass
    # removes them once they are older than orphan_age — and nothing referenced.
    age(leftovers)
    done = maintain(floe, "--table", "kafka.expcrash")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not [p for p in leftovers if pathlib.Path(p).exists()]
    assert read_rows(floe, "kafka.expcrash") == rows
    assert_sound(floe, "kafka.expcrash", producing.sent)
    unreferenced = table_files(location) - referenced_files(floe.table("kafka.expcrash"))
    if dual:
        assert_delta_sound(location, rows)
        unreferenced -= delta_named(location)
    assert not unreferenced, sorted(unreferenced)[:5]


def test_kill_9_during_orphan_removal_loses_nothing_and_the_next_pass_finishes(kafka, schema_registry, floe_bin,
                                                                              tmp_path, monkeypatch):
    topic = f"orphcrash-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    first = BackgroundProducer(kafka, schema_registry.url, topic, 2, 400, 2, avro, order)
    first.start()
    first.join(60)
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.orphcrash"}],
                   registry_url=schema_registry.url, kafka_properties={"group.instance.id": f"crash-{topic}"},
                   extra={"maintenance": {"interval": "2s"}})
    assert floe.run_batch().returncode == 0
    location = floe.warehouse_dir / "kafka" / "orphcrash"
    # Six files of commits that never landed (fenced zombies), long ago.
    source = sorted(data_files_on_disk(location))[0]
    zombies = [location / "data" / f"zombie-{k}-{uuid.uuid4().hex}.parquet" for k in range(6)]
    for z in zombies:
        shutil.copy(source, z)
    age(zombies)

    second = BackgroundProducer(kafka, schema_registry.url, topic, 2, 1_600, 10, avro, order)
    crash_run(floe, monkeypatch, "crash-during-orphan-removal", second)
    left = [z for z in zombies if z.exists()]
    assert 0 < len(left) < len(zombies), left  # the crash came midway
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    sent = {**first.sent, **second.sent}
    rows = assert_sound(floe, "kafka.orphcrash", sent)
    assert floe.committed_offsets("kafka.orphcrash") == {topic: end_offsets(sent)}

    done = maintain(floe, "--table", "kafka.orphcrash")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"orphans:    removed {len(left)} files" in done.stdout, done.stdout
    assert not any(z.exists() for z in zombies)
    assert read_rows(floe, "kafka.orphcrash") == rows
    assert_sound(floe, "kafka.orphcrash", sent)


def test_a_fenced_zombies_files_go_by_the_orphan_pass_and_nothing_else(kafka, schema_registry, floe_bin, tmp_path):
    """Compaction and expiry (with orphan_age far away) delete only files they unreferenced
    themselves: the zombie's old files, an in-flight young file and every referenced file stay.
    Then the orphan pass with orphan_age 1d removes the zombie's files and nothing else."""
    topic = f"zombie-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    maintenance = {"compaction": {"min_files": 2}, "snapshot_retention": "1s", "min_snapshots": 1}
    floe = FloeRun(floe_bin, tmp_path, kafka.bootstrap, [{"name": topic, "table": "kafka.zombie"}],
                   registry_url=schema_registry.url, extra={"maintenance": {**maintenance, "orphan_age": "30d"}})
    sent = {}
    for _ in range(3):  # three batch runs: at least three commits
        producing = BackgroundProducer(kafka, schema_registry.url, topic, 2, 300, 1, avro, order)
        producing.start()
        producing.join(60)
        sent.update(producing.sent)
        assert floe.run_batch().returncode == 0
    location = floe.warehouse_dir / "kafka" / "zombie"
    assert len(floe.table("kafka.zombie").metadata.snapshots) >= 3
    # The zombie: a writer fenced after it wrote its data files (complete Parquet files in the
    # table's naming scheme, under data/), whose commit never landed, two days ago.
    written = sorted(data_files_on_disk(location))
    zombie = [location / "data" / f"00000-0-{uuid.uuid4()}.parquet" for _ in range(2)]
    for src, dst in zip(written, zombie):
        shutil.copy(src, dst)
    age(zombie)
    young = location / "data" / f"00001-0-{uuid.uuid4()}.parquet"  # a write whose commit is on its way
    shutil.copy(written[0], young)
    before_rows = read_rows(floe, "kafka.zombie")
    referenced_before = referenced_files(floe.table("kafka.zombie"))

    # Compaction rewrites every data file, expiry drops every snapshot but the newest and deletes
    # what only they referenced; orphan_age 30d keeps the orphan pass from touching the zombie.
    done = maintain(floe, "--table", "kafka.zombie")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "compaction: rewrote" in done.stdout and "expiry:     expired" in done.stdout, done.stdout
    assert "orphans:" not in done.stdout, done.stdout  # the line is there only when some were removed
    table = floe.table("kafka.zombie")
    assert len(table.metadata.snapshots) <= 2  # the replace, and its parent when younger than 1 s
    assert all(z.exists() for z in zombie) and young.exists()
    deleted = {p for p in referenced_before if not pathlib.Path(p).exists()}
    assert deleted, "expiry deleted the files only the expired snapshots referenced"
    assert not deleted & ({str(z) for z in zombie} | {str(young)})
    assert read_rows(floe, "kafka.zombie") == before_rows
    assert_sound(floe, "kafka.zombie", sent)
    referenced = referenced_files(table)

    # The orphan pass at the default orphan_age (1d): the zombie's files go, nothing else (no
    # more expiry here, so that every other file stays where it is).
    floe.config["maintenance"] = {**maintenance, "snapshot_retention": "7d", "orphan_age": "1d"}
    on_disk = {p for p in location.rglob("*") if p.is_file()}
    done = maintain(floe, "--table", "kafka.zombie", config_name=floe.write_config().name)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "orphans:    removed 2 files" in done.stdout, done.stdout
    assert {p for p in location.rglob("*") if p.is_file()} == on_disk - set(zombie)
    assert young.exists()
    assert referenced_files(floe.table("kafka.zombie")) == referenced
    assert read_rows(floe, "kafka.zombie") == before_rows
    assert_sound(floe, "kafka.zombie", sent)
