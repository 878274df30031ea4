"""Checks that the benchmark's four payload formats carry the same event (bench/event.h): fills a
small topic per format, runs `floe run --exit-when-caught-up` on each into its own warehouse, and
compares every row of each table with the Avro table's (by event_id), values normalized where the
formats' column types differ by design (schemaless JSON has no timestamp or decimal type: ts is a
long of epoch ms and price a double; docs/types.md) and ts taken relative to the table's first
(each producer run stamps its own base time). Prints the column types per format and exits non-zero on a difference.

    .deps/venv/bin/python bench/check_formats.py [--records 20000]
"""
from __future__ import annotations

import argparse
import datetime
import decimal
import pathlib
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.driver import floe_config, measure, services  # noqa: E402
from bench.run import topic_of  # noqa: E402


def normalize(v):
    if isinstance(v, datetime.datetime):
        return v.replace(tzinfo=None).isoformat()
    if isinstance(v, (decimal.Decimal, float)):
        return round(float(v), 6)
    if isinstance(v, dict):
        return {k: normalize(x) for k, x in v.items()}
    if isinstance(v, list):
        return [normalize(x) for x in v]
    return v


def main() -> int:
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--build", default=str(ROOT / "build" / "release"))
    a.add_argument("--workdir", default=str(ROOT / "build" / "bench-check"))
    a.add_argument("--records", type=int, default=20_000)
    a.add_argument("--partitions", type=int, default=4)
    o = a.parse_args()
    build = pathlib.Path(o.build)
    floe_bin, bench_bin = build / "apps" / "floe" / "floe", build / "bench"
    measure.LAUNCHER = bench_bin / "floe_bench_rusage"
    work = pathlib.Path(o.workdir).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    rows, types = {}, {}
    with services.KafkaBroker(work / "kafka") as kafka, services.SchemaRegistry() as registry:
        for fmt in services.FORMATS:
            t = topic_of(fmt)
            kafka.create_topic(t, o.partitions)
            services.Producer(bench_bin, kafka.bootstrap, registry.url, work, fmt).fill([t], o.partitions, o.records)
            wd = work / fmt
            wd.mkdir()
            cfg = floe_config.write(wd, kafka.bootstrap, registry.url, [t], group_id=f"check-{fmt}",
                                    commit_interval="10s", value=fmt)
            measure.run([str(floe_bin), "run", "--config", str(cfg), "--exit-when-caught-up"], log_path=wd / "floe.log")
            table = floe_config.catalog(wd).load_table(floe_config.table_name(t))
            arrow = table.scan().to_arrow().drop_columns(["_kafka"])
            types[fmt] = {f.name: str(f.type) for f in arrow.schema}
            rows[fmt] = {r["event_id"]: {k: normalize(v) for k, v in r.items()} for r in arrow.to_pylist()}
            # Each producer run stamps its own base time: compare ts relative to the table's first.
            ms = {e: (r["ts"] if isinstance(r["ts"], int) else
                      int(datetime.datetime.fromisoformat(r["ts"]).replace(tzinfo=datetime.timezone.utc).timestamp()
                          * 1000)) for e, r in rows[fmt].items()}
            first = min(ms.values())
            for e, r in rows[fmt].items():
                r["ts"] = ms[e] - first
            print(f"{fmt}: {len(rows[fmt])} rows; {types[fmt]}")
    bad = 0
    for fmt in services.FORMATS[1:]:
        if len(rows[fmt]) != o.records:
            print(f"{fmt}: {len(rows[fmt])} rows, expected {o.records}")
            bad += 1
        for eid, want in rows["avro"].items():
            got = rows[fmt].get(eid)
            if fmt == "json" and got is not None:
                # Schemaless: `[]` has no type until a record brings an element, so the rows before
                # the tags column existed hold null (docs/types.md, "Schemaless JSON").
                got = {k: ([] if v is None and want.get(k) == [] else v) for k, v in got.items()}
            if got != want:
                bad += 1
                if bad <= 5:
                    diff = {k: (want.get(k), (got or {}).get(k)) for k in want if (got or {}).get(k) != want.get(k)}
                    print(f"{fmt}: {eid} differs from avro: {diff}")
    print("OK: every format's rows equal Avro's" if bad == 0 else f"{bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
