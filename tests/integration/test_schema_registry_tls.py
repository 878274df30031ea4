"""`floe run` against a Schema Registry served over HTTPS that requires credentials (issue 19,
secure connections). One registry serves the module (fixtures/schema_registry.py with `tls`): a
certificate for 127.0.0.1 signed by a CA the test makes with openssl (fixtures/tls_cert.py),
HTTP basic auth or a bearer token required. Floe trusts the CA through schema_registry.ca_file and
reads its secrets from ${env:…} / ${file:…} references; every run must materialize every record,
and no output or log may hold a secret. A wrong password and an untrusted CA must end the batch
run with exit 1 and an error naming the registry URL (never a secret)."""
import io
import json
import struct
import uuid

import fastavro
import pytest

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.schema_registry import SchemaRegistry
from tests.integration.fixtures.tls_cert import ca_and_server_cert

ORDER = {
    "type": "record", "name": "Order", "namespace": "shop",
    "fields": [{"name": "id", "type": "long"}, {"name": "item", "type": "string"}],
}
RECORDS = 30
USER = "floe-reader"
PASSWORD = "r3gistry-pw-" + uuid.uuid4().hex  # unique, so a leak anywhere is found by searching for it
TOKEN = "r3gistry-token-" + uuid.uuid4().hex


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory):
    directory = tmp_path_factory.mktemp("registry-tls")
    ca, cert, key = ca_and_server_cert(directory / "ca")
    other_ca = ca_and_server_cert(directory / "other")[0]  # signs nothing the registry presents
    return {"ca": ca, "cert": cert, "key": key, "other_ca": other_ca}


@pytest.fixture(scope="module")
def secure_registry(tls_files):
    with SchemaRegistry(basic_auth=(USER, PASSWORD), bearer_token=TOKEN,
                        tls=(tls_files["cert"], tls_files["key"])) as registry:
        yield registry


def produce_orders(kafka, registry) -> str:
    """RECORDS Avro records in the Confluent wire format, the schema registered directly."""
    topic = f"sr-tls-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    schema_id = registry.register(f"{topic}-value", json.dumps(ORDER))
    parsed = fastavro.parse_schema(ORDER)
    producer = RecordProducer(kafka.bootstrap)
    for i in range(RECORDS):
        out = io.BytesIO()
        out.write(b"\0" + struct.pack(">i", schema_id))
        fastavro.schemaless_writer(out, parsed, {"id": i, "item": f"item-{i}"})
        producer.send_raw(topic, out.getvalue(), partition=i % 2)
    producer.flush()
    return topic


def floe_for(floe_bin, tmp_path, kafka, topic, registry_section: dict) -> FloeRun:
    floe = FloeRun(floe_bin, tmp_path / "floe", kafka.bootstrap, [{"name": topic, "table": "kafka.orders"}],
                   group_id=f"g-{topic}")
    floe.config["schema_registry"] = registry_section
    return floe


def all_output(floe: FloeRun, result) -> str:
    logs = "".join(p.read_text(errors="replace") for p in floe.workdir.glob("*.log"))
    return result.stdout + result.stderr + logs


def test_basic_auth_over_https(kafka, floe_bin, secure_registry, tls_files, tmp_path, monkeypatch):
    monkeypatch.setenv("FLOE_TEST_REGISTRY_PASSWORD", PASSWORD)
    topic = produce_orders(kafka, secure_registry)
    floe = floe_for(floe_bin, tmp_path, kafka, topic, {
        "url": secure_registry.url, "ca_file": tls_files["ca"],
        "basic_auth_user": USER, "basic_auth_password": "${env:FLOE_TEST_REGISTRY_PASSWORD}"})
    assert secure_registry.url.startswith("https://")
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    rows = floe.table("kafka.orders").scan().to_arrow()
    assert sorted(rows.column("id").to_pylist()) == list(range(RECORDS))
    assert any(p.startswith("/schemas/ids/") for _, p in secure_registry.request_log)
    assert PASSWORD not in all_output(floe, result)


def test_bearer_token_from_a_file_over_https(kafka, floe_bin, secure_registry, tls_files, tmp_path):
    token_file = tmp_path / "registry-token"
    token_file.write_text(TOKEN + "\n")  # as secret mounts write them: the newline is dropped
    topic = produce_orders(kafka, secure_registry)
    floe = floe_for(floe_bin, tmp_path, kafka, topic, {
        "url": secure_registry.url, "ca_file": tls_files["ca"], "bearer_token": "${file:" + str(token_file) + "}"})
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert floe.table("kafka.orders").scan().to_arrow().num_rows == RECORDS
    assert TOKEN not in all_output(floe, result)


def test_ca_from_ssl_cert_file(kafka, floe_bin, secure_registry, tls_files, tmp_path, monkeypatch):
    """Without ca_file, OpenSSL's SSL_CERT_FILE names the trusted CA (as for Floe's other clients)."""
    monkeypatch.setenv("SSL_CERT_FILE", tls_files["ca"])
    topic = produce_orders(kafka, secure_registry)
    floe = floe_for(floe_bin, tmp_path, kafka, topic, {"url": secure_registry.url, "bearer_token": TOKEN})
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert floe.table("kafka.orders").scan().to_arrow().num_rows == RECORDS


def test_wrong_password_ends_the_run(kafka, floe_bin, secure_registry, tls_files, tmp_path, monkeypatch):
    wrong = "wrong-" + PASSWORD
    monkeypatch.setenv("FLOE_TEST_REGISTRY_PASSWORD", wrong)
    topic = produce_orders(kafka, secure_registry)
    floe = floe_for(floe_bin, tmp_path, kafka, topic, {
        "url": secure_registry.url, "ca_file": tls_files["ca"],
        "basic_auth_user": USER, "basic_auth_password": "${env:FLOE_TEST_REGISTRY_PASSWORD}"})
    result = floe.run_batch(timeout=120)
    assert result.returncode == 1, result.stderr[-3000:]
    assert secure_registry.url in result.stderr and "refused the credentials (HTTP 401" in result.stderr, result.stderr
    assert "basic_auth_user/basic_auth_password" in result.stderr
    assert wrong not in all_output(floe, result) and PASSWORD not in all_output(floe, result)


def test_untrusted_ca_ends_the_run(kafka, floe_bin, secure_registry, tls_files, tmp_path):
    topic = produce_orders(kafka, secure_registry)
    floe = floe_for(floe_bin, tmp_path, kafka, topic, {
        "url": secure_registry.url, "ca_file": tls_files["other_ca"], "bearer_token": TOKEN})
    result = floe.run_batch(timeout=120)
    assert result.returncode == 1, result.stderr[-3000:]
    assert secure_registry.url in result.stderr and "TLS" in result.stderr, result.stderr
    assert tls_files["other_ca"] in result.stderr  # names the file it trusted
    assert TOKEN not in all_output(floe, result)
