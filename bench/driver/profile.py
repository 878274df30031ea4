"""One `floe run --exit-when-caught-up` under `perf record` (sampling all threads at 999 Hz,
flat: the Release build has no frame pointers, and the top self-time symbols are what the hot
spot list in bench/README.md needs). Writes the top of `perf report` to a text file."""
from __future__ import annotations

import pathlib
import re
import shutil
import subprocess

from . import figures


def floe_under_perf(floe_bin, bootstrap, registry_url, topics, records, payload, workdir: pathlib.Path,
                    report_path: pathlib.Path, *, commit_interval: str, value: str = "avro") -> dict:
    if shutil.which("perf") is None:
        return {"error": "perf is not installed"}
    data = workdir.parent / "perf.data"
    res = figures.floe_batch(floe_bin, bootstrap, registry_url, topics, records, payload, workdir,
                             commit_interval=commit_interval, value=value,
                             wrapper=["perf", "record", "-F", "999", "-o", str(data), "--"])
    rep = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--no-children", "--percent-limit", "0.5",
                          "--sort", "dso,symbol"], capture_output=True, text=True)
    # perf pads every row to the widest symbol and appends empty sample columns: trim both.
    lines = [re.sub(r"\s+(-\s+)*$", "", re.sub(r" {3,}", "  ", ln)) for ln in rep.stdout.splitlines()
             if ln.strip() and not ln.startswith("#")]
    report_path.write_text("\n".join(lines[:60]) + "\n")
    return {"report": str(report_path), "floe_under_perf": res}
