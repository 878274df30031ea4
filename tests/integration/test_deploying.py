"""deploy/ as docs/deploying.md describes it (issue 33): the systemd unit passes
`systemd-analyze verify`, and the example configs — deploy/floe.yaml and the floe.yaml inside the
Kubernetes ConfigMap — are ones `floe validate` accepts, with every `${env:…}` they name supplied
by the StatefulSet's environment (the pod name, the Secret) and the probes and ports pointing at
the config's admin and catalog listeners."""
import os
import pathlib
import re
import shutil
import subprocess

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def validate(floe_bin, config: pathlib.Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(floe_bin), "validate", "--config", str(config)], capture_output=True, text=True,
                          timeout=60, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **(env or {})})


def test_systemd_unit_passes_systemd_analyze_verify(tmp_path):
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: scripts/deps.sh installs the systemd package"
    # An offline root: the unit, the binary it names (verify checks that it is executable; a stub
    # will do) and the system's own units (it resolves the targets the unit is ordered against).
    root = tmp_path / "root"
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(DEPLOY / "systemd/floe.service", root / "etc/systemd/system/floe.service")
    (root / "opt/floe/bin").mkdir(parents=True)
    (root / "opt/floe/bin/floe").write_text("#!/bin/sh\n")
    (root / "opt/floe/bin/floe").chmod(0o755)
    units = next(p for p in (pathlib.Path("/usr/lib/systemd/system"), pathlib.Path("/lib/systemd/system"))
                 if (p / "multi-user.target").exists())
    shutil.copytree(units, root / "usr/lib/systemd/system", symlinks=True)
    r = subprocess.run([analyze, "verify", "--man=no", f"--root={root}", "/etc/systemd/system/floe.service"],
                       capture_output=True, text=True, timeout=60)
    # verify exits 0 on a key it ignores (a typo, a bad value): any output at all is a failure.
    assert r.returncode == 0 and not r.stdout.strip() and not r.stderr.strip(), r.stdout + r.stderr

    unit = (DEPLOY / "systemd/floe.service").read_text()
    assert "ExecStart=/opt/floe/bin/floe run --config /etc/floe/floe.yaml" in unit
    assert "Restart=always" in unit and "TimeoutStopSec=90" in unit


def test_example_config_validates(floe_bin):
    r = validate(floe_bin, DEPLOY / "floe.yaml")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "OK (1 topic entry)" in r.stdout


def kubernetes_documents() -> dict:
    docs = {}
    for path in sorted((DEPLOY / "kubernetes").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                docs[(doc["kind"], doc["metadata"]["name"])] = doc
    return docs


def test_kubernetes_configmap_floe_yaml_validates_with_the_statefulsets_environment(floe_bin, tmp_path):
    docs = kubernetes_documents()
    text = docs[("ConfigMap", "floe")]["data"]["floe.yaml"]
    config = yaml.safe_load(text)
    sts = docs[("StatefulSet", "floe")]
    container = sts["spec"]["template"]["spec"]["containers"][0]

    # Every ${env:NAME} the config names comes from the pod: the Downward API or the Secret.
    referenced = set(re.findall(r"\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}", text))
    from_pod = {e["name"] for e in container.get("env", [])}
    secret_names = {s["secretRef"]["name"] for s in container.get("envFrom", []) if "secretRef" in s}
    secret = docs[("Secret", "floe")]
    assert secret["metadata"]["name"] in secret_names
    from_secret = set(secret["stringData"])
    assert referenced <= from_pod | from_secret, referenced - from_pod - from_secret
    assert "PGPASSWORD" in from_secret  # the PostgreSQL catalog's password, read by libpq

    # kafka.instance_id is the pod name.
    assert config["kafka"]["instance_id"] == "${env:POD_NAME}"
    pod_name = next(e for e in container["env"] if e["name"] == "POD_NAME")
    assert pod_name["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name"
    # Several workers: the PostgreSQL catalog, a shared warehouse.
    assert config["catalog"]["uri"].startswith("postgresql://")
    assert not config["warehouse"].startswith(("file:", "/"))

    # The ports and probes match the config's listeners.
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports["admin"] == int(config["admin"]["listen"].rsplit(":", 1)[1])
    assert ports["catalog"] == int(config["catalog"]["listen"].rsplit(":", 1)[1])
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"] == {"path": "/healthz", "port": "admin"}, probe
    mount = next(m for m in container["volumeMounts"] if m["name"] == "config")
    assert container["args"] == ["run", "--config", f"{mount['mountPath']}/floe.yaml"]

    # floe validate accepts it, the secrets set as the pod would have them.
    path = tmp_path / "floe.yaml"
    path.write_text(text)
    env = {name: "placeholder" for name in from_secret}
    env["POD_NAME"] = f"{sts['metadata']['name']}-0"
    r = validate(floe_bin, path, env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "OK (2 topic entries)" in r.stdout, r.stdout

    # Without the Secret, validate names what is missing (the reason it is a ${env:…} reference).
    r = validate(floe_bin, path, {"POD_NAME": "floe-0"})
    assert r.returncode == 1 and "KAFKA_PASSWORD" in r.stderr, r.stdout + r.stderr
