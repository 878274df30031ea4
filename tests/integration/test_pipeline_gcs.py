"""Object storage, GCS (issue #14): the warehouse on fake-gcs-server (a GCS JSON API emulator
that checks no credentials). The Avro pipeline writes both formats there; pyiceberg (the
endpoint from the catalog, a token of its own) and delta-rs read identical rows; Delta commits are uploads with
ifGenerationMatch=0, so racing writers cannot both win a version; a missing bucket stops Floe
at the start-up probe."""
import time
import uuid

import pytest
from deltalake import DeltaTable

from tests.integration.fixtures.fake_gcs import FakeGcs
from tests.integration.fixtures.delta_race import race_delta_writers
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.test_pipeline_s3 import produce_orders, rows_by_offset, serve_catalog


@pytest.fixture(scope="module")
def gcs(tmp_path_factory):
    with FakeGcs(tmp_path_factory.mktemp("fake-gcs")) as server:
        yield server


def gcs_floe(floe_bin, tmp_path, kafka, schema_registry, topic, bucket, storage, formats=("iceberg", "delta")):
    return FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.orders", "formats": list(formats)}],
                   registry_url=schema_registry.url, extra={"warehouse": f"gs://{bucket}/wh", "storage": storage})


def test_both_formats_on_gcs_read_alike_by_pyiceberg_and_delta_rs(kafka, schema_registry, floe_bin, gcs, tmp_path):
    bucket = gcs.create_bucket()
    topic = f"gcsdual-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 2000)
    floe = gcs_floe(floe_bin, tmp_path, kafka, schema_registry, topic, bucket,
                    gcs.storage_config(project_id="floe-test"))
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "conditional create honoured" in result.stderr
    objects = gcs.objects(bucket, "wh/kafka/orders/")
    assert any("/_delta_log/" in o for o in objects) and any(o.endswith(".parquet") for o in objects)
    assert not any("_floe_probe" in o for o in gcs.objects(bucket))  # the start-up probe cleans up

    proc, url = serve_catalog(floe_bin, floe.write_config(), tmp_path / "catalog.log")
    try:
        from pyiceberg.catalog.rest import RestCatalog
        # The endpoint comes from LoadTable. A credential cannot: pyiceberg 0.12 has no anonymous
        # GCS access, and without a token PyArrow looks for Google's default credentials. The
        # emulator ignores tokens, so the client brings any (on GCS, its own real one).
        expires = str(int((time.time() + 3600) * 1000))
        table = RestCatalog("floe", uri=url, **{"gcs.oauth2.token": "ignored-by-the-emulator",
                                               "gcs.oauth2.token-expires-at": expires}).load_table("kafka.orders")
        assert table.io.properties["gcs.service.host"] == gcs.endpoint
        assert table.io.properties["gcs.project-id"] == "floe-test"
        iceberg = rows_by_offset(table.scan().to_arrow().to_pylist())
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    location = f"gs://{bucket}/wh/kafka/orders"
    dt = DeltaTable(location, storage_options=gcs.delta_storage_options())
    delta = rows_by_offset(dt.to_pyarrow_table().to_pylist())
    assert len(iceberg) == 2000
    assert iceberg == delta
    assert {u.split("/wh/", 1)[1] for u in dt.file_uris()} == \
        {o.split("wh/", 1)[1] for o in objects if o.endswith(".parquet")}


def test_racing_delta_writers_on_gcs_exactly_one_wins_each_version(floe_bin, tool, gcs, tmp_path):
    race_delta_writers(floe_bin, tool, tmp_path, f"gs://{gcs.create_bucket()}/wh", gcs.storage_config(),
                       gcs.delta_storage_options(), "HTTP 412")


def test_missing_bucket_is_a_clear_error(kafka, schema_registry, floe_bin, gcs, tmp_path):
    topic = f"gcserr-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    missing = gcs_floe(floe_bin, tmp_path / "missing", kafka, schema_registry, topic, "floe-no-such-bucket",
                       gcs.storage_config()).run_batch(timeout=120)
    assert missing.returncode == 2, missing.stderr[-2000:]
    assert "probing the warehouse gs://floe-no-such-bucket/wh" in missing.stderr
    assert "the warehouse bucket does not exist" in missing.stderr, missing.stderr[-2000:]


def _gcs_with_oauth(floe_bin, tmp_path, kafka, schema_registry, gcs, proxy, gcs_storage: dict, rows: int = 300):
    """Floe with Google credentials through a recording proxy in front of fake-gcs-server; returns
    the run and the Authorization headers the conditional uploads (Delta's commits, the probe)
    carried."""
    bucket = gcs.create_bucket()
    topic = f"gcsauth-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, rows)
    result = gcs_floe(floe_bin, tmp_path, kafka, schema_registry, topic, bucket,
                      {"gcs": {"endpoint": proxy.endpoint, **gcs_storage}}).run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "conditional create honoured" in result.stderr
    conditional = [auth for method, path, auth in proxy.seen if "ifGenerationMatch=0" in path]
    assert len(conditional) >= 3  # the probe's creates and the Delta commits
    rows_read = DeltaTable(f"gs://{bucket}/wh/kafka/orders", storage_options=gcs.delta_storage_options()
                           ).to_pyarrow_table().num_rows
    assert rows_read == rows
    return result, conditional


def test_service_account_key_authorizes_the_conditional_upload(kafka, schema_registry, floe_bin, gcs, tmp_path):
    """storage.gcs.credentials: service_account_file. Floe signs a JWT with the key, exchanges it at
    the key's token_uri and sends that token with ifGenerationMatch=0 uploads: Delta keeps its
    multi-writer safety with real Google credentials (before, it was refused unless anonymous)."""
    import json
    from tests.integration.fixtures.fault_proxy import FaultProxy
    from tests.integration.fixtures.google_token_server import GoogleTokenServer
    with GoogleTokenServer() as google, FaultProxy(gcs.port, ignore_conditional=False) as proxy:
        key = tmp_path / "key.json"
        key.write_text(json.dumps(google.service_account_key()))
        result, conditional = _gcs_with_oauth(floe_bin, tmp_path, kafka, schema_registry, gcs, proxy,
                                              {"credentials": "service_account_file",
                                               "service_account_file": str(key)})
        floe_grants = [g for g in google.grants if g.get("scope") == "https://www.googleapis.com/auth/devstorage.read_write"]
        assert floe_grants and not any("refused" in g for g in google.grants), google.grants
        assert all(a is not None and a.startswith("Bearer tok-") and a[len("Bearer "):] in google.issued
                   for a in conditional), conditional
        # One token serves the whole run (cached until a minute before it expires).
        assert len({a for a in conditional}) == 1, conditional
    assert google.service_account_key()["private_key"].splitlines()[1] not in result.stderr


def test_default_chain_takes_the_metadata_servers_token(kafka, schema_registry, floe_bin, gcs, tmp_path, monkeypatch):
    """storage.gcs.credentials: default on GCE/GKE: no key file anywhere, the metadata server's token."""
    from tests.integration.fixtures.fault_proxy import FaultProxy
    from tests.integration.fixtures.google_token_server import GoogleTokenServer
    with GoogleTokenServer() as google, FaultProxy(gcs.port, ignore_conditional=False) as proxy:
        monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
        monkeypatch.setenv("HOME", str(tmp_path))  # no gcloud application_default_credentials.json
        monkeypatch.setenv("GCE_METADATA_HOST", google.host)
        monkeypatch.setenv("GCE_METADATA_ROOT", google.host)  # what Arrow's Google client reads
        _, conditional = _gcs_with_oauth(floe_bin, tmp_path, kafka, schema_registry, gcs, proxy,
                                         {"credentials": "default"})
        assert {"grant_type": "metadata"} in google.grants
        assert all(a is not None and a[len("Bearer "):] in google.issued for a in conditional), conditional


def test_default_chain_refreshes_gcloud_user_credentials(kafka, schema_registry, floe_bin, gcs, tmp_path, monkeypatch):
    """GOOGLE_APPLICATION_CREDENTIALS naming gcloud user credentials (type authorized_user)."""
    import json
    from tests.integration.fixtures.fault_proxy import FaultProxy
    from tests.integration.fixtures.google_token_server import GoogleTokenServer
    with GoogleTokenServer() as google, FaultProxy(gcs.port, ignore_conditional=False) as proxy:
        creds = tmp_path / "adc.json"
        creds.write_text(json.dumps({"type": "authorized_user", "client_id": "floe-cli", "client_secret": "shh",
                                     "refresh_token": "refresh-me", "token_uri": google.token_uri}))
        monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(creds))
        monkeypatch.setenv("GCE_METADATA_HOST", "127.0.0.1:1")  # never asked
        _, conditional = _gcs_with_oauth(floe_bin, tmp_path, kafka, schema_registry, gcs, proxy,
                                         {"credentials": "default"})
        assert any(g["grant_type"] == "refresh_token" and g["client_id"] == "floe-cli" for g in google.grants)
        assert all(a is not None and a[len("Bearer "):] in google.issued for a in conditional), conditional
