"""Metric names, as the monitoring tests need them: the ones docs/admin-api.md documents, the
ones a live /metrics scrape exports, and the ones a PromQL expression selects."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "floe-dashboard.json"
ALERTS = ROOT / "deploy" / "prometheus" / "floe-alerts.yml"

# What a histogram family exports besides its name.
_HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")
# Grafana's variables, replaced by what they stand for so that Prometheus' parser sees PromQL.
_GRAFANA_VARIABLES = {"$__rate_interval": "5m", "$__interval": "1m", "$__range": "6h", "$topic": ".*", "$table": ".*"}


def documented_metrics() -> set:
    """The metric families in docs/admin-api.md's table: the contract dashboards rely on."""
    text = (ROOT / "docs" / "admin-api.md").read_text()
    return set(re.findall(r"^\| `(floe_[a-z0-9_]+)` \|", text, re.M))


def exported_families(scrape: str) -> set:
    """The families of a Prometheus text scrape (its # TYPE lines)."""
    return set(re.findall(r"^# TYPE (\S+) ", scrape, re.M))


def family(name: str, known: set) -> str:
    """floe_x_bucket -> floe_x when floe_x is a known (histogram) family."""
    for suffix in _HISTOGRAM_SUFFIXES:
        if name.endswith(suffix) and name[: -len(suffix)] in known:
            return name[: -len(suffix)]
    return name


def selected_metrics(expr: str) -> set:
    """The floe_* metric names an expression selects (PromQL's parser has checked the syntax)."""
    return set(re.findall(r"\b(floe_[a-z0-9_]+)\b", expr))


def as_promql(expr: str) -> str:
    for variable, value in _GRAFANA_VARIABLES.items():
        expr = expr.replace(variable, value)
    return expr


def dashboard_exprs(dashboard: dict) -> list:
    """(panel title, expression) of every panel target and templating query."""
    out = []
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            out.append((panel["title"], target["expr"]))
    return out
