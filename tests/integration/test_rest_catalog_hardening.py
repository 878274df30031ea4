"""The served REST catalog against hostile clients (docs/security.md, "Hostile input"): raw HTTP
against `floe catalog serve` — a body over catalog.max_request_size, slow clients that trickle
their request, names that try to leave their directory, table locations outside the warehouse,
malformed JSON. Each gets its status code and the Iceberg ErrorModel, and the server keeps
serving everyone else. One server for the module (~10 s with the ASan build)."""
import json
import socket
import threading
import time

import pytest
import requests

from fixtures.floe_process import FloeCatalogServer

MAX_REQUEST = 64 * 1024
REQUEST_TIMEOUT = 2.0  # catalog.request_timeout: slow clients are cut after about this long

SCHEMA = {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": True, "type": "long"}]}


@pytest.fixture(scope="module")
def server(floe_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("hardening")
    extra = {"max_request_size": f"{MAX_REQUEST // 1024}KiB", "request_timeout": f"{int(REQUEST_TIMEOUT * 1000)}ms"}
    with FloeCatalogServer(floe_bin, root / "warehouse", catalog_extra=extra) as s:
        r = requests.post(f"{s.url}/v1/namespaces", json={"namespace": ["db"]}, timeout=10)
        assert r.status_code == 200, r.text
        yield s


def address(server):
    host, port = server.url.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def error_of(response, code):
    """The Iceberg ErrorModel of a response with this code."""
    assert response.status_code == code, (response.status_code, response.text)
    body = response.json()["error"]
    assert body["code"] == code and body["type"] and body["message"], body
    return body


def serves(server):
    r = requests.get(f"{server.url}/v1/namespaces/db", timeout=5)
    return r.status_code == 200


def raw(server, request: bytes, timeout=10.0) -> bytes:
    """Sends bytes as they are and reads the answer until the server closes or stops sending."""
    with socket.create_connection(address(server), timeout=timeout) as sock:
        sock.sendall(request)
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and b"Connection: close" not in request:
                    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
                    length = [int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length:")]
                    if length and len(body) >= length[0]:
                        break
        except socket.timeout:
            pass
        return b"".join(chunks)


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else -1


def test_body_over_the_limit_is_413_with_the_error_model(server):
    body = json.dumps({"namespace": ["big"], "properties": {"x": "y" * (MAX_REQUEST + 1)}})
    error = error_of(requests.post(f"{server.url}/v1/namespaces", data=body, timeout=10), 413)
    assert str(MAX_REQUEST) in error["message"]
    # A Content-Length alone over the limit is refused before any body is read.
    answer = raw(server, b"POST /v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 999999999999\r\n\r\n{")
    assert status_of(answer) == 413, answer[:200]
    assert b'"code":413' in answer
    # Chunked: the limit holds without a Content-Length too.
    chunk = b"a" * 8192
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(MAX_REQUEST // len(chunk) + 2))
    answer = raw(server, b"POST /v1/namespaces HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n")
    assert status_of(answer) == 413, answer[:200]
    # Just under the limit is an ordinary request.
    ok = json.dumps({"namespace": ["almost"], "properties": {f"p{i}": "y" * 500 for i in range(MAX_REQUEST // 520)}})
    assert MAX_REQUEST - 2000 < len(ok) <= MAX_REQUEST
    assert requests.post(f"{server.url}/v1/namespaces", data=ok, timeout=10).status_code == 200
    assert serves(server)


def test_slow_clients_are_cut_and_do_not_block_others(server):
    """More trickling connections than the server has threads (8): each sends one header byte
    per second, so the per-read timeout never fires; the request deadline closes them, and
    other clients are answered meanwhile."""
    slow = []
    for _ in range(12):
        sock = socket.create_connection(address(server), timeout=30)
        sock.sendall(b"GET /v1/namespaces HTTP/1.1\r\nHost: x\r\n")
        slow.append(sock)
    closed_after = {}
    start = time.monotonic()

    def trickle(i, sock):
        try:
            while time.monotonic() - start < 20:
                sock.sendall(b"X")
                time.sleep(1.0)
                sock.setblocking(False)
                try:
                    if sock.recv(1) == b"":
                        break
                except BlockingIOError:
                    pass
                finally:
                    sock.setblocking(True)
        except OSError:
            pass
        closed_after[i] = time.monotonic() - start

    threads = [threading.Thread(target=trickle, args=(i, s), daemon=True) for i, s in enumerate(slow)]
    for t in threads:
        t.start()
    # While they trickle, others are served: at first by free threads, then by the threads the
    # deadline frees. No normal request waits much longer than the deadline.
    waits = []
    while time.monotonic() - start < 3 * REQUEST_TIMEOUT + 2:
        t0 = time.monotonic()
        r = requests.get(f"{server.url}/v1/namespaces/db", timeout=4 * REQUEST_TIMEOUT + 5)
        assert r.status_code == 200
        waits.append(time.monotonic() - t0)
        time.sleep(0.3)
    for t in threads:
        t.join(timeout=30)
    for s in slow:
        s.close()
    assert len(closed_after) == len(slow)
    assert max(closed_after.values()) < 3 * REQUEST_TIMEOUT + 3, closed_after  # cut, not served for 20 s
    assert max(waits) < 2 * REQUEST_TIMEOUT + 2, waits
    assert serves(server)


def test_slow_body_is_cut_too(server):
    """Headers in time, then a body that trickles: the deadline covers the whole request."""
    with socket.create_connection(address(server), timeout=30) as sock:
        sock.sendall(b"POST /v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
        start = time.monotonic()
        closed = False
        while time.monotonic() - start < 15:
            try:
                sock.sendall(b" ")
                sock.settimeout(1.0)
                if sock.recv(1) == b"":
                    closed = True
                    break
            except socket.timeout:
                continue
            except OSError:
                closed = True
                break
        assert closed and time.monotonic() - start < 3 * REQUEST_TIMEOUT + 2
    assert serves(server)


@pytest.mark.parametrize("path", [
    "/v1/namespaces/..",                     # a dot segment as the namespace
    "/v1/namespaces/%2E%2E",                 # the same, percent-encoded
    "/v1/namespaces/%2e%2E/tables/t",
    "/v1/namespaces/db/tables/%2E%2E",
    "/v1/namespaces/db%00x",                 # NUL
    "/v1/namespaces/db/tables/a%2F..%2F..%2Fetc",  # '/' inside a name with dot pieces
    "/v1/namespaces/db/tables/%252e%252e",   # double-encoded dots
    "/v1/namespaces/db%1F..",                # a dot level in a multi-level namespace
])
def test_traversal_in_path_names_is_400(server, path):
    # Raw: HTTP clients would resolve the dot segments before sending.
    answer = raw(server, b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert status_of(answer) == 400, answer[:300]
    assert b'"code":400' in answer


@pytest.mark.parametrize("name", ["..", ".", "../../etc/passwd", "a/../b", "x\u0000y", "%2e%2e", "a\\b"])
def test_traversal_in_body_names_is_400(server, name):
    error_of(requests.post(f"{server.url}/v1/namespaces/db/tables", json={"name": name, "schema": SCHEMA}, timeout=10),
             400)
    error_of(requests.post(f"{server.url}/v1/namespaces", json={"namespace": ["db", name]}, timeout=10), 400)


def test_names_with_slash_stay_inside_the_warehouse(server):
    """'/' is allowed in names (Iceberg's catalog tests use it) but never becomes a directory."""
    r = requests.post(f"{server.url}/v1/namespaces/db/tables", json={"name": "a/b", "schema": SCHEMA}, timeout=10)
    assert r.status_code == 200, r.text
    location = r.json()["metadata"]["location"]
    assert location.startswith(server.warehouse + "/db/") and "/a/b" not in location, location


@pytest.mark.parametrize("location", [
    "/etc/floe",
    "file:///tmp",
    "file:/",
    "s3://other-bucket/t",
    "relative/path",
    "{warehouse}/../escape",
    "{warehouse}/db/%2e%2e/%2e%2e/escape",
    "{warehouse}",
    "{warehouse}x/t",           # a sibling that shares the prefix
    "file://evil-host{path}/db/t",
])
def test_table_location_outside_the_warehouse_is_403(server, location):
    loc = location.format(warehouse=server.warehouse, path=str(server.warehouse_dir))
    error = error_of(requests.post(f"{server.url}/v1/namespaces/db/tables",
                                   json={"name": "outside", "schema": SCHEMA, "location": loc}, timeout=10), 403)
    assert "outside the warehouse" in error["message"]


def test_locations_set_later_are_checked_too(server):
    r = requests.post(f"{server.url}/v1/namespaces/db/tables",
                      json={"name": "moves", "schema": SCHEMA, "location": f"{server.warehouse}/custom/moves"}, timeout=10)
    assert r.status_code == 200, r.text
    table = f"{server.url}/v1/namespaces/db/tables/moves"
    for update in ({"action": "set-location", "location": "/tmp/elsewhere"},
                   {"action": "set-properties", "updates": {"write.metadata.path": "/tmp/meta"}},
                   {"action": "set-properties", "updates": {"write.data.path": "s3://b/data"}}):
        error_of(requests.post(table, json={"requirements": [], "updates": [update]}, timeout=10), 403)
    error_of(requests.post(f"{server.url}/v1/transactions/commit", json={"table-changes": [{
        "identifier": {"namespace": ["db"], "name": "moves"}, "requirements": [],
        "updates": [{"action": "set-location", "location": "file:///"}]}]}, timeout=10), 403)
    error_of(requests.post(f"{server.url}/v1/namespaces/db/tables",
                           json={"name": "props", "schema": SCHEMA, "properties": {"write.metadata.path": "/tmp"}},
                           timeout=10), 403)
    error_of(requests.post(f"{server.url}/v1/namespaces/db/register",
                           json={"name": "reg", "metadata-location": "/etc/passwd"}, timeout=10), 403)
    # Inside the warehouse is fine.
    ok = requests.post(table, json={"requirements": [], "updates": [
        {"action": "set-location", "location": f"{server.warehouse}/custom/moved"}]}, timeout=10)
    assert ok.status_code == 200, ok.text


@pytest.mark.parametrize("body", [b"{", b"", b"[]", b"null", b'"text"', b"\xff\xfe", b'{"namespace": ["a"]',
                                  b"[" * 2000 + b"]" * 2000])
def test_malformed_json_is_400_with_the_error_model(server, body):
    for path in ("/v1/namespaces", "/v1/namespaces/db/tables", "/v1/namespaces/db/tables/moves",
                 "/v1/transactions/commit", "/v1/tables/rename", "/v1/namespaces/db/properties",
                 "/v1/namespaces/db/register", "/v1/namespaces/db/views"):
        r = requests.post(server.url + path, data=body, headers={"Content-Type": "application/json"}, timeout=10)
        error_of(r, 400)
    assert serves(server)


@pytest.mark.parametrize("request_body", [
    {"namespace": 5},
    {"name": "t", "schema": {"type": "struct", "fields": [{"id": 1, "name": "x", "type": {"type": "list"}}]}},
    {"name": "t", "schema": SCHEMA, "partition-spec": {"fields": [
        {"source-id": 1, "transform": "identity", "name": "a", "field-id": 2147483647},
        {"source-id": 1, "transform": "bucket[4]", "name": "b"}]}},
    {"name": "t", "schema": SCHEMA, "partition-spec": [1]},
    {"name": "t", "schema": SCHEMA, "stage-create": "yes"},
    {"name": 7, "schema": SCHEMA},
])
def test_wrong_shapes_are_400(server, request_body):
    error_of(requests.post(f"{server.url}/v1/namespaces/db/tables", json=request_body, timeout=10), 400)
    error_of(requests.post(f"{server.url}/v1/transactions/commit", json={"table-changes": [request_body]}, timeout=10),
             400)
    assert serves(server)


def test_garbage_http_is_answered_or_closed_and_the_server_lives(server):
    for request in (b"\x00\x01\x02\r\n\r\n", b"GET " + b"/a" * 10000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
                    b"GET / HTTP/1.1\r\n" + b"X-A: " + b"b" * 20000 + b"\r\n\r\n", b"BREW /v1 HTCPCP/1.0\r\n\r\n"):
        answer = raw(server, request, timeout=REQUEST_TIMEOUT * 3)
        assert answer == b"" or status_of(answer) >= 400, answer[:200]
    assert serves(server)
    assert server.proc.poll() is None


def test_allowed_locations_admit_a_second_place_and_nothing_beside_it(floe_bin, tmp_path):
    """catalog.allowed_locations: an operator's second storage area is accepted for tables and
    views (the catalog writes their metadata there); its siblings and parents still are not."""
    extra = tmp_path / "second-area"
    with FloeCatalogServer(floe_bin, tmp_path / "warehouse", catalog_extra={"allowed_locations": [str(extra)]}) as s:
        assert requests.post(f"{s.url}/v1/namespaces", json={"namespace": ["db"]}, timeout=10).status_code == 200
        r = requests.post(f"{s.url}/v1/namespaces/db/tables",
                          json={"name": "t", "schema": SCHEMA, "location": f"file:{extra}/db/t"}, timeout=10)
        assert r.status_code == 200, r.text
        assert r.json()["metadata-location"].startswith(f"file:{extra}/db/t/metadata/") or \
            r.json()["metadata-location"].startswith(f"file://{extra}/db/t/metadata/"), r.json()["metadata-location"]
        assert any((extra / "db" / "t" / "metadata").glob("*.metadata.json"))
        for outside in (f"{extra}x/t", str(tmp_path / "elsewhere" / "t"), f"{extra}/../escape"):
            error = error_of(requests.post(f"{s.url}/v1/namespaces/db/tables",
                                           json={"name": "o", "schema": SCHEMA, "location": outside}, timeout=10), 403)
            assert "catalog.allowed_locations" in error["message"], error
        view = {"name": "v", "location": f"{extra}/db/v", "schema": SCHEMA, "view-version": {
            "version-id": 1, "timestamp-ms": 0, "schema-id": 0, "summary": {},
            "default-namespace": ["db"], "representations": [{"type": "sql", "sql": "select 1", "dialect": "spark"}]}}
        r = requests.post(f"{s.url}/v1/namespaces/db/views", json=view, timeout=10)
        assert r.status_code == 200, r.text
