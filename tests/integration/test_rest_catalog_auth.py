"""Secured REST catalogs (issue 15): Floe's REST client with OAuth2 client credentials, SigV4
request signing and the /v1/config overrides, against Apache Iceberg's own REST catalog server
(tests/integration/fixtures/iceberg_rest_fixture.py).

That server issues a token for any client_credentials grant at /v1/oauth/tokens (it never checks
the client's secret, sets no expires_in, issues the same token each time) and checks no
Authorization header afterwards. So a recording proxy (FaultProxy) stands in front of it as the
gate a secured catalog has: `Gate` checks the client's credential (in the form, or as HTTP Basic),
renames each issued token uniquely with a lifetime, refuses catalog requests (401) whose bearer
token is unknown, expired or revoked, and, for SigV4, recomputes every request's signature with
botocore and answers 403 when it differs. Everything that passes goes to the real server, and
pyiceberg reads the result back from it."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import threading
import time
import urllib.parse
import uuid

import pyarrow as pa
import pyarrow.parquet as pq
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from pyiceberg.catalog.rest import RestCatalog

from tests.integration.fixtures.exactly_once import BackgroundProducer, assert_exactly_once, kill_at_random_moments
from tests.integration.fixtures.fault_proxy import FaultProxy, decoded_body
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.iceberg_rest_fixture import IcebergRestFixture
from tests.integration.test_pipeline_avro import ORDER, order

CLIENT_ID = "floe-writer"
SECRET = "s3cret-" + uuid.uuid4().hex  # unique, so a leak anywhere is found by searching for it
AWS_KEY, AWS_SECRET = "AKIDFLOETEST", "floe/test+secret"


def _json_answer(status: int, body: dict):
    return status, [("Content-Type", "application/json")], json.dumps(body).encode()


class Gate:
    """Auth rules in front of the Iceberg REST server (see the module docstring)."""

    def __init__(self, server_port: int, client_auth: str = "form", lifetime: int | None = None,
                 sigv4: tuple[str, str] | None = None, config_overrides: dict | None = None):
        self.proxy = FaultProxy(server_port, ignore_conditional=False)
        self.client_auth = client_auth  # "form" | "basic"
        self.lifetime = lifetime
        self.sigv4 = sigv4  # (region, service)
        self.config_overrides = config_overrides or {}
        self.issued: dict[str, float] = {}  # token -> expiry (monotonic; inf without a lifetime)
        self.revoked: set[str] = set()
        self.refused: list[tuple[str, str]] = []  # (path, why) of every refused request
        self.signatures_checked = 0
        self.lock = threading.Lock()
        self.proxy.intercept = self._intercept
        self.proxy.rewrite = self._rewrite

    @property
    def url(self) -> str:
        return self.proxy.endpoint

    def __enter__(self) -> "Gate":
        self.proxy.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.proxy.__exit__(*exc)

    def token_requests(self) -> list[dict]:
        return [r for r in self.proxy.requests if r["path"].startswith("/v1/oauth/tokens")]

    def catalog_requests(self) -> list[dict]:
        return [r for r in self.proxy.requests if not r["path"].startswith("/v1/oauth/tokens")]

    def _refuse(self, record, status, why):
        with self.lock:
            self.refused.append((record["path"], why))
        if record["path"].startswith("/v1/oauth/tokens"):
            return _json_answer(status, {"error": "invalid_client", "error_description": why})
        return _json_answer(status, {"error": {"message": why, "type": "NotAuthorizedException", "code": status}})

    def _intercept(self, record):
        headers = {k.lower(): v for k, v in record["headers"]}
        if record["path"].startswith("/v1/oauth/tokens"):
            form = dict(urllib.parse.parse_qsl(record["body"].decode()))
            if self.client_auth == "basic":
                expected = "Basic " + base64.b64encode(f"{CLIENT_ID}:{SECRET}".encode()).decode()
                if headers.get("authorization") != expected or "client_secret" in form:
                    return self._refuse(record, 401, "HTTP Basic client authentication required")
            elif form.get("client_id") != CLIENT_ID or form.get("client_secret") != SECRET:
                return self._refuse(record, 401, "unknown client or wrong secret")
            if form.get("grant_type") != "client_credentials" or form.get("scope") != "catalog":
                return self._refuse(record, 400, f"unexpected grant {form.get('grant_type')} / {form.get('scope')}")
            return None
        if self.sigv4:
            why = self._signature_problem(record, headers)
            if why:
                return self._refuse(record, 403, why)
        bearer_header = "original-authorization" if self.sigv4 else "authorization"
        bearer = (headers.get(bearer_header) or "").removeprefix("Bearer ")
        with self.lock:
            expires = self.issued.get(bearer)
            if expires is None:
                why = "unknown token"
            elif bearer in self.revoked:
                why = "revoked token"
            elif time.monotonic() >= expires:
                why = "expired token"
            else:
                return None
        return self._refuse(record, 401, why)

    def _signature_problem(self, record, headers) -> str | None:
        auth = headers.get("authorization", "")
        if not auth.startswith("AWS4-HMAC-SHA256 "):
            return "not SigV4-signed"
        signed = auth.split("SignedHeaders=")[1].split(",")[0].split(";")
        request = AWSRequest(method=record["method"], url=f"http://{headers['host']}{record['path']}",
                             data=record["body"], headers={k: headers[k] for k in signed})
        region, service = self.sigv4
        signer = SigV4Auth(Credentials(AWS_KEY, AWS_SECRET, headers.get("x-amz-security-token")), service, region)
        request.context["timestamp"] = headers["x-amz-date"]
        canonical = signer.canonical_request(request)
        expected = signer.signature(signer.string_to_sign(request, canonical), request)
        if f"Signature={expected}" not in auth:
            return f"signature mismatch; botocore's canonical request: {canonical!r}"
        if "host" not in signed or "x-amz-content-sha256" not in signed:
            return f"signed headers {signed} miss host or the payload hash"
        # botocore takes the payload hash from that header when present: check it is the body's.
        if headers["x-amz-content-sha256"] != hashlib.sha256(record["body"]).hexdigest():
            return "x-amz-content-sha256 is not the body's hash"
        with self.lock:
            self.signatures_checked += 1
        return None

    def _rewrite(self, record, status, headers, data):
        if status != 200:
            return status, headers, data
        if record["path"].startswith("/v1/oauth/tokens"):
            headers, data = decoded_body(headers, data)
            body = json.loads(data)
            with self.lock:
                token = f"tok-{len(self.issued) + 1}"
                self.issued[token] = time.monotonic() + self.lifetime if self.lifetime else float("inf")
            body["access_token"] = token
            if self.lifetime:
                body["expires_in"] = self.lifetime
            return status, headers, json.dumps(body).encode()
        if record["path"].startswith("/v1/config") and self.config_overrides:
            headers, data = decoded_body(headers, data)
            body = json.loads(data)
            body.setdefault("overrides", {}).update(self.config_overrides)
            return status, headers, json.dumps(body).encode()
        return status, headers, data


def rows(start: int, n: int) -> pa.Table:
    return pa.table({"id": pa.array(range(start, start + n), pa.int64()),
                     "name": [f"n{i}" for i in range(start, start + n)]})


def append(tool, tmp_path, uri: str, table: str, n: int, *extra, env=None) -> subprocess.CompletedProcess:
    src = tmp_path / f"{uuid.uuid4().hex}.parquet"
    pq.write_table(rows(0, n), src)
    return subprocess.run([str(tool("floe_iceberg_append")), "--catalog-type", "rest", "--catalog-uri", uri,
                           "--table", table, "--input", str(src), *extra],
                          capture_output=True, text=True, timeout=180, env=env)


def read_ids(server_url: str, table: str) -> list:
    return sorted(r["id"] for r in RestCatalog("reader", uri=server_url).load_table(table).scan().to_arrow().to_pylist())


def assert_no_secret(*texts: str) -> None:
    for text in texts:
        assert SECRET not in text
        assert "tok-" not in text  # nor any issued token


def test_oauth2_client_credentials_in_the_form(tool, tmp_path):
    with IcebergRestFixture(tmp_path / "srv") as server, Gate(int(server.url.rsplit(":", 1)[1])) as gate:
        table = f"{'oauth_' + uuid.uuid4().hex[:6]}.t"
        out = append(tool, tmp_path, gate.url, table, 5, "--credential", f"{CLIENT_ID}:{SECRET}",
                     "--warehouse", "lake")
        assert out.returncode == 0, out.stderr
        tokens = gate.token_requests()
        assert len(tokens) == 1
        assert dict(urllib.parse.parse_qsl(tokens[0]["body"].decode())) == {
            "grant_type": "client_credentials", "client_id": CLIENT_ID, "client_secret": SECRET, "scope": "catalog"}
        catalog = gate.catalog_requests()
        assert catalog[0]["method"] == "GET" and catalog[0]["path"] == "/v1/config?warehouse=lake"
        assert all(dict(r["headers"]).get("Authorization") == "Bearer tok-1" for r in catalog), gate.refused
        assert gate.refused == [] and len(catalog) >= 4  # config, namespace, create, commit
        assert_no_secret(out.stdout, out.stderr)
        assert read_ids(server.url, table) == list(range(5))

        # A wrong secret is refused at the token endpoint, and the message does not quote it.
        wrong = "wrong-" + SECRET
        denied = append(tool, tmp_path, gate.url, table, 1, "--credential", f"{CLIENT_ID}:{wrong}")
        assert denied.returncode == 1
        assert "invalid_client" in denied.stderr and "not authorized" in denied.stderr, denied.stderr
        assert wrong not in denied.stderr and wrong not in denied.stdout


def test_oauth2_client_authenticated_with_http_basic(tool, tmp_path):
    with IcebergRestFixture(tmp_path / "srv") as server, \
            Gate(int(server.url.rsplit(":", 1)[1]), client_auth="basic") as gate:
        table = f"{'basic_' + uuid.uuid4().hex[:6]}.t"
        out = append(tool, tmp_path, gate.url, table, 3, "--credential", f"{CLIENT_ID}:{SECRET}")
        assert out.returncode == 0, out.stderr
        form_try, basic_try = gate.token_requests()
        assert "client_secret" in form_try["body"].decode()
        assert dict(basic_try["headers"])["Authorization"] == \
            "Basic " + base64.b64encode(f"{CLIENT_ID}:{SECRET}".encode()).decode()
        assert SECRET not in basic_try["body"].decode()
        assert gate.refused == [("/v1/oauth/tokens", "HTTP Basic client authentication required")]
        assert_no_secret(out.stdout, out.stderr)
        assert read_ids(server.url, table) == list(range(3))


def test_oauth2_token_fetched_again_after_a_401(tool, tmp_path):
    with IcebergRestFixture(tmp_path / "srv") as server, Gate(int(server.url.rsplit(":", 1)[1])) as gate:
        original = gate.proxy.intercept

        def revoke_after_config(record):
            answer = original(record)
            if record["path"].startswith("/v1/config") and answer is None:
                gate.revoked.add("tok-1")  # the catalog revokes the token right after the first call
            return answer

        gate.proxy.intercept = revoke_after_config
        table = f"{'revoked_' + uuid.uuid4().hex[:6]}.t"
        out = append(tool, tmp_path, gate.url, table, 4, "--credential", f"{CLIENT_ID}:{SECRET}")
        assert out.returncode == 0, out.stderr
        assert len(gate.token_requests()) == 2
        assert len(gate.refused) == 1 and gate.refused[0][1] == "revoked token"
        # The refused request went again, with the new token, and everything after it too.
        refused_path = gate.refused[0][0]
        catalog = gate.catalog_requests()
        index = [i for i, r in enumerate(catalog) if r["path"] == refused_path][0]
        assert dict(catalog[index]["headers"])["Authorization"] == "Bearer tok-1"
        assert catalog[index + 1]["path"] == refused_path
        assert all(dict(r["headers"])["Authorization"] == "Bearer tok-2" for r in catalog[index + 1:])
        assert read_ids(server.url, table) == list(range(4))


def test_sigv4_signatures_verified_by_botocore(tool, tmp_path):
    env = {**os.environ, "AWS_ACCESS_KEY_ID": AWS_KEY, "AWS_SECRET_ACCESS_KEY": AWS_SECRET,
           "AWS_SESSION_TOKEN": "session-token", "AWS_EC2_METADATA_DISABLED": "true"}
    env.pop("AWS_PROFILE", None)
    with IcebergRestFixture(tmp_path / "srv") as server, \
            Gate(int(server.url.rsplit(":", 1)[1]), sigv4=("eu-west-1", "glue")) as gate:
        # Two namespace levels: the path carries the server's escaped separator (%2E), which AWS
        # signs encoded twice; with OAuth2 on top, the bearer token rides as Original-Authorization.
        table = f"{'sig_' + uuid.uuid4().hex[:6]}.raw.t"
        args = ["--credential", f"{CLIENT_ID}:{SECRET}", "--sigv4-region", "eu-west-1", "--sigv4-service", "glue",
                "--warehouse", "arn:aws:s3tables:eu-west-1:111122223333:bucket/lake"]
        out = append(tool, tmp_path, gate.url, table, 6, *args, env=env)
        assert out.returncode == 0, (out.stderr, gate.refused)
        assert gate.refused == []
        catalog = gate.catalog_requests()
        assert gate.signatures_checked == len(catalog) >= 4
        assert any("%2E" in r["path"] for r in catalog)
        assert catalog[0]["path"] == "/v1/config?warehouse=arn%3Aaws%3As3tables%3Aeu-west-1%3A111122223333%3Abucket%2Flake"
        assert all(dict(r["headers"])["x-amz-security-token"] == "session-token" for r in catalog)
        assert "x-amz-date" not in dict(gate.token_requests()[0]["headers"])  # the token request is not signed
        assert read_ids(server.url, table) == list(range(6))

        # The check is real: signed with another secret, every catalog request is refused.
        before = len(gate.refused)
        bad = append(tool, tmp_path, gate.url, table, 1, *args, env={**env, "AWS_SECRET_ACCESS_KEY": "other"})
        assert bad.returncode == 1
        assert "403" in bad.stderr and len(gate.refused) > before
        assert all("signature mismatch" in why for _, why in gate.refused[before:])


def test_config_uri_override_moves_the_service(tool, tmp_path):
    with IcebergRestFixture(tmp_path / "srv") as server:
        with Gate(int(server.url.rsplit(":", 1)[1])) as direct, \
                Gate(int(server.url.rsplit(":", 1)[1]), config_overrides={}) as entry:
            # The entry point's /v1/config sends the client to the other address, as a catalog
            # behind a load balancer may; both gates share the token table.
            entry.config_overrides = {"uri": direct.url}
            direct.issued = entry.issued
            table = f"{'moved_' + uuid.uuid4().hex[:6]}.t"
            out = append(tool, tmp_path, entry.url, table, 2, "--credential", f"{CLIENT_ID}:{SECRET}")
            assert out.returncode == 0, out.stderr
            assert [r["path"] for r in entry.proxy.requests] == ["/v1/oauth/tokens", "/v1/config"]
            assert len(direct.catalog_requests()) >= 3 and direct.refused == []
            assert read_ids(server.url, table) == list(range(2))


class RestTables:
    """What exactly_once.read_rows needs of a FloeRun (`table(name)`), read through the REST server."""

    def __init__(self, url: str):
        self.url = url

    def table(self, name: str):
        return RestCatalog("reader", uri=self.url).load_table(name)


def test_floe_run_with_oauth2_token_refresh_exactly_once(kafka, schema_registry, floe_bin, tmp_path, monkeypatch):
    """`floe run` publishes through the gate with OAuth2 (the credential a secret reference) while
    tokens live 4 s: one long run while records keep coming (commits every 300 ms, so the tokens
    must be refreshed ahead of expiry), then kills at random moments and restarts, then a batch
    run to the end. Every record lands once, no request carried an expired token, and no log
    holds the secret or a token."""
    monkeypatch.setenv("FLOE_TEST_REST_CREDENTIAL", f"{CLIENT_ID}:{SECRET}")
    topic = f"rest-oauth-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producing = BackgroundProducer(kafka, schema_registry.url, topic, 2, 6_000, 16, lambda p: p.serializer(ORDER),
                                   order)
    with IcebergRestFixture(tmp_path / "srv") as server, \
            Gate(int(server.url.rsplit(":", 1)[1]), lifetime=4) as gate:
        floe = FloeRun(floe_bin, tmp_path / "floe", kafka.bootstrap, [{"name": topic, "table": "kafka.oauth_orders"}],
                       registry_url=schema_registry.url, group_id=f"g-{topic}",
                       defaults={"commit_interval": "300ms"}, kafka_properties={"group.instance.id": "oauth-1"})
        floe.config["warehouse"] = server.warehouse
        floe.config["catalog"] = {"type": "rest", "uri": gate.url, "credential": "${env:FLOE_TEST_REST_CREDENTIAL}",
                                  "warehouse": "lake"}
        producing.start()
        floe.start()
        time.sleep(9)
        floe.kill()
        long_run_tokens = len(gate.token_requests())
        kill_at_random_moments(floe, 2, 0.8, 2.5)
        producing.join(120)
        assert producing.sent is not None
        result = floe.run_batch()
        assert result.returncode == 0, result.stderr[-3000:]
        assert_exactly_once(RestTables(server.url), "kafka.oauth_orders", producing.sent)
        assert not [why for _, why in gate.refused if why == "expired token"], gate.refused
        assert long_run_tokens >= 3, long_run_tokens  # the first, then refreshed at ~3.6 s and ~7.2 s
        logs = "".join(p.read_text(errors="replace") for p in (tmp_path / "floe").glob("*.log"))
        assert_no_secret(logs)
