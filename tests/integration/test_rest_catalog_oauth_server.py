"""The served REST catalog secured (issue 19, secure connections): `floe catalog serve` over HTTPS
(catalog.tls, a certificate signed by a CA the test makes with openssl) with OAuth2 client
credentials (catalog.auth: a write client and a read client, secrets from ${file:…}, tokens valid
4 s) and the static catalog.token beside them. One server serves the module.

Clients are real: pyiceberg's RestCatalog with credential="id:secret" (it fetches its token from
/v1/oauth/tokens) writes and reads through it, and `floe run` (catalog.type: rest, credential)
publishes into it for longer than several token lifetimes. Raw requests check the token endpoint's
answers against the Iceberg REST spec (OAuthTokenResponse, OAuthError) and that every mutating
route is refused with 403 to a read token and 401 without a token."""
import re
import time
import uuid

import pyarrow as pa
import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import ForbiddenError, UnauthorizedError
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField, StringType

from tests.integration.fixtures.exactly_once import BackgroundProducer, assert_exactly_once
from tests.integration.fixtures.floe_process import FloeCatalogServer
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.tls_cert import ca_and_server_cert
from tests.integration.test_pipeline_avro import ORDER, order

WRITER, READER = "floe-writer", "dashboards"
WRITER_SECRET = "wr1te-" + uuid.uuid4().hex  # unique, so a leak anywhere is found by searching for it
READER_SECRET = "re4d-" + uuid.uuid4().hex
STATIC_TOKEN = "st4tic-" + uuid.uuid4().hex
TTL = 4
SCHEMA = Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "name", StringType(), required=False))


@pytest.fixture(scope="module")
def served(floe_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("oauth-catalog")
    ca, cert, key = ca_and_server_cert(root / "tls")
    secrets = {}
    for name, secret in (("writer", WRITER_SECRET), ("reader", READER_SECRET)):
        secrets[name] = root / f"{name}-secret"
        secrets[name].write_text(secret + "\n")
    auth = {"token_ttl": f"{TTL}s", "clients": [
        {"id": WRITER, "secret": "${file:" + str(secrets["writer"]) + "}", "scope": "write"},
        {"id": READER, "secret": "${file:" + str(secrets["reader"]) + "}", "scope": "read"}]}
    with FloeCatalogServer(floe_bin, root / "warehouse", token=STATIC_TOKEN,
                           catalog_extra={"tls": {"cert": cert, "key": key}, "auth": auth}) as server:
        server.ca, server.cert, server.key = ca, cert, key
        yield server


@pytest.fixture(autouse=True)
def no_requests_ca_override(monkeypatch):
    """requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE override a session's CA bundle, so with
    either set (as on many hosts) pyiceberg's ssl.cabundle would be ignored."""
    monkeypatch.delenv("REQUESTS_CA_BUNDLE", raising=False)
    monkeypatch.delenv("CURL_CA_BUNDLE", raising=False)


def catalog(served, credential: str | None = None, **props) -> RestCatalog:
    if credential:
        props["credential"] = credential
        props["oauth2-server-uri"] = f"{served.url}/v1/oauth/tokens"  # pyiceberg warns when it guesses this
    return RestCatalog("floe", uri=served.url, ssl={"cabundle": served.ca}, **props)


def token(served, client_id: str, secret: str) -> str:
    answer = requests.post(f"{served.url}/v1/oauth/tokens", verify=served.ca, timeout=10,
                           data={"grant_type": "client_credentials", "client_id": client_id, "client_secret": secret})
    assert answer.status_code == 200, answer.text
    return answer.json()["access_token"]


def server_log(served) -> str:
    return served.log_path.read_text(errors="replace")


def test_token_endpoint_answers_as_the_spec_says(served):
    assert served.url.startswith("https://")
    url = f"{served.url}/v1/oauth/tokens"
    form = {"grant_type": "client_credentials", "client_id": WRITER, "client_secret": WRITER_SECRET, "scope": "catalog"}
    answer = requests.post(url, data=form, verify=served.ca, timeout=10)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["token_type"] == "bearer" and body["expires_in"] == TTL and len(body["access_token"]) == 43
    assert body["issued_token_type"] == "urn:ietf:params:oauth:token-type:access_token"
    assert answer.headers["Cache-Control"] == "no-store"

    # The client authenticated with HTTP Basic instead (RFC 6749 §2.3.1), as Iceberg's client may.
    basic = requests.post(url, data={"grant_type": "client_credentials"}, auth=(READER, READER_SECRET),
                          verify=served.ca, timeout=10)
    assert basic.status_code == 200 and basic.json()["access_token"] != body["access_token"]

    wrong = requests.post(url, data={**form, "client_secret": "nope"}, verify=served.ca, timeout=10)
    assert wrong.status_code == 401 and wrong.json()["error"] == "invalid_client"
    unknown = requests.post(url, data={**form, "client_id": "stranger"}, verify=served.ca, timeout=10)
    assert unknown.status_code == 401 and unknown.json()["error"] == "invalid_client"
    grant = requests.post(url, data={**form, "grant_type": "password"}, verify=served.ca, timeout=10)
    assert grant.status_code == 400 and grant.json()["error"] == "unsupported_grant_type"
    missing = requests.post(url, data={"client_id": WRITER}, verify=served.ca, timeout=10)
    assert missing.status_code == 400 and missing.json()["error"] == "invalid_request"

    # The token works until it expires; then 401, and the log says whose token expired.
    namespaces = f"{served.url}/v1/namespaces"
    bearer = {"Authorization": f"Bearer {body['access_token']}"}
    assert requests.get(namespaces, headers=bearer, verify=served.ca, timeout=10).status_code == 200
    time.sleep(TTL + 0.5)
    expired = requests.get(namespaces, headers=bearer, verify=served.ca, timeout=10)
    assert expired.status_code == 401 and expired.json()["error"]["type"] == "NotAuthorizedException"
    assert expired.headers["WWW-Authenticate"].startswith("Bearer")
    assert f"the token of client '{WRITER}' expired" in server_log(served)

    # Plain HTTP to the TLS listener gets no answer; an untrusting client refuses the certificate.
    with pytest.raises(requests.exceptions.ConnectionError):
        requests.get(served.url.replace("https://", "http://") + "/v1/config", timeout=5)
    with pytest.raises(requests.exceptions.SSLError):
        requests.get(f"{served.url}/v1/config", timeout=5)  # the system store has no test CA


def test_every_mutating_route_needs_a_write_token(served):
    read = {"Authorization": f"Bearer {token(served, READER, READER_SECRET)}"}
    ns, table = f"ro_{uuid.uuid4().hex[:6]}", "t"
    base = f"{served.url}/v1"
    routes = [
        ("POST", "/namespaces", {"namespace": [ns]}),
        ("DELETE", f"/namespaces/{ns}", None),
        ("POST", f"/namespaces/{ns}/properties", {"updates": {"a": "b"}}),
        ("POST", f"/namespaces/{ns}/tables", {"name": table, "schema": {"type": "struct", "fields": []}}),
        ("POST", f"/namespaces/{ns}/register", {"name": table, "metadata-location": "file:///x.json"}),
        ("POST", f"/namespaces/{ns}/tables/{table}", {"requirements": [], "updates": []}),
        ("DELETE", f"/namespaces/{ns}/tables/{table}", None),
        ("POST", "/tables/rename", {"source": {"namespace": [ns], "name": table},
                                    "destination": {"namespace": [ns], "name": "u"}}),
        ("POST", "/transactions/commit", {"table-changes": []}),
        ("POST", f"/namespaces/{ns}/views", {"name": "v"}),
        ("POST", f"/namespaces/{ns}/views/v", {"requirements": [], "updates": []}),
        ("DELETE", f"/namespaces/{ns}/views/v", None),
        ("POST", "/views/rename", {"source": {"namespace": [ns], "name": "v"},
                                   "destination": {"namespace": [ns], "name": "w"}}),
    ]
    for method, path, body in routes:
        refused = requests.request(method, base + path, json=body, headers=read, verify=served.ca, timeout=10)
        assert refused.status_code == 403, (method, path, refused.text)
        assert refused.json()["error"]["type"] == "ForbiddenException"
        anonymous = requests.request(method, base + path, json=body, verify=served.ca, timeout=10)
        assert anonymous.status_code == 401, (method, path, anonymous.text)
        wrong = requests.request(method, base + path, json=body, headers={"Authorization": "Bearer nope"},
                                 verify=served.ca, timeout=10)
        assert wrong.status_code == 401, (method, path, wrong.text)
    # Reads are the read token's; so is a scan report, which stores nothing.
    for method, path in (("GET", "/config"), ("GET", "/namespaces"), ("HEAD", "/namespaces")):
        assert requests.request(method, base + path, headers=read, verify=served.ca, timeout=10).status_code == 200
    report = requests.post(f"{base}/namespaces/{ns}/tables/{table}/metrics", json={}, headers=read,
                           verify=served.ca, timeout=10)
    assert report.status_code not in (401, 403), report.text
    # The static catalog.token still works, with write access.
    static = {"Authorization": f"Bearer {STATIC_TOKEN}"}
    created = requests.post(f"{base}/namespaces", json={"namespace": [ns]}, headers=static, verify=served.ca,
                            timeout=10)
    assert created.status_code == 200, created.text


def test_pyiceberg_with_client_credentials(served):
    ns = f"py_{uuid.uuid4().hex[:6]}"
    writer = catalog(served, f"{WRITER}:{WRITER_SECRET}")
    writer.create_namespace(ns)
    table = writer.create_table(f"{ns}.people", SCHEMA)
    table.append(pa.table({"id": pa.array([1, 2, 3], pa.int64()), "name": ["a", "b", "c"]}))

    reader = catalog(served, f"{READER}:{READER_SECRET}")
    rows = reader.load_table(f"{ns}.people").scan().to_arrow()
    assert sorted(rows.column("id").to_pylist()) == [1, 2, 3]
    assert (ns,) in reader.list_namespaces()
    with pytest.raises(ForbiddenError):
        reader.create_table(f"{ns}.other", SCHEMA)
    with pytest.raises(ForbiddenError):
        reader.drop_table(f"{ns}.people")
    with pytest.raises(ForbiddenError):
        reader.load_table(f"{ns}.people").append(pa.table({"id": pa.array([4], pa.int64()), "name": ["d"]}))
    assert writer.load_table(f"{ns}.people").scan().to_arrow().num_rows == 3

    with pytest.raises(UnauthorizedError):
        catalog(served).list_namespaces()  # no credential: the catalog's config is refused already
    with pytest.raises(Exception, match="invalid_client"):
        catalog(served, f"{READER}:wrong")

    log = server_log(served)
    for secret in (WRITER_SECRET, READER_SECRET, STATIC_TOKEN):
        assert secret not in log


def test_floe_run_publishes_with_oauth2_over_tls(kafka, schema_registry, floe_bin, served, tmp_path, monkeypatch):
    """`floe run` commits every 300 ms into the served catalog for ~10 s while tokens live 4 s:
    its REST client must fetch new tokens before the old ones expire (no request refused as
    expired), and every record lands exactly once."""
    monkeypatch.setenv("FLOE_TEST_CATALOG_CREDENTIAL", f"{WRITER}:{WRITER_SECRET}")
    monkeypatch.setenv("SSL_CERT_FILE", served.ca)  # how Floe's HTTPS clients trust a private CA
    topic = f"oauth-tls-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producing = BackgroundProducer(kafka, schema_registry.url, topic, 2, 3_000, 16, lambda p: p.serializer(ORDER),
                                   order)
    floe = FloeRun(floe_bin, tmp_path / "floe", kafka.bootstrap, [{"name": topic, "table": "kafka.oauth_orders"}],
                   registry_url=schema_registry.url, group_id=f"g-{topic}", defaults={"commit_interval": "300ms"},
                   admin=True)
    floe.config["admin"]["tls"] = {"cert": served.cert, "key": served.key}  # the admin API over HTTPS too
    floe.config["warehouse"] = served.warehouse
    floe.config["catalog"] = {"type": "rest", "uri": served.url, "credential": "${env:FLOE_TEST_CATALOG_CREDENTIAL}"}
    issued_before = server_log(served).count(f"issued a write token to client '{WRITER}'")
    expired_before = server_log(served).count(f"the token of client '{WRITER}' expired")
    producing.start()
    floe.start()
    assert floe.admin_url.startswith("https://")
    status = requests.get(f"{floe.admin_url}/status", verify=served.ca, timeout=10)
    assert status.status_code == 200 and WRITER_SECRET not in status.text
    with pytest.raises(requests.exceptions.SSLError):
        requests.get(f"{floe.admin_url}/healthz", timeout=5)  # not trusted without the test CA
    time.sleep(10)
    floe.kill()  # what it committed so far stays; the batch run below takes the rest
    producing.join(120)
    assert producing.sent is not None
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]

    class Served:
        def table(self, name):
            return catalog(served, f"{READER}:{READER_SECRET}").load_table(name)

    assert_exactly_once(Served(), "kafka.oauth_orders", producing.sent)
    log = server_log(served)
    assert log.count(f"the token of client '{WRITER}' expired") == expired_before, \
        re.findall(r".*expired.*", log)[-5:]
    assert log.count(f"issued a write token to client '{WRITER}'") - issued_before >= 3  # refreshed, ~every 3.6 s
    floe_logs = "".join(p.read_text(errors="replace") for p in floe.workdir.glob("*.log"))
    assert WRITER_SECRET not in floe_logs + result.stdout + result.stderr


def test_a_key_that_does_not_match_the_certificate_is_refused(floe_bin, served, tmp_path):
    other_cert = ca_and_server_cert(tmp_path / "other")[1]
    server = FloeCatalogServer(floe_bin, tmp_path / "warehouse",
                               catalog_extra={"tls": {"cert": other_cert, "key": served.key}})
    with pytest.raises(RuntimeError, match="cannot serve HTTPS with certificate .* OpenSSL refused them"):
        server.start()
