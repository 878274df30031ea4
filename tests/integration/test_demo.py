"""`make demo` under `make test`: scripts/demo.sh runs against the build under test, in a
temporary folder, on free ports, and must print its DuckDB and pyiceberg query results. Nothing
else runs the demo, and a demo that fails on a fresh clone is the first thing a user sees
(issue 33: it failed, and no test noticed)."""
import os
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]

RECORDS = 20_000  # scripts/demo.py's RECORDS


def test_demo_prints_its_query_results(floe_bin, tmp_path):
    build = floe_bin.parents[2]  # <build>/apps/floe/floe: the build under test (FLOE_BUILD_DIR)
    data = tmp_path / "demo-data"
    r = subprocess.run(["bash", str(ROOT / "scripts" / "demo.sh"), str(build), "--data-dir", str(data)],
                       capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-6000:]
    # DuckDB's box: one row per country, each with its orders, revenue, coupons and latest time.
    countries = re.findall(r"^│\s*(DE|FR|US|JP|BR|IN)\s*│\s*(\d+)\s*│", r.stdout, re.MULTILINE)
    assert sorted(c for c, _ in countries) == ["BR", "DE", "FR", "IN", "JP", "US"], r.stdout[-6000:]
    assert sum(int(n) for _, n in countries) == RECORDS, r.stdout[-6000:]
    assert f"{RECORDS} rows, {RECORDS} distinct (partition, offset)" in r.stdout, r.stdout[-6000:]
    assert f"pyiceberg (through Floe's REST catalog) sees {RECORDS + 1000} rows" in r.stdout, r.stdout[-6000:]
    assert "floe run exited with 0" in r.stdout, r.stdout[-6000:]
    # Its own folder, not the repo's demo-data/.
    assert (data / "warehouse" / "catalog.db").is_file()
    assert str(data) in r.stdout
