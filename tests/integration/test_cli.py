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
    assert f"{path}:5:20: defaults.commit_interval: '10' is not a duration: use a unit of ms, s, m or h (e.g. 10s)" in lines
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
