"""Object storage, S3 (issue #14): the warehouse on a real S3 API (moto's server with IAM
authentication enforced: signatures, keys, policies and STS are checked). The Avro pipeline
writes both formats there; pyiceberg (with the catalog URI only), DuckDB (httpfs) and delta-rs
read identical rows; Delta commits are conditional PUTs, so racing writers cannot both win a
version; an assumed role, wrong credentials and a missing bucket behave as docs/storage.md says;
no secret reaches a log line."""
import re
import select
import subprocess
import time
import uuid

import pytest
from deltalake import DeltaTable

from tests.integration.fixtures.duckdb_ext import connect
from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.fixtures.delta_race import race_delta_writers
from tests.integration.fixtures.s3_server import REGION, S3Server
from tests.integration.test_pipeline_avro import ORDER, order

READ_ONLY = {"Version": "2012-10-17", "Statement": [
    {"Effect": "Allow", "Action": ["s3:GetObject", "s3:ListBucket"], "Resource": "*"}]}
ASSUME_ONLY = {"Version": "2012-10-17", "Statement": [
    {"Effect": "Allow", "Action": "sts:AssumeRole", "Resource": "*"}]}


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    with S3Server(tmp_path_factory.mktemp("moto")) as server:
        yield server


def produce_orders(kafka, schema_registry, topic, n, partitions=2):
    kafka.create_topic(topic, partitions=partitions)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    serializer = producer.serializer(ORDER)
    for i in range(n):
        producer.send_avro(topic, serializer, order(i), partition=i % partitions)
    producer.flush()


def s3_floe(floe_bin, tmp_path, kafka, schema_registry, topic, bucket, storage, formats=("iceberg", "delta")):
    return FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                   [{"name": topic, "table": "kafka.orders", "formats": list(formats)}],
                   registry_url=schema_registry.url,
                   extra={"warehouse": f"s3://{bucket}/wh", "storage": storage})


def serve_catalog(floe_bin, config_path, log_path):
    """`floe catalog serve` on a free port; returns (process, base URL)."""
    log = open(log_path, "w")
    proc = subprocess.Popen([str(floe_bin), "catalog", "serve", "--config", str(config_path), "--listen", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=log, text=True)
    log.close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if ready:
            m = re.search(r"listening on (http://\S+)", proc.stdout.readline())
            if m:
                return proc, m.group(1)
        if proc.poll() is not None:
            break
    proc.kill()
    raise RuntimeError(f"floe catalog serve did not start:\n{log_path.read_text()[-3000:]}")


def rows_by_offset(rows):
    out = {}
    for r in rows:
        key = (r["_kafka"]["partition"], r["_kafka"]["offset"])
        assert key not in out, f"duplicate {key}"
        out[key] = (r["id"], r["customer"], r["amount"])
    return out


def delta_storage_options(s3, key):
    return {"AWS_ENDPOINT_URL": s3.endpoint, "AWS_REGION": REGION, "AWS_ACCESS_KEY_ID": key[0],
            "AWS_SECRET_ACCESS_KEY": key[1], "AWS_ALLOW_HTTP": "true"}


def duckdb_s3(s3, key):
    con = connect()
    con.execute(f"""CREATE SECRET s3 (TYPE s3, KEY_ID '{key[0]}', SECRET '{key[1]}', REGION '{REGION}',
                    ENDPOINT '127.0.0.1:{s3.port}', URL_STYLE 'path', USE_SSL false)""")
    return con


def logs_of(tmp_path):
    return "".join(p.read_text(errors="replace") for p in tmp_path.rglob("*.log"))


def test_both_formats_on_s3_read_alike_by_pyiceberg_duckdb_and_delta_rs(kafka, schema_registry, floe_bin, s3,
                                                                         tmp_path, monkeypatch):
    bucket = s3.create_bucket()
    writer = s3.create_user({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:ListBucket"],
         "Resource": [f"arn:aws:s3:::{bucket}", f"arn:aws:s3:::{bucket}/wh/*"]}]})
    reader = s3.create_user(READ_ONLY)
    # Secrets come from the environment and a file, never from floe.yaml itself.
    monkeypatch.setenv("FLOE_TEST_S3_KEY", writer[0])
    secret_file = tmp_path / "s3-secret"
    secret_file.write_text(writer[1] + "\n")
    storage = s3.storage_config(access_key_id="${env:FLOE_TEST_S3_KEY}", secret_access_key=f"${{file:{secret_file}}}",
                                credentials="static", reader_access_key_id=reader[0],
                                reader_secret_access_key=reader[1])
    topic = f"s3dual-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 2000)
    floe = s3_floe(floe_bin, tmp_path, kafka, schema_registry, topic, bucket, storage)
    result = floe.run_batch()
    assert result.returncode == 0, result.stderr[-3000:]
    assert "conditional create honoured" in result.stderr
    keys = s3.keys(bucket, "wh/kafka/orders/")
    assert any("/_delta_log/" in k for k in keys) and any(k.endswith(".parquet") for k in keys)
    assert not any("_floe_probe" in k for k in s3.keys(bucket))  # the start-up probe cleans up

    # pyiceberg: nothing but the catalog URI; endpoint, region and reader keys come from LoadTable.
    proc, url = serve_catalog(floe_bin, floe.write_config(), tmp_path / "catalog.log")
    try:
        from pyiceberg.catalog.rest import RestCatalog
        table = RestCatalog("floe", uri=url).load_table("kafka.orders")
        assert table.io.properties["s3.endpoint"] == s3.endpoint
        assert table.io.properties["s3.path-style-access"] == "true"
        iceberg = rows_by_offset(table.scan().to_arrow().to_pylist())
        metadata_location = table.metadata_location
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    location = f"s3://{bucket}/wh/kafka/orders"
    delta = rows_by_offset(DeltaTable(location, storage_options=delta_storage_options(s3, reader))
                           .to_pyarrow_table().to_pylist())
    con = duckdb_s3(s3, reader)
    duck_iceberg = {(p, o): (i, c, a) for p, o, i, c, a in con.execute(
        f"select _kafka.partition, _kafka.offset, id, customer, amount from iceberg_scan('{metadata_location}')"
    ).fetchall()}
    duck_delta = {(p, o): (i, c, a) for p, o, i, c, a in con.execute(
        f"select _kafka.partition, _kafka.offset, id, customer, amount from delta_scan('{location}')").fetchall()}
    assert len(iceberg) == 2000
    assert iceberg == delta == duck_iceberg == duck_delta
    # One copy of the data: both formats reference the same objects.
    dt = DeltaTable(location, storage_options=delta_storage_options(s3, reader))
    assert {u.split("/wh/", 1)[1] for u in dt.file_uris()} == \
        {k.split("wh/", 1)[1] for k in keys if k.endswith(".parquet")}

    logs = logs_of(tmp_path)
    for secret in (writer[1], reader[1]):
        assert secret not in logs


def test_racing_delta_writers_on_s3_exactly_one_wins_each_version(floe_bin, tool, s3, tmp_path):
    race_delta_writers(floe_bin, tool, tmp_path, f"s3://{s3.create_bucket()}/wh", s3.storage_config(s3.admin_key),
                       delta_storage_options(s3, s3.admin_key), "412 PreconditionFailed")


def assumable_role(s3):
    """A user that may only assume a role that may do anything in S3: (the user's key, the role's
    ARN, the environment that makes the user the default credential chain, with STS on s3's server)."""
    base = s3.create_user(ASSUME_ONLY)
    role = s3.create_role(
        trust={"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": "*"},
                                                       "Action": "sts:AssumeRole"}]},
        policy={"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]})
    env = {"AWS_ACCESS_KEY_ID": base[0], "AWS_SECRET_ACCESS_KEY": base[1], "AWS_ENDPOINT_URL_STS": s3.endpoint,
           "AWS_EC2_METADATA_DISABLED": "true"}
    return base, role, env


def test_assumed_role_through_sts(kafka, schema_registry, floe_bin, s3, tmp_path):
    bucket = s3.create_bucket()
    base, role, env = assumable_role(s3)
    topic = f"s3role-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 300)
    import os
    # Without the role, the base user cannot write: the probe says so and Floe does not start.
    floe = s3_floe(floe_bin, tmp_path / "norole", kafka, schema_registry, topic, bucket, s3.storage_config())
    os.environ.update(env)
    try:
        denied = floe.run_batch(timeout=120)
        assert denied.returncode == 2
        assert "probing the warehouse" in denied.stderr and "AccessDenied" in denied.stderr, denied.stderr[-2000:]
        floe = s3_floe(floe_bin, tmp_path / "role", kafka, schema_registry, topic, bucket,
                       s3.storage_config(role_arn=role, external_id="acme"))
        result = floe.run_batch()
    finally:
        for k in env:
            os.environ.pop(k, None)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "assumed role " + role in result.stderr
    rows = DeltaTable(f"s3://{bucket}/wh/kafka/orders",
                      storage_options=delta_storage_options(s3, s3.admin_key)).to_pyarrow_table()
    assert rows.num_rows == 300
    assert base[1] not in logs_of(tmp_path)


def test_wrong_credentials_and_missing_bucket_are_clear_errors(kafka, schema_registry, floe_bin, s3, tmp_path):
    bucket = s3.create_bucket()
    topic = f"s3err-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=1)
    wrong_secret = "not-the-secret-" + uuid.uuid4().hex
    cases = {
        "unknown-key": (bucket, ("AKIAUNKNOWN000000000", wrong_secret), "InvalidAccessKeyId"),
        "wrong-secret": (bucket, (s3.admin_key[0], wrong_secret), "SignatureDoesNotMatch"),
        "no-bucket": ("floe-no-such-bucket", s3.admin_key, "NoSuchBucket"),
    }
    for name, (target, key, code) in cases.items():
        floe = s3_floe(floe_bin, tmp_path / name, kafka, schema_registry, topic, target, s3.storage_config(key))
        result = floe.run_batch(timeout=120)
        assert result.returncode == 2, (name, result.stderr[-2000:])
        assert f"probing the warehouse s3://{target}/wh" in result.stderr, (name, result.stderr[-2000:])
        assert code in result.stderr, (name, result.stderr[-2000:])
        assert wrong_secret not in result.stderr + result.stdout
    assert wrong_secret not in logs_of(tmp_path)
    assert s3.admin_key[1] not in logs_of(tmp_path)


def test_store_ignoring_conditional_puts_refuses_delta_unless_single_writer(kafka, schema_registry, floe_bin, s3,
                                                                            tmp_path):
    from tests.integration.fixtures.fault_proxy import FaultProxy
    bucket = s3.create_bucket()
    topic = f"s3nocond-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 200, partitions=1)
    with FaultProxy(s3.port) as proxy:
        storage = s3.storage_config(s3.admin_key, endpoint=proxy.endpoint)
        refused = s3_floe(floe_bin, tmp_path / "refused", kafka, schema_registry, topic, bucket, storage,
                          formats=["delta"]).run_batch(timeout=120)
        assert refused.returncode == 2, refused.stderr[-2000:]
        assert "formats: [delta] needs a store that refuses to create an object that exists" in refused.stderr
        assert "storage.delta_single_writer" in refused.stderr
        assert proxy.ignored >= 1
        # Iceberg does not depend on it: its commits go through the catalog.
        iceberg = s3_floe(floe_bin, tmp_path / "iceberg", kafka, schema_registry, topic, bucket, storage,
                          formats=["iceberg"]).run_batch()
        assert iceberg.returncode == 0, iceberg.stderr[-2000:]
        # The documented override: one writer, check-then-write.
        single = s3_floe(floe_bin, tmp_path / "single", kafka, schema_registry, topic, bucket,
                         {**storage, "delta_single_writer": True}, formats=["delta"])
        single.config["topics"][0]["table"] = "kafka.single"
        result = single.run_batch()
        assert result.returncode == 0, result.stderr[-2000:]
        assert "run one writer per Delta table" in result.stderr
    rows = DeltaTable(f"s3://{bucket}/wh/kafka/single",
                      storage_options=delta_storage_options(s3, s3.admin_key)).to_pyarrow_table()
    assert rows.num_rows == 200


class S3FloeRun(FloeRun):
    """FloeRun whose pyiceberg catalog reads the warehouse on the test S3 server."""

    def __init__(self, *args, s3_server=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.s3_server = s3_server

    def catalog(self):
        from pyiceberg.catalog.sql import SqlCatalog
        key = self.s3_server.admin_key
        return SqlCatalog("floe", uri=f"sqlite:///{self.warehouse_dir}/catalog.db", warehouse=self.config["warehouse"],
                          **{"s3.endpoint": self.s3_server.endpoint, "s3.region": REGION,
                             "s3.access-key-id": key[0], "s3.secret-access-key": key[1]})


def test_kill_9_at_random_moments_on_s3_exactly_once(kafka, schema_registry, floe_bin, s3, tmp_path):
    from tests.integration.fixtures.exactly_once import (BackgroundProducer, assert_exactly_once, end_offsets,
                                                         crash_while_producing)
    bucket = s3.create_bucket()
    topic = f"s3crash-{uuid.uuid4().hex[:8]}"
    kafka.create_topic(topic, partitions=2)
    producing = BackgroundProducer(kafka, schema_registry.url, topic, 2, 6_000, 15,
                                   lambda p: p.serializer(ORDER), order)
    floe = S3FloeRun(floe_bin, tmp_path, kafka.bootstrap,
                     [{"name": topic, "table": "kafka.crash", "formats": ["iceberg", "delta"]}],
                     registry_url=schema_registry.url, group_id=f"g-{topic}",
                     defaults={"commit_interval": "500ms"}, kafka_properties={"group.instance.id": "s3crash-1"},
                     extra={"warehouse": f"s3://{bucket}/wh", "storage": s3.storage_config(s3.admin_key)},
                     s3_server=s3)
    crash_while_producing(floe, producing, 5, 2.0, 5.0)
    assert_exactly_once(floe, "kafka.crash", producing.sent)
    assert floe.committed_offsets("kafka.crash") == {topic: end_offsets(producing.sent)}
    # Delta caught up to the same rows, each once.
    delta = rows_by_offset(DeltaTable(f"s3://{bucket}/wh/kafka/crash",
                                      storage_options=delta_storage_options(s3, s3.admin_key))
                           .to_pyarrow_table().to_pylist())
    assert set(delta) == set(producing.sent)


def test_validate_check_storage_reports_what_the_store_supports(floe_bin, s3, tmp_path):
    """`floe validate --check-storage`: the start-up probe on demand, with a report an operator can
    act on — and the permission each failure points at."""
    from tests.integration.fixtures.fault_proxy import FaultProxy
    bucket = s3.create_bucket()

    def check(name, key, endpoint=None, formats=("iceberg", "delta")):
        storage = s3.storage_config(key, **({"endpoint": endpoint} if endpoint else {}))
        config = FloeRun(floe_bin, tmp_path / name, "127.0.0.1:1",
                         [{"name": "orders", "value": "string", "formats": list(formats)}],
                         extra={"warehouse": f"s3://{bucket}/wh", "storage": storage}).write_config()
        result = subprocess.run([str(floe_bin), "validate", "--config", str(config), "--check-storage"],
                                capture_output=True, text=True, timeout=120)
        assert key[1] not in result.stdout + result.stderr
        return result

    def policy(*actions):
        return {"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Action": list(actions), "Resource": [f"arn:aws:s3:::{bucket}", f"arn:aws:s3:::{bucket}/*"]}]}

    ok = check("ok", s3.create_user(policy("s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:ListBucket")))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    for line in ("region: us-east-1", "credentials: static keys", "write, read, delete: ok",
                 "conditional create: honoured", "list: ok", "storage: OK"):
        assert line in ok.stdout, ok.stdout
    assert not any("_floe_probe" in k for k in s3.keys(bucket))

    read_only = check("read-only", s3.create_user(READ_ONLY))
    assert read_only.returncode == 1
    assert "AccessDenied" in read_only.stdout and "s3:PutObject" in read_only.stdout, read_only.stdout

    no_list = check("no-list", s3.create_user(policy("s3:GetObject", "s3:PutObject", "s3:DeleteObject")))
    assert no_list.returncode == 1, no_list.stdout
    assert "s3:ListBucket" in no_list.stdout, no_list.stdout

    with FaultProxy(s3.port) as proxy:
        ignoring = check("ignoring", s3.admin_key, endpoint=proxy.endpoint)
        assert ignoring.returncode == 1
        assert "conditional create: NOT honoured" in ignoring.stdout
        assert "storage.delta_single_writer" in ignoring.stdout
        iceberg_only = check("iceberg-only", s3.admin_key, endpoint=proxy.endpoint, formats=("iceberg",))
        assert iceberg_only.returncode == 0, iceberg_only.stdout


def test_catalog_vends_table_scoped_read_credentials(kafka, schema_registry, floe_bin, s3, tmp_path):
    """catalog.vend_credentials: pyiceberg gets only the catalog URI and reads with short-lived
    credentials of storage.s3.role_arn, scoped by a session policy to the table's location."""
    import os
    bucket = s3.create_bucket()
    base, role, env = assumable_role(s3)
    topic = f"s3vend-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 300)
    floe = s3_floe(floe_bin, tmp_path, kafka, schema_registry, topic, bucket, s3.storage_config(role_arn=role),
                   formats=["iceberg"])
    floe.config["catalog"]["vend_credentials"] = True
    os.environ.update(env)
    try:
        result = floe.run_batch()
        assert result.returncode == 0, result.stderr[-3000:]
        proc, url = serve_catalog(floe_bin, floe.write_config(), tmp_path / "catalog.log")
        try:
            from pyiceberg.catalog.rest import RestCatalog
            table = RestCatalog("floe", uri=url).load_table("kafka.orders")
            props = table.io.properties
            assert props.get("s3.session-token") and props.get("s3.access-key-id") not in (None, base[0])
            assert int(props["s3.session-token-expires-at-ms"]) > time.time() * 1000
            rows = table.scan().to_arrow()
            assert rows.num_rows == 300
            vended = (props["s3.access-key-id"], props["s3.secret-access-key"], props["s3.session-token"])
            # The raw REST answer carries them as storage-credentials for the table's location too.
            import requests
            loaded = requests.get(f"{url}/v1/namespaces/kafka/tables/orders", timeout=10).json()
            creds = loaded["storage-credentials"]
            assert creds[0]["prefix"] == f"s3://{bucket}/wh/kafka/orders"
            assert creds[0]["config"]["s3.session-token"] == vended[2]
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    finally:
        for k in env:
            os.environ.pop(k, None)
    # moto does not evaluate STS session policies, so that the vended credentials cannot write
    # is not checked here: the policy itself is (tests/unit/storage/vended_credentials_test.cc).
    assert base[1] not in logs_of(tmp_path)


def test_rest_catalog_client_writes_with_the_credentials_the_catalog_vends(kafka, schema_registry, floe_bin, s3,
                                                                          tmp_path):
    """catalog.access_delegation: vended-credentials (issue 15). Floe's own keys may write nothing;
    a catalog in front of Floe's server vends, as Polaris does, STS credentials of a role that may
    write the bucket, in LoadTable's storage-credentials, expiring within five minutes. Floe asks
    with X-Iceberg-Access-Delegation, writes every file with the vended keys, asks again before
    they expire, and the table reads back whole."""
    import json
    import re as regex

    import boto3
    import botocore.exceptions

    from tests.integration.fixtures.fault_proxy import FaultProxy, decoded_body
    bucket = s3.create_bucket()
    base, role, _ = assumable_role(s3)
    sts = s3._client("sts", *base)
    powerless = s3.create_user(ASSUME_ONLY)  # Floe's own keys: no S3 permission at all
    with pytest.raises(botocore.exceptions.ClientError, match="AccessDenied"):
        s3._client("s3", *powerless).put_object(Bucket=bucket, Key="wh/x", Body=b"x")

    topic = f"s3deleg-{uuid.uuid4().hex[:8]}"
    produce_orders(kafka, schema_registry, topic, 300)
    server = s3_floe(floe_bin, tmp_path / "server", kafka, schema_registry, topic, bucket,
                     s3.storage_config(s3.admin_key), formats=["iceberg"])
    proc, url = serve_catalog(floe_bin, server.write_config(), tmp_path / "catalog.log")
    vended = []

    def vend(record, status, headers, data):
        table_answer = (record["method"] == "GET" and regex.search(r"/namespaces/[^/]+/tables/[^/?]+$", record["path"])
                        or record["method"] == "POST" and record["path"].endswith("/tables"))
        if status != 200 or not table_answer:
            return status, headers, data
        headers, data = decoded_body(headers, data)
        answer = json.loads(data)
        c = sts.assume_role(RoleArn=role, RoleSessionName=f"floe-{len(vended)}", DurationSeconds=900)["Credentials"]
        vended.append(c)
        # Four minutes left: inside Floe's refresh window, so it must ask again before writing much.
        expires = int((time.time() + 240) * 1000)
        answer["storage-credentials"] = [{"prefix": answer["metadata"]["location"], "config": {
            "s3.access-key-id": c["AccessKeyId"], "s3.secret-access-key": c["SecretAccessKey"],
            "s3.session-token": c["SessionToken"], "s3.session-token-expires-at-ms": str(expires)}}]
        return status, headers, json.dumps(answer).encode()

    try:
        with FaultProxy(int(url.rsplit(":", 1)[1]), ignore_conditional=False) as catalog:
            catalog.rewrite = vend
            writer = s3_floe(floe_bin, tmp_path / "writer", kafka, schema_registry, topic, bucket,
                             s3.storage_config(powerless), formats=["iceberg"])
            writer.config["catalog"] = {"type": "rest", "uri": f"http://127.0.0.1:{catalog.port}",
                                        "access_delegation": "vended-credentials"}
            result = writer.run_batch()
            assert result.returncode == 0, result.stderr[-3000:]
            asked = [dict((k.lower(), v) for k, v in r["headers"]).get("x-iceberg-access-delegation")
                     for r in catalog.requests if "/tables" in r["path"]]
            assert asked and all(a == "vended-credentials" for a in asked)
            assert len(vended) >= 2, "the expiring credentials were not asked for again"
            assert "use the storage access the catalog delegated (vended credentials)" in result.stderr
        keys = s3.keys(bucket, "wh/kafka/orders/")
        assert any(k.endswith(".parquet") for k in keys) and any(k.endswith(".avro") for k in keys)

        from pyiceberg.catalog.rest import RestCatalog
        table = RestCatalog("floe", uri=url, **{"s3.access-key-id": s3.admin_key[0],
                                                "s3.secret-access-key": s3.admin_key[1]}).load_table("kafka.orders")
        rows = table.scan().to_arrow().to_pylist()
        assert len(rows_by_offset(rows)) == 300
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    logs = logs_of(tmp_path)
    assert powerless[1] not in logs and not any(c["SecretAccessKey"] in logs or c["SessionToken"] in logs
                                               for c in vended)
