"""Object storage, Azure (issue #14): the warehouse on Azurite (Azure Blob Storage's emulator),
with Shared Key and SAS authorization checked. The Avro pipeline writes both formats there;
pyiceberg (with the catalog URI only), delta-rs and DuckDB read identical rows; Delta commits
are conditional Put Blobs, so racing writers cannot both win a version; a wrong key, a
read-only SAS and a missing container stop Floe at the start-up probe with clear errors; no
secret reaches a log line."""
import uuid

import pytest
from deltalake import DeltaTable

from tests.integration.fixtures.azurite import Azurite
from tests.integration.fixtures.duckdb_ext import extension_path
from tests.integration.fixtures.delta_race import race_delta_writers
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.test_pipeline_s3 import logs_of, produce_orders, rows_by_offset, serve_catalog


@pytest.fixture(scope="module")
def azurite(tmp_path_factory):
    with Azurite(tmp_path_factory.mktemp("azurite")) as server:
        yield server


def azure_floe(floe_bin, tmp_path, kafka, schema_registry, topic, warehouse, storage, formats=("iceberg", "delta")):
    return FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.orders", "formats": list(formats)}],
                   registry_url=schema_registry.url, extra={"warehouse": warehouse, "storage": storage})


def delta_storage_options(azurite):
    # delta-rs (object_store) reaches an emulator on another port than 10000 through its
    # endpoint override (use_emulator would fix the port), over plain http.
    return {"azure_storage_account_name": azurite.account, "azure_storage_account_key": azurite.key,
            "azure_storage_endpoint": azurite.endpoint, "allow_http": "true"}


def test_both_formats_on_azure_read_alike_by_pyiceberg_delta_rs_and_duckdb(kafka, schema_registry, floe_bin, azurite,
                                                                            tmp_path, monkeypatch):
    container = azurite.create_container()
    # Secrets come from the environment and a file, never from floe.yaml itself.
    monkeypatch.setenv("FLOE_TEST_AZURE_KEY", azurite.key)
    reader_sas = azurite.sas(container, "rl")
    sas_file = tmp_path / "reader-sas"
    sas_file.write_text(reader_sas + "\n")
    storage = azurite.storage_config("${env:FLOE_TEST_AZURE_KEY}", reader_sas_token=f"${{file:{sas_file}}}")
    topic = f"azdual-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 2000)
    warehouse = azurite.warehouse(container)
    floe = azure_floe(floe_bin, tmp_path, kafka, schema_registry, topic, warehouse, storage)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "conditional create honoured" in result.stderr
    assert "credentials: account key" in result.stderr
    blobs = azurite.blobs(container, "wh/kafka/orders/")
    assert any("/_delta_log/" in b for b in blobs) and any(b.endswith(".parquet") for b in blobs)
    assert not any("_floe_probe" in b for b in azurite.blobs(container))  # the start-up probe cleans up

    # pyiceberg: nothing but the catalog URI; account, endpoint and the read-only SAS come from LoadTable.
    proc, url = serve_catalog(floe_bin, floe.write_config(), tmp_path / "catalog.log")
    try:
        from pyiceberg.catalog.rest import RestCatalog
        table = RestCatalog("floe", uri=url).load_table("kafka.orders")
        assert table.io.properties["adls.account-name"] == azurite.account
        assert table.io.properties["adls.sas-token"] == reader_sas
        assert "adls.account-key" not in table.io.properties  # Floe's own key never leaves it
        iceberg = rows_by_offset(table.scan().to_arrow().to_pylist())
        metadata_location = table.metadata_location
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    location = f"{warehouse}/kafka/orders"
    dt = DeltaTable(location, storage_options=delta_storage_options(azurite))
    delta = rows_by_offset(dt.to_pyarrow_table().to_pylist())
    assert len(iceberg) == 2000
    assert iceberg == delta
    # One copy of the data: both formats reference the same blobs.
    assert {u.split("/wh/", 1)[1] for u in dt.file_uris()} == \
        {b.split("wh/", 1)[1] for b in blobs if b.endswith(".parquet")}

    import duckdb
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    for name in ("azure", "avro", "iceberg", "delta"):
        con.execute(f"LOAD '{extension_path(name)}'")
    con.execute(f"CREATE SECRET az (TYPE azure, CONNECTION_STRING '{azurite.connection_string}')")
    duck_parquet = {(p, o): (i, c, a) for p, o, i, c, a in con.execute(
        f"select _kafka.partition, _kafka.offset, id, customer, amount "
        f"from read_parquet('az://{container}/wh/kafka/orders/**/*.parquet')").fetchall()}
    assert duck_parquet == iceberg
    # DuckDB's iceberg_scan and delta_scan do not reach an emulator: the former follows the
    # abfss:// paths in the metadata to *.dfs.core.windows.net, the latter's delta-kernel
    # ignores the secret's BlobEndpoint (docs/storage.md). The data files it reads directly.

    logs = logs_of(tmp_path)
    for secret in (azurite.key, reader_sas.split("sig=")[1]):
        assert secret not in logs


def test_racing_delta_writers_on_azure_exactly_one_wins_each_version(floe_bin, tool, azurite, tmp_path):
    race_delta_writers(floe_bin, tool, tmp_path, azurite.warehouse(azurite.create_container()),
                       azurite.storage_config(), delta_storage_options(azurite), "409 BlobAlreadyExists")


def test_floe_writes_with_a_sas_token(kafka, schema_registry, floe_bin, azurite, tmp_path):
    container = azurite.create_container()
    sas = azurite.sas(container, "racwdl")
    topic = f"azsas-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 300, partitions=1)
    storage = {"azure": {"account": azurite.account, "endpoint": azurite.endpoint, "credentials": "sas",
                         "sas_token": "?" + sas}}
    result = azure_floe(floe_bin, tmp_path, kafka, schema_registry, topic, azurite.warehouse(container),
                        storage).run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "credentials: SAS token" in result.stderr and "conditional create honoured" in result.stderr
    rows = DeltaTable(f"{azurite.warehouse(container)}/kafka/orders",
                      storage_options=delta_storage_options(azurite)).to_pyarrow_table()
    assert rows.num_rows == 300
    assert sas.split("sig=")[1] not in logs_of(tmp_path) + result.stderr + result.stdout


def test_wrong_key_read_only_sas_and_missing_container_are_clear_errors(kafka, schema_registry, floe_bin, azurite,
                                                                        tmp_path):
    import base64
    container = azurite.create_container()
    topic = f"azerr-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    wrong_key = base64.b64encode(uuid.uuid4().bytes * 4).decode()
    read_only = azurite.sas(container, "rl")
    cases = {
        "wrong-key": (container, azurite.storage_config(wrong_key), "a wrong storage.azure.account_key"),
        "read-only-sas": (container, azurite.storage_config(credentials="sas", account_key=None, sas_token=read_only),
                          "AuthorizationPermissionMismatch"),
        "no-container": ("floe-no-such-container", azurite.storage_config(), "ContainerNotFound"),
    }
    for name, (target, storage, code) in cases.items():
        storage["azure"] = {k: v for k, v in storage["azure"].items() if v is not None}
        floe = azure_floe(floe_bin, tmp_path / name, kafka, schema_registry, topic, azurite.warehouse(target), storage)
        result = floe.run_batch(timeout=120)
        assert result.returncode == 2, (name, result.stderr[-2000:])
        assert f"probing the warehouse {azurite.warehouse(target)}" in result.stderr, (name, result.stderr[-2000:])
        assert code in result.stderr, (name, result.stderr[-2000:])
    logs = logs_of(tmp_path)
    for secret in (wrong_key, azurite.key, read_only.split("sig=")[1]):
        assert secret not in logs
