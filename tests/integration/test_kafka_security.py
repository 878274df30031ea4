"""`floe run` against a real Kafka broker over TLS, mutual TLS, SASL/PLAIN and SASL/SCRAM-SHA-256/512
(issue 19, secure connections). One broker with all those listeners serves the module
(fixtures/secure_kafka.py); the test's producer writes Avro records over its plaintext listener and
Floe reads them over the secure one, with the secrets in kafka.properties given as ${env:…} and
${file:…} references. Each run must materialize every record exactly once, and no log line,
`floe validate` output or /status body may contain a secret. Wrong credentials, an untrusted CA or
a missing client certificate must end the run with an error naming the broker and the problem.

Floe links the librdkafka that `make deps` builds (>= 2.6.1, scripts/librdkafka/install.sh): the
SCRAM tests check that the floe binary really loads one with the SCRAM fix, then materialize over
SCRAM-SHA-256 and -512 against this Kafka 4 broker. SASL/OAUTHBEARER with OIDC: the broker's OAUTH
listener validates JWTs against the JWKS of a real OIDC token server (fixtures/oidc_server.py), and
Floe, with sasl.oauthbearer.method=oidc and the client secret from ${env:…}, gets its token there
with the client-credentials grant and materializes the topic."""
import ctypes
import pathlib
import re
import subprocess
import time
import urllib.request
import uuid

import pytest

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from confluent_kafka.admin import AdminClient

from tests.integration.fixtures.oidc_server import OidcServer
from tests.integration.fixtures.secure_kafka import PLAIN_PASSWORD, PLAIN_USER, SCRAM_USERS, SecureKafkaBroker

ORDER = {
    "type": "record", "name": "Order", "namespace": "shop",
    "fields": [{"name": "id", "type": "long"}, {"name": "item", "type": "string"}],
}
RECORDS = 50
SCRAM_FIXED = 0x020601ff  # librdkafka 2.6.1 fixed the SCRAM proof that Kafka 4 brokers reject
OIDC_CLIENT_ID, OIDC_CLIENT_SECRET = "floe-oidc", "01dc-s3cret-Hn4"


def floe_librdkafka_version(floe_bin) -> int:
    """rd_kafka_version() of the librdkafka the floe binary loads (not the Python client's own)."""
    ldd = subprocess.run(["ldd", str(floe_bin)], capture_output=True, text=True).stdout
    m = re.search(r"librdkafka\.so\.1 => (\S+)", ldd)
    assert m, f"floe does not load librdkafka.so.1:\n{ldd}"
    return ctypes.CDLL(m.group(1)).rd_kafka_version()


@pytest.fixture(scope="module")
def oidc():
    with OidcServer(OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, audience="kafka") as server:
        yield server


@pytest.fixture(scope="module")
def secure_kafka(tmp_path_factory, oidc):
    with SecureKafkaBroker(tmp_path_factory.mktemp("secure-kafka"), oidc_jwks_url=oidc.jwks_url,
                           oidc_issuer=oidc.issuer, oidc_audience=oidc.audience) as broker:
        yield broker


def produce_orders(broker, registry_url: str) -> str:
    """RECORDS Avro records on a new 2-partition topic, over the plaintext listener."""
    topic = f"secure-{uuid.uuid4().hex[:8]}"
    broker.create_topic(topic, partitions=2)
    producer = RecordProducer(broker.bootstrap, registry_url)
    serializer = producer.serializer(ORDER)
    for i in range(RECORDS):
        producer.send_avro(topic, serializer, {"id": i, "item": f"item-{i}"}, partition=i % 2)
    producer.flush()
    return topic


def mechanism(name: str, broker, tmp_path: pathlib.Path, monkeypatch) -> tuple[str, dict, list[str]]:
    """(bootstrap, kafka.properties with secret references, the secrets that must never be printed)."""
    if name == "tls":
        return broker.ssl_bootstrap, broker.client_tls(), []
    if name == "mtls":
        # The client's private key itself is the secret: ssl.key.pem read from a file reference.
        props = broker.client_tls()
        props.update({"ssl.certificate.location": broker.client_cert,
                      "ssl.key.pem": "${file:" + broker.client_key + "}"})
        key_body = pathlib.Path(broker.client_key).read_text().splitlines()[1]  # a line of base64
        return broker.mtls_bootstrap, props, [key_body]
    sasl = {"security.protocol": "SASL_SSL", "ssl.ca.location": broker.ca}
    if name == "sasl_plain":
        monkeypatch.setenv("FLOE_TEST_KAFKA_PASSWORD", PLAIN_PASSWORD)
        return broker.sasl_bootstrap, {**sasl, "sasl.mechanism": "PLAIN", "sasl.username": PLAIN_USER,
                                       "sasl.password": "${env:FLOE_TEST_KAFKA_PASSWORD}"}, [PLAIN_PASSWORD]
    scram = {"scram_sha_256": "SCRAM-SHA-256", "scram_sha_512": "SCRAM-SHA-512"}[name]
    user, password = SCRAM_USERS[scram]
    secret_file = tmp_path / "kafka-password"
    secret_file.write_text(password + "\n")  # as secret mounts write them: the newline is dropped
    return broker.sasl_bootstrap, {**sasl, "sasl.mechanism": scram, "sasl.username": user,
                                   "sasl.password": "${file:" + str(secret_file) + "}"}, [password]


def assert_no_secret(text: str, secrets: list[str], where: str) -> None:
    for secret in secrets:
        assert secret not in text, f"a secret appears in {where}"


def validate(floe_bin, config: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(floe_bin), "validate", "--config", str(config)], capture_output=True, text=True,
                          timeout=60)


def secure_run(name, broker, registry, floe_bin, tmp_path, monkeypatch, **kwargs):
    """(FloeRun for a new topic of RECORDS records over mechanism `name`, its topic, its secrets),
    after checking that `floe validate` accepts the config without printing a secret."""
    topic = produce_orders(broker, registry.url)
    bootstrap, props, secrets = mechanism(name, broker, tmp_path, monkeypatch)
    floe = FloeRun(floe_bin, tmp_path, bootstrap, [{"name": topic}], registry_url=registry.url,
                   group_id=f"floe-{name}", kafka_properties=props, **kwargs)
    checked = validate(floe_bin, floe.write_config())
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert_no_secret(checked.stdout + checked.stderr, secrets, "floe validate's output")
    assert_no_secret(floe.write_config().read_text(), secrets, "floe.yaml")  # references only
    return floe, topic, secrets


def assert_exactly_once(floe: FloeRun, topic: str) -> None:
    table = f"kafka.{topic.replace('-', '_')}"
    rows = floe.table(table).scan().to_arrow().to_pylist()
    assert sorted(r["id"] for r in rows) == list(range(RECORDS))  # each record exactly once
    assert floe.committed_offsets(table) == {topic: {0: RECORDS // 2, 1: RECORDS // 2}}


@pytest.mark.parametrize("name", ["tls", "mtls", "sasl_plain"])
def test_run_materializes_exactly_once_over_a_secure_listener(secure_kafka, schema_registry, floe_bin, tmp_path,
                                                              monkeypatch, name):
    floe, topic, secrets = secure_run(name, secure_kafka, schema_registry, floe_bin, tmp_path, monkeypatch)
    result = floe.run_batch(timeout=120)
    log = result.stdout + result.stderr
    assert result.returncode == 0, log[-4000:]
    assert_no_secret(log, secrets, "floe run's log")
    assert_exactly_once(floe, topic)


@pytest.mark.parametrize("name", ["scram_sha_256", "scram_sha_512"])
def test_scram(secure_kafka, schema_registry, floe_bin, tmp_path, monkeypatch, name):
    """The broker's SCRAM users work (the Python client's librdkafka authenticates), and Floe, which
    loads a librdkafka with the SCRAM fix (not Debian 12's 2.0.2, whose SCRAM proof every Kafka 4
    broker rejects), materializes over SCRAM."""
    version = floe_librdkafka_version(floe_bin)
    assert version >= SCRAM_FIXED, f"floe loads librdkafka {version:#010x}, older than 2.6.1: run `make deps`"
    mech = {"scram_sha_256": "SCRAM-SHA-256", "scram_sha_512": "SCRAM-SHA-512"}[name]
    user, password = SCRAM_USERS[mech]
    AdminClient({"bootstrap.servers": secure_kafka.sasl_bootstrap, "security.protocol": "SASL_SSL",
                 "ssl.ca.location": secure_kafka.ca, "sasl.mechanism": mech, "sasl.username": user,
                 "sasl.password": password}).list_topics(timeout=20)
    floe, topic, secrets = secure_run(name, secure_kafka, schema_registry, floe_bin, tmp_path, monkeypatch)
    result = floe.run_batch(timeout=120)
    log = result.stdout + result.stderr
    assert_no_secret(log, secrets, "floe run's log")
    assert result.returncode == 0, log[-4000:]
    assert_exactly_once(floe, topic)


def test_oauthbearer_oidc(secure_kafka, oidc, schema_registry, floe_bin, tmp_path, monkeypatch):
    """SASL/OAUTHBEARER with librdkafka's OIDC client: Floe fetches a JWT from the token endpoint
    with its client id and secret (the server refuses any other pair), the broker checks its
    signature against the server's JWKS, and every record is materialized exactly once."""
    topic = produce_orders(secure_kafka, schema_registry.url)
    monkeypatch.setenv("FLOE_TEST_OIDC_SECRET", OIDC_CLIENT_SECRET)
    props = {"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "OAUTHBEARER",
             "sasl.oauthbearer.method": "oidc", "sasl.oauthbearer.token.endpoint.url": oidc.token_url,
             "sasl.oauthbearer.client.id": OIDC_CLIENT_ID,
             "sasl.oauthbearer.client.secret": "${env:FLOE_TEST_OIDC_SECRET}"}
    floe = FloeRun(floe_bin, tmp_path, secure_kafka.oauth_bootstrap, [{"name": topic}],
                   registry_url=schema_registry.url, group_id="floe-oidc", kafka_properties=props)
    checked = validate(floe_bin, floe.write_config())
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert_no_secret(checked.stdout + checked.stderr, [OIDC_CLIENT_SECRET], "floe validate's output")
    result = floe.run_batch(timeout=120)
    log = result.stdout + result.stderr
    assert result.returncode == 0, log[-4000:]
    assert_no_secret(log, [OIDC_CLIENT_SECRET], "floe run's log")
    assert_exactly_once(floe, topic)


def test_oauthbearer_oidc_wrong_secret_fails_fast(secure_kafka, oidc, schema_registry, floe_bin, tmp_path,
                                                  monkeypatch):
    """The token server refuses a wrong client secret: `floe run` ends with an error naming the
    brokers, the provider's answer and the OIDC settings to check, without printing the secret."""
    topic = produce_orders(secure_kafka, schema_registry.url)
    wrong = "wr0ng-01dc-s3cret"
    monkeypatch.setenv("FLOE_TEST_OIDC_SECRET", wrong)
    props = {"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "OAUTHBEARER",
             "sasl.oauthbearer.method": "oidc", "sasl.oauthbearer.token.endpoint.url": oidc.token_url,
             "sasl.oauthbearer.client.id": OIDC_CLIENT_ID,
             "sasl.oauthbearer.client.secret": "${env:FLOE_TEST_OIDC_SECRET}"}
    floe = FloeRun(floe_bin, tmp_path, secure_kafka.oauth_bootstrap, [{"name": topic}],
                   registry_url=schema_registry.url, group_id="floe-oidc-wrong", kafka_properties=props)
    started = time.monotonic()
    result = floe.run_batch(timeout=120)
    log = result.stdout + result.stderr
    assert result.returncode != 0, log[-4000:]
    assert time.monotonic() - started < 45, f"took {time.monotonic() - started:.0f} s"
    assert_no_secret(log, [wrong, OIDC_CLIENT_SECRET], "floe run's log")
    error = next(line for line in log.splitlines() if line.startswith("floe run:"))
    assert f"cannot connect to the Kafka brokers at {secure_kafka.oauth_bootstrap}" in error, error
    assert "invalid_client" in error and "sasl.oauthbearer.client.secret" in error, error


def test_status_and_metrics_hold_no_secret(secure_kafka, schema_registry, floe_bin, tmp_path, monkeypatch):
    """A long-running `floe run` over SASL/PLAIN: records arrive, and neither /status nor
    /metrics nor the log shows the password."""
    floe, topic, secrets = secure_run("sasl_plain", secure_kafka, schema_registry, floe_bin, tmp_path, monkeypatch,
                                      admin=True)
    floe.start()
    try:
        table = f"kafka.{topic.replace('-', '_')}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if len(floe.table(table).scan().to_arrow()) == RECORDS:
                    break
            except Exception:  # the table is not there yet
                pass
            time.sleep(0.5)
        for path in ("/status", "/metrics"):
            body = urllib.request.urlopen(floe.admin_url + path, timeout=10).read().decode()
            assert_no_secret(body, secrets, path)
        assert topic in urllib.request.urlopen(floe.admin_url + "/status", timeout=10).read().decode()
    finally:
        assert floe.stop() == 0, floe.log_tail()
    assert_no_secret(floe.log_path.read_text(), secrets, "floe run's log")
    assert_exactly_once(floe, topic)


def refused(name: str, broker, tmp_path: pathlib.Path, monkeypatch) -> tuple[str, dict, list[str], str]:
    """(bootstrap, kafka.properties the broker refuses, secrets, what the error must say)."""
    if name == "wrong_password":
        monkeypatch.setenv("FLOE_TEST_KAFKA_PASSWORD", "wr0ng-" + PLAIN_PASSWORD)
        return broker.sasl_bootstrap, {"security.protocol": "SASL_SSL", "ssl.ca.location": broker.ca,
                                       "sasl.mechanism": "PLAIN", "sasl.username": PLAIN_USER,
                                       "sasl.password": "${env:FLOE_TEST_KAFKA_PASSWORD}"}, \
            ["wr0ng-" + PLAIN_PASSWORD], "Invalid username or password"
    if name == "untrusted_ca":
        return broker.ssl_bootstrap, {"security.protocol": "SSL", "ssl.ca.location": broker.other_ca}, [], \
            "certificate verify failed"
    assert name == "missing_client_cert"
    return broker.mtls_bootstrap, broker.client_tls(), [], "alert"  # OpenSSL: "sslv3 alert bad certificate" or alike


@pytest.mark.parametrize("name", ["wrong_password", "untrusted_ca", "missing_client_cert"])
def test_refused_connection_fails_fast_naming_broker_and_problem(secure_kafka, schema_registry, floe_bin, tmp_path,
                                                                 monkeypatch, name):
    topic = f"refused-{uuid.uuid4().hex[:8]}"
    bootstrap, props, secrets, problem = refused(name, secure_kafka, tmp_path, monkeypatch)
    floe = FloeRun(floe_bin, tmp_path, bootstrap, [{"name": topic}], registry_url=schema_registry.url,
                   kafka_properties=props)
    checked = validate(floe_bin, floe.write_config())  # validate checks the config, not the brokers
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for batch in (True, False):  # --exit-when-caught-up, and a service: neither retries forever
        started = time.monotonic()
        if batch:
            result = floe.run_batch(timeout=90)
            returncode, log = result.returncode, result.stdout + result.stderr
        else:
            floe.start()
            returncode = floe.proc.wait(timeout=90)
            floe.stop()
            log = floe.log_path.read_text()
        assert returncode != 0, log[-3000:]
        assert time.monotonic() - started < 45, f"took {time.monotonic() - started:.0f} s"
        error = next((line for line in log.splitlines() if line.startswith("floe run:")), log[-3000:])
        assert f"cannot connect to the Kafka brokers at {bootstrap}" in error, error
        assert problem in error, error
        assert_no_secret(log, secrets, "floe run's log")
