"""deploy/: the Prometheus alert rules and the Grafana dashboard, checked by Prometheus' own
tool (promtool, built by scripts/deps.sh into .deps/bin): the rules load, their unit tests
(floe-alerts.test.yml) fire the alerts they should, and every dashboard query parses as PromQL
and selects only metrics docs/admin-api.md documents. The live-/metrics half of the dashboard
check is in test_console.py, which has a running `floe run`."""
import json
import pathlib
import shutil
import subprocess

import pytest
import yaml

from tests.integration.monitoring_names import (ALERTS, DASHBOARD, ROOT, as_promql, dashboard_exprs,
                                                documented_metrics, selected_metrics)


@pytest.fixture(scope="module")
def promtool() -> pathlib.Path:
    path = ROOT / ".deps" / "bin" / "promtool"
    if not path.exists():
        found = shutil.which("promtool")
        assert found, "promtool missing: run scripts/deps.sh (it builds it into .deps/bin)"
        path = pathlib.Path(found)
    return path


def run(promtool, *args, cwd=None):
    result = subprocess.run([str(promtool), *args], capture_output=True, text=True, timeout=60, cwd=cwd)
    assert result.returncode == 0, f"promtool {' '.join(args)}:\n{result.stdout}{result.stderr}"
    return result.stdout


def test_alert_rules_load_and_their_unit_tests_pass(promtool):
    out = run(promtool, "check", "rules", str(ALERTS))
    assert "SUCCESS: 5 rules found" in out
    run(promtool, "test", "rules", "floe-alerts.test.yml", cwd=ALERTS.parent)
    rules = yaml.safe_load(ALERTS.read_text())["groups"][0]["rules"]
    assert {r["alert"] for r in rules} >= {"FloeTopicSuspended", "FloeFreshnessOverTarget", "FloeLagGrowing",
                                           "FloeCommitConflictsSpiking"}
    documented = documented_metrics()
    for rule in rules:
        unknown = selected_metrics(rule["expr"]) - documented
        assert not unknown, f"{rule['alert']} uses undocumented metrics {unknown}"


def test_a_broken_rule_is_refused(promtool, tmp_path):
    """The check above can fail: promtool rejects a rule whose PromQL does not parse."""
    bad = tmp_path / "bad.yml"
    bad.write_text(yaml.safe_dump({"groups": [{"name": "g", "rules": [{"alert": "A", "expr": "sum by (topic ("}]}]}))
    result = subprocess.run([str(promtool), "check", "rules", str(bad)], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0


def test_every_dashboard_query_parses_and_names_documented_metrics(promtool, tmp_path):
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["title"] and dashboard["schemaVersion"] >= 36
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids)), "panel ids must be unique"
    for panel in dashboard["panels"]:
        grid = panel["gridPos"]
        assert 0 <= grid["x"] and grid["x"] + grid["w"] <= 24, panel["title"]
        assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
    exprs = dashboard_exprs(dashboard)
    assert len(exprs) >= 10
    # Prometheus' parser is the judge: each expression as a recording rule for promtool.
    rules = [{"record": f"floe:dashboard:{i}", "expr": as_promql(e)} for i, (_, e) in enumerate(exprs)]
    for variable in dashboard["templating"]["list"]:
        if variable["type"] == "query":  # label_values(metric, label) is Grafana's, not PromQL: check the metric
            metric = variable["definition"].split("(")[1].split(",")[0].strip()
            rules.append({"record": f"floe:variable:{variable['name']}", "expr": metric})
    path = tmp_path / "dashboard-rules.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    out = run(promtool, "check", "rules", str(path))
    assert f"SUCCESS: {len(rules)} rules found" in out
    documented = documented_metrics()
    for title, expr in exprs:
        names = {n[: -len("_bucket")] if n.endswith("_bucket") else n for n in selected_metrics(expr)}
        assert names, f"panel {title!r} selects no Floe metric"
        assert names <= documented, f"panel {title!r} uses undocumented metrics {names - documented}"
