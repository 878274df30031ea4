"""The `floe` binary's user contract: --help, --version, and `floe validate` errors that
name the file, line and key."""
import subprocess
import textwrap


def run_floe(floe_bin, *args):
    return subprocess.run([str(floe_bin), *args], capture_output=True, text=True, timeout=60)


def test_help_lists_the_commands(floe_bin):
    r = run_floe(floe_bin, "--help")
    assert r.returncode == 0, r.stderr
    assert "run" in r.stdout and "validate" in r.stdout


def test_version_names_floe_and_arrow(floe_bin):
    r = run_floe(floe_bin, "--version")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("floe 0.")
    assert "Arrow 26.0.1" in r.stdout


def test_validate_accepts_a_good_config(floe_bin, tmp_path):
    cfg = tmp_path / "floe.yaml"
    cfg.write_text(textwrap.dedent("""\
        kafka:
          bootstrap_servers: "localhost:9092"
        schema_registry:
          url: "http://localhost:8081"
        warehouse: "file:///tmp/floe-wh"
        topics:
          - name: orders
            value: avro
            key: string
        """))
    r = run_floe(floe_bin, "validate", "--config", str(cfg))
    assert r.returncode == 0, r.stderr
    assert "OK (1 topic entry)" in r.stdout
    assert "orders -> kafka.orders (value: avro, key: string)" in r.stdout
    assert "warning" not in r.stderr  # the defaults keep the metadata small at any commit rate


def test_validate_warns_when_the_metadata_would_grow_large(floe_bin, tmp_path):
    """Issue 34: valid, exit 0, but a warning naming the topic, the estimate and the setting."""
    cfg = tmp_path / "floe.yaml"
    cfg.write_text(textwrap.dedent("""\
        kafka:
          bootstrap_servers: "localhost:9092"
        warehouse: "file:///tmp/floe-wh"
        defaults:
          commit_interval: 1s
        topics:
          - name: clicks
            value: json
            maintenance: {max_snapshots: 50000}
          - name: orders
            value: json
          - name: audit
            value: json
            maintenance: {enabled: false}
        """))
    r = run_floe(floe_bin, "validate", "--config", str(cfg))
    assert r.returncode == 0, r.stderr
    assert "OK (3 topic entries)" in r.stdout
    warnings = [line for line in r.stderr.splitlines() if ": warning: " in line]
    assert len(warnings) == 2, r.stderr
    assert "topic clicks: the table's metadata file would grow to about" in warnings[0]
    assert "max_snapshots 50000" in warnings[0] and "lower max_snapshots" in warnings[0]
    assert "topic audit" in warnings[1] and "maintenance is disabled" in warnings[1]


def test_validate_reports_every_error_with_line_and_key(floe_bin, tmp_path):
    cfg = tmp_path / "floe.yaml"
    cfg.write_text(textwrap.dedent("""\
        kafka:
          bootstrap_server: "localhost:9092"
        warehouse: "file:///tmp/floe-wh"
        defaults:
          commit_interval: 10
        topics:
          - name: orders
            value: avro
        """))
    r = run_floe(floe_bin, "validate", "--config", str(cfg))
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    path = str(cfg)
    assert f"{path}:2:3: kafka.bootstrap_server: unknown key (did you mean 'bootstrap_servers'?)" in lines
    assert any(l.startswith(f"{path}:") and "kafka.bootstrap_servers: required value is missing" in l for l in lines)
    assert f"{path}:5:20: defaults.commit_interval: '10' is not a duration: use a unit of ms, s, m, h or d (e.g. 10s)" in lines
    assert any("topics[0]: uses a Schema Registry format but no schema_registry.url is configured" in l for l in lines)
    assert len(lines) == 4, r.stderr


def test_validate_missing_file(floe_bin, tmp_path):
    r = run_floe(floe_bin, "validate", "--config", str(tmp_path / "nope.yaml"))
    assert r.returncode == 1
    assert "cannot open config file" in r.stderr


def test_run_with_an_invalid_config_exits_1(floe_bin, tmp_path):
    cfg = tmp_path / "floe.yaml"
    cfg.write_text("kafka: {bootstrap_servers: x}\nwarehouse: w\nbuffer_memory: 1KiB\ntopics: [{name: t}]\n")
    r = run_floe(floe_bin, "run", "--config", str(cfg))
    assert r.returncode == 1
    assert "buffer_memory: must be at least 8MiB" in r.stderr


# Every refusal `floe run` makes before it starts, as (name, floe.yaml, what both say). Config
# errors come from the one loader; the rest from the one pre-start check (apps/floe/run_preflight.h).
REFUSALS = [
    ("unknown key", 'kafka: {bootstrap_servers: "127.0.0.1:1"}\nwarehouse: /tmp/w\ntopics: [{name: t, valu: json}]\n',
     "topics[0].valu: unknown key"),
    ("registry format without a registry",
     'kafka: {bootstrap_servers: "127.0.0.1:1"}\nwarehouse: /tmp/w\ntopics: [{name: t, value: protobuf}]\n',
     "no schema_registry.url is configured"),
    ("object-store warehouse without a catalog database",
     'kafka: {bootstrap_servers: "127.0.0.1:1"}\nwarehouse: "s3://bucket/wh"\n'
     'storage: {s3: {region: us-east-1, endpoint: "http://127.0.0.1:1", path_style: true}}\n'
     'topics: [{name: t, value: json}]\n',
     "catalog.uri is required when the warehouse ('s3://bucket/wh') is not a local absolute path"),
    ("unknown librdkafka property",
     'kafka: {bootstrap_servers: "127.0.0.1:1", properties: {no.such.property: "1"}}\nwarehouse: /tmp/w\n'
     'topics: [{name: t, value: json}]\n',
     "kafka property 'no.such.property'"),
    ("invalid librdkafka value",
     'kafka: {bootstrap_servers: "127.0.0.1:1", properties: {session.timeout.ms: "soon"}}\nwarehouse: /tmp/w\n'
     'topics: [{name: t, value: json}]\n',
     "kafka property 'session.timeout.ms'"),
]


import pytest  # noqa: E402


@pytest.mark.parametrize("name,yaml,message", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_validate_refuses_exactly_what_run_refuses(floe_bin, tmp_path, name, yaml, message):
    cfg = tmp_path / "floe.yaml"
    cfg.write_text(yaml.replace("/tmp/w", str(tmp_path / "wh")))
    validate = run_floe(floe_bin, "validate", "--config", str(cfg))
    run = run_floe(floe_bin, "run", "--config", str(cfg), "--exit-when-caught-up")
    assert validate.returncode == 1 and message in validate.stderr, (validate.stdout, validate.stderr)
    assert run.returncode in (1, 2) and message in run.stderr, run.stderr
    assert "OK" not in validate.stdout


def test_catalog_serve_needs_only_warehouse_and_catalog(floe_bin, tmp_path):
    """docs/rest-catalog.md's config: no kafka, no topics."""
    import re
    import select
    import urllib.request
    cfg = tmp_path / "floe.yaml"
    cfg.write_text(f'warehouse: "{tmp_path / "wh"}"\ncatalog: {{type: builtin}}\n')
    (tmp_path / "wh").mkdir()
    proc = subprocess.Popen([str(floe_bin), "catalog", "serve", "--config", str(cfg), "--listen", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        line = proc.stdout.readline() if ready else ""
        m = re.search(r"listening on (http://\S+)", line)
        assert m, (line, proc.poll())
        with urllib.request.urlopen(m.group(1) + "/v1/config", timeout=10) as r:
            assert r.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_catalog_serve_stops_on_a_sigterm_right_after_starting(floe_bin, tmp_path):
    """A SIGTERM as soon as the address is printed once killed `floe catalog serve` (a thread
    started before the signals were blocked took it) or hung it (httplib's stop() before its
    accept loop ran is lost): it must stop cleanly, every time."""
    cfg = tmp_path / "floe.yaml"
    cfg.write_text(f'kafka: {{bootstrap_servers: "127.0.0.1:9"}}\nwarehouse: "{tmp_path / "wh"}"\n'
                   "topics: [{name: t, value: json}]\n")
    for _ in range(8):
        proc = subprocess.Popen([str(floe_bin), "catalog", "serve", "--config", str(cfg), "--listen", "127.0.0.1:0"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert "listening on" in proc.stdout.readline()
        proc.terminate()
        try:
            assert proc.wait(30) == 0, proc.stderr.read()
        finally:
            proc.kill()
            proc.communicate()
