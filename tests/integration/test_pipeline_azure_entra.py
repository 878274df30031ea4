"""Object storage, Azure with `credentials: default` (issue #14): Microsoft Entra ID tokens from
the Azure default credential chain, for Arrow's data path (the Azure SDK's
DefaultAzureCredential) and for Floe's own conditional Put Blob (Delta's commits) alike.

Azurite runs over HTTPS with `--oauth basic` (bearer tokens are refused over http, by Azurite and
by the Azure SDK); its certificate is signed by a private CA that every client trusts through
SSL_CERT_FILE. fixtures/entra_token_server.py plays Entra ID's token endpoint, App Service's
managed identity endpoint and IMDS, checks the client secret and the federated assertion, and
issues JWTs that Azurite accepts. No account key or SAS is given to Floe: every blob it writes
is authorized by a token of the chain's first configured source. The readers (delta-rs, pyiceberg)
use the account key."""
import subprocess
import uuid

import pytest
from deltalake import DeltaTable
from pyiceberg.io.pyarrow import PyArrowFileIO

from tests.integration.fixtures.azurite import Azurite
from tests.integration.fixtures.delta_race import race_delta_writers
from tests.integration.fixtures.entra_token_server import EntraTokenServer
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.tls_cert import ca_and_server_cert
from tests.integration.test_pipeline_s3 import logs_of, produce_orders, rows_by_offset, serve_catalog

class AbfssPyArrowFileIO(PyArrowFileIO):
    """pyiceberg 0.12's PyArrowFileIO with abfss://<container>@<account>.dfs.core.windows.net/<path>
    locations given to Arrow's AzureFileSystem as <container>/<path> (it passes the whole
    authority). PyArrow, not adlfs: the Azure SDK in Arrow trusts SSL_CERT_FILE whenever it
    connects, while aiohttp (adlfs) reads it once, when first imported, maybe before this module set it."""

    @staticmethod
    def parse_location(location, properties=None):
        scheme, netloc, path = PyArrowFileIO.parse_location(location, properties or {})
        if scheme in ("abfs", "abfss") and "@" in netloc:
            path = netloc.split("@", 1)[0] + path[len(netloc):]
        return scheme, netloc, path


CHAIN_VARIABLES = ("AZURE_TENANT_ID", "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_CLIENT_CERTIFICATE_PATH",
                   "AZURE_FEDERATED_TOKEN_FILE", "AZURE_AUTHORITY_HOST", "AZURE_TOKEN_CREDENTIALS", "IDENTITY_ENDPOINT",
                   "IDENTITY_HEADER", "MSI_ENDPOINT", "MSI_SECRET", "IMDS_ENDPOINT", "AZURE_POD_IDENTITY_AUTHORITY_HOST")


@pytest.fixture(scope="module")
def tls(tmp_path_factory):
    return ca_and_server_cert(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def azurite(tmp_path_factory, tls):
    with Azurite(tmp_path_factory.mktemp("azurite-tls"), tls=tls) as server:
        yield server


@pytest.fixture
def entra(tls, monkeypatch):
    """The token services, and an environment with nothing of the chain but the trusted CA."""
    for name in CHAIN_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SSL_CERT_FILE", tls[0])
    # Off Azure IMDS is not there: a source a test forgot must not be found by accident.
    monkeypatch.setenv("AZURE_POD_IDENTITY_AUTHORITY_HOST", "http://127.0.0.1:1")
    with EntraTokenServer(tls[1], tls[2]) as server:
        yield server


def service_principal_env(monkeypatch, entra, secret=None):
    monkeypatch.setenv("AZURE_TENANT_ID", entra.tenant)
    monkeypatch.setenv("AZURE_CLIENT_ID", entra.client_id)
    monkeypatch.setenv("AZURE_CLIENT_SECRET", secret or entra.client_secret)
    monkeypatch.setenv("AZURE_AUTHORITY_HOST", entra.url)


def default_storage(azurite):
    return {"azure": {"account": azurite.account, "endpoint": azurite.endpoint, "credentials": "default"}}


def delta_storage_options(azurite):
    # Readers use the account key; delta-rs's rustls trusts the CA through SSL_CERT_FILE.
    return {"azure_storage_account_name": azurite.account, "azure_storage_account_key": azurite.key,
            "azure_storage_endpoint": azurite.endpoint, "timeout": "30s"}


def azure_floe(floe_bin, tmp_path, kafka, schema_registry, topic, warehouse, storage, formats=("iceberg", "delta")):
    return FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.orders", "formats": list(formats)}],
                   registry_url=schema_registry.url, extra={"warehouse": warehouse, "storage": storage})


def secrets_of(entra):
    return [entra.client_secret, entra.federated_assertion, entra.identity_header, *entra.issued]


def assert_no_secret(text, entra):
    for secret in secrets_of(entra):
        assert secret not in text, "a secret or token reached the output"


def test_env_service_principal_writes_both_formats_read_alike(kafka, schema_registry, floe_bin, azurite, entra,
                                                               tmp_path, monkeypatch):
    service_principal_env(monkeypatch, entra)
    container = azurite.create_container()
    warehouse = azurite.warehouse(container)
    topic = f"azentra-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 2000)
    floe = azure_floe(floe_bin, tmp_path, kafka, schema_registry, topic, warehouse, default_storage(azurite))

    # The probe on demand: conditional creates honoured with nothing but the chain.
    check = subprocess.run([str(floe_bin), "validate", "--config", str(floe.write_config()), "--check-storage"],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "conditional create: honoured" in check.stdout, check.stdout
    assert "credentials: Azure default credential chain: environment service principal" in check.stdout, check.stdout

    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "conditional create honoured" in result.stderr
    blobs = azurite.blobs(container, "wh/kafka/orders/")
    commits = [b for b in blobs if "/_delta_log/" in b and b.endswith(".json")]
    assert commits and any(b.endswith(".parquet") for b in blobs)
    # Both clients took their tokens from the service principal: Arrow's SDK for the data files,
    # Floe for the conditional creates, each once per process (cached for the run).
    assert entra.granted(floe=False) and entra.granted(floe=True)
    assert all(g["credential"] == "secret" and g["scope"] == "https://storage.azure.com/.default"
               for g in entra.grants), entra.grants
    assert len(entra.granted(floe=True)) == 2, entra.grants  # validate, then run
    assert not any("refused" in g for g in entra.grants), entra.grants

    proc, url = serve_catalog(floe_bin, floe.write_config(), tmp_path / "catalog.log")
    try:
        from pyiceberg.catalog.rest import RestCatalog
        # Endpoint and scheme come from LoadTable; the key is the reader's own (Floe hands out none).
        table = RestCatalog("floe", uri=url, **{"adls.account-key": azurite.key,
                                               "py-io-impl": f"{__name__}.AbfssPyArrowFileIO"}).load_table("kafka.orders")
        assert table.io.properties["adls.blob-storage-scheme"] == "https"
        iceberg = rows_by_offset(table.scan().to_arrow().to_pylist())
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    dt = DeltaTable(f"{warehouse}/kafka/orders", storage_options=delta_storage_options(azurite))
    delta = rows_by_offset(dt.to_pyarrow_table().to_pylist())
    assert len(iceberg) == 2000
    assert iceberg == delta
    assert_no_secret(logs_of(tmp_path) + result.stdout + result.stderr + check.stdout + check.stderr, entra)


def test_racing_delta_writers_with_the_default_chain_exactly_one_wins_each_version(floe_bin, tool, azurite, entra,
                                                                                    tmp_path, monkeypatch):
    service_principal_env(monkeypatch, entra)
    race_delta_writers(floe_bin, tool, tmp_path, azurite.warehouse(azurite.create_container()), default_storage(azurite),
                       delta_storage_options(azurite), "409 BlobAlreadyExists")
    assert len(entra.granted(floe=True)) >= 5  # every writer process took a token of its own


@pytest.mark.parametrize("source", ["workload_identity", "app_service", "imds"])
def test_managed_and_workload_identities_authorize_delta_commits(kafka, schema_registry, floe_bin, azurite, entra,
                                                                   tmp_path, monkeypatch, source):
    """The chain's later sources, each alone in the environment: AKS workload identity (the
    federated token file is the client assertion), App Service's identity endpoint, and IMDS."""
    if source == "workload_identity":
        token_file = tmp_path / "azure-identity-token"
        token_file.write_text(entra.federated_assertion)
        monkeypatch.setenv("AZURE_TENANT_ID", entra.tenant)
        monkeypatch.setenv("AZURE_CLIENT_ID", entra.client_id)
        monkeypatch.setenv("AZURE_FEDERATED_TOKEN_FILE", str(token_file))
        monkeypatch.setenv("AZURE_AUTHORITY_HOST", entra.url)
        expected, described = "client_credentials", "workload identity with AZURE_FEDERATED_TOKEN_FILE"
    elif source == "app_service":
        monkeypatch.setenv("IDENTITY_ENDPOINT", entra.url + "/msi/token")
        monkeypatch.setenv("IDENTITY_HEADER", entra.identity_header)
        expected, described = "app_service", "managed identity IDENTITY_ENDPOINT"
    else:
        monkeypatch.setenv("AZURE_POD_IDENTITY_AUTHORITY_HOST", entra.url)
        expected, described = "imds", f"managed identity (IMDS {entra.url})"
    container = azurite.create_container()
    topic = f"azmi-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 300, partitions=1)
    result = azure_floe(floe_bin, tmp_path, kafka, schema_registry, topic, azurite.warehouse(container),
                        default_storage(azurite), formats=("delta",)).run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "conditional create honoured" in result.stderr
    assert described in result.stderr, result.stderr[-3000:]
    assert [g["source"] for g in entra.granted(floe=True)] == [expected], entra.grants
    assert {g["source"] for g in entra.granted(floe=False)} == {expected}, entra.grants
    if source == "workload_identity":
        assert entra.granted(floe=True)[0]["assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    rows = DeltaTable(f"{azurite.warehouse(container)}/kafka/orders",
                      storage_options=delta_storage_options(azurite)).to_pyarrow_table()
    assert rows.num_rows == 300
    assert_no_secret(logs_of(tmp_path) + result.stdout + result.stderr, entra)


def test_wrong_client_secret_is_a_clear_error_naming_the_source(kafka, schema_registry, floe_bin, azurite, entra,
                                                                 tmp_path, monkeypatch):
    wrong = "not-the-secret-" + uuid.uuid4().hex
    service_principal_env(monkeypatch, entra, secret=wrong)
    topic = f"azbad-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    warehouse = azurite.warehouse(azurite.create_container())
    result = azure_floe(floe_bin, tmp_path, kafka, schema_registry, topic, warehouse,
                        default_storage(azurite)).run_batch(timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert f"probing the warehouse {warehouse}" in result.stderr, result.stderr[-2000:]
    assert "environment service principal with a client secret" in result.stderr, result.stderr[-2000:]
    assert "AADSTS7000215: Invalid client secret provided" in result.stderr, result.stderr[-2000:]
    assert wrong not in logs_of(tmp_path) + result.stdout + result.stderr
    assert_no_secret(logs_of(tmp_path) + result.stdout + result.stderr, entra)
