"""`make bench`: starts a Kafka broker and a schema registry on loopback, pre-fills a topic with
the C++ producer, measures every figure of bench/README.md in the same run (each repeated,
median), prints one table of absolute numbers and ratios to the consume-only baseline, and
writes bench/results/latest.md and latest.json.

    .deps/venv/bin/python bench/run.py                      # the default scenario
    BENCH_RECORDS=5000000 .deps/venv/bin/python bench/run.py
    .deps/venv/bin/python bench/run.py --only consume,floe --records 200000 --repeats 1
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import pathlib
import shutil
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.driver import figures, measure, peer, profile, report, services  # noqa: E402

ALL = ["consume", "encode", "floe", "peer", "freshness", "scale", "micro"]


def env(name: str, default):
    return type(default)(os.environ.get(name, default))


def parse_args() -> argparse.Namespace:
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--build", default=str(ROOT / "build" / "release"), help="a Release build with FLOE_BUILD_BENCH=ON")
    a.add_argument("--workdir", default=str(ROOT / "build" / "bench-data"))
    a.add_argument("--out", default=str(ROOT / "bench" / "results"))
    a.add_argument("--records", type=int, default=env("BENCH_RECORDS", 5_000_000))
    a.add_argument("--partitions", type=int, default=env("BENCH_PARTITIONS", 8))
    a.add_argument("--repeats", type=int, default=env("BENCH_REPEATS", 3))
    a.add_argument("--peer-repeats", type=int, default=env("BENCH_PEER_REPEATS", 1))
    a.add_argument("--peer-tasks", type=int, default=env("BENCH_PEER_TASKS", 1))
    a.add_argument("--commit-interval", default=env("BENCH_COMMIT_INTERVAL", "10s"))
    a.add_argument("--fresh-rate", type=float, default=env("BENCH_FRESH_RATE", 2000.0))
    a.add_argument("--fresh-seconds", type=float, default=env("BENCH_FRESH_SECONDS", 30.0))
    a.add_argument("--scale-topics", type=int, default=env("BENCH_SCALE_TOPICS", 100))
    a.add_argument("--scale-partitions", type=int, default=env("BENCH_SCALE_PARTITIONS", 10),
                   help="partitions per scale topic")
    a.add_argument("--scale-records", type=int, default=env("BENCH_SCALE_RECORDS", 500_000))
    a.add_argument("--only", default=os.environ.get("BENCH_ONLY", ",".join(ALL)), help=f"subset of {ALL}")
    a.add_argument("--profile", action="store_true", default=bool(os.environ.get("BENCH_PROFILE")),
                   help="also run floe once under perf and write bench/results/profile.txt")
    return a.parse_args()


def step(text: str) -> None:
    print(f"==> {text}", flush=True)


def main() -> int:
    o = parse_args()
    only = set(o.only.split(","))
    build = pathlib.Path(o.build)
    floe_bin, bench_bin = build / "apps" / "floe" / "floe", build / "bench"
    measure.LAUNCHER = bench_bin / "floe_bench_rusage"
    work, out = pathlib.Path(o.workdir), pathlib.Path(o.out)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    results = {"date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), "machine": report.machine(),
               "git": report.git_head(ROOT), "figures": {}, "runs": {},
               "config": {"records": o.records, "partitions": o.partitions, "repeats": o.repeats,
                          "peer_repeats": o.peer_repeats, "peer_tasks": o.peer_tasks,
                          "commit_interval": o.commit_interval,
                          "scale_partitions": o.scale_topics * o.scale_partitions,
                          "scale_records": o.scale_records, "producer": "librdkafka acks=1, linger.ms=20, "
                          "batch.size 1MB, compression none"}}
    step(f"machine: {results['machine']}")

    with services.KafkaBroker(work / "kafka") as kafka, services.SchemaRegistry() as registry:
        producer = services.Producer(bench_bin, kafka.bootstrap, registry.url, work)
        topic = "bench"
        kafka.create_topic(topic, o.partitions)
        step(f"pre-filling '{topic}': {o.records:,} records over {o.partitions} partitions")
        filled = producer.fill([topic], o.partitions, o.records)
        payload = filled["bytes"]
        results["payload_bytes_per_record"] = payload / o.records
        results["produce"] = filled
        print(f"    {filled['records'] / filled['wall']:,.0f} records/s, {payload / o.records:.0f} bytes/record")

        runs = {k: [] for k in ("consume", "encode", "floe")}
        for rep in range(o.repeats):  # interleaved, so drift in the machine's load hits every figure alike
            step(f"repetition {rep + 1}/{o.repeats}")
            if "consume" in only:
                runs["consume"].append(figures.consume_only(bench_bin, kafka.bootstrap, [topic], work))
                print(f"    consume-only {runs['consume'][-1]['records_per_s']:,.0f} records/s")
            if "encode" in only:
                runs["encode"].append(figures.encode_only(bench_bin, o.records, o.partitions, work))
                print(f"    encode-only  {runs['encode'][-1]['records_per_s']:,.0f} records/s")
            if "floe" in only:
                runs["floe"].append(figures.floe_batch(floe_bin, kafka.bootstrap, registry.url, [topic], o.records,
                                                       payload, work / f"floe-{rep}",
                                                       commit_interval=o.commit_interval))
                print(f"    floe run     {runs['floe'][-1]['records_per_s']:,.0f} records/s")
        for key, rs in runs.items():
            if rs:
                results["figures"][key] = median_of(rs)
                results["runs"][key] = rs

        if "peer" in only:
            step("peer: Iceberg Kafka Connect sink in a Connect standalone worker")
            interval_ms = int(float(o.commit_interval.rstrip("s")) * 1000)
            prs = []
            for rep in range(o.peer_repeats):
                try:
                    prs.append(peer.run(kafka.bootstrap, registry.url, topic, o.records, payload,
                                        work / f"peer-{rep}", commit_interval_ms=interval_ms, tasks=o.peer_tasks,
                                        timeout=max(300.0, o.records / 4000)))
                except Exception as e:  # the table must say why, not drop the row
                    prs.append({"error": f"{type(e).__name__}: {str(e)[:500]}"})
                print(f"    {prs[-1]}")
                if "error" in prs[-1]:
                    break
            ok = [p for p in prs if "error" not in p]
            results["figures"]["peer"] = median_of(ok) if ok else prs[-1]
            results["runs"]["peer"] = prs

        if "freshness" in only:
            step(f"freshness: commit_interval 1s, {o.fresh_rate:.0f} records/s for {o.fresh_seconds:.0f}s")
            kafka.create_topic("fresh", o.partitions)
            try:
                results["figures"]["freshness"] = figures.freshness(
                    floe_bin, producer, kafka.bootstrap, registry.url, "fresh", o.partitions, o.fresh_rate,
                    o.fresh_seconds, work / "fresh")
            except Exception as e:
                results["figures"]["freshness"] = {"error": f"{type(e).__name__}: {str(e)[:500]}"}
            print(f"    {results['figures']['freshness']}")

        if "scale" in only:
            topics = [f"scale-{i:03d}" for i in range(o.scale_topics)]
            total = o.scale_topics * o.scale_partitions
            step(f"scale: {o.scale_topics} topics x {o.scale_partitions} partitions = {total}, "
                 f"{o.scale_records:,} records")
            for t in topics:
                kafka.create_topic(t, o.scale_partitions)
            sfill = producer.fill(topics, o.scale_partitions, o.scale_records)
            results["figures"]["scale_consume"] = figures.consume_only(bench_bin, kafka.bootstrap, topics, work)
            results["figures"]["scale_floe"] = figures.floe_batch(
                floe_bin, kafka.bootstrap, registry.url, topics, o.scale_records, sfill["bytes"], work / "scale",
                commit_interval=o.commit_interval)
            print(f"    floe {results['figures']['scale_floe']['records_per_s']:,.0f} records/s, "
                  f"RSS {results['figures']['scale_floe']['rss_mib']:.0f} MiB")

        if o.profile:
            step("profile: floe run under perf record")
            results["profile"] = profile.floe_under_perf(floe_bin, kafka.bootstrap, registry.url, [topic], o.records,
                                                         payload, work / "profile", out / "profile.txt",
                                                         commit_interval=o.commit_interval)

    if "micro" in only:
        step("microbenchmarks (Google Benchmark)")
        usage = measure.run([str(bench_bin / "floe_bench_micro"), "--benchmark_format=json",
                             "--benchmark_min_time=1"], log_path=work / "micro.log")
        results["micro"] = [{k: b.get(k) for k in ("name", "real_time", "cpu_time", "time_unit", "items_per_second",
                                                   "bytes_per_second", "parquet_bytes_per_row")}
                            for b in json.loads(usage.stdout)["benchmarks"]]

    results["total_seconds"] = time.monotonic() - started
    (out / "latest.json").write_text(json.dumps(results, indent=2, default=str))
    (out / "latest.md").write_text(report.markdown(results))
    print()
    print(report.markdown(results))
    print(f"(written to {out / 'latest.md'} and latest.json; {results['total_seconds']:.0f}s in all)")
    return 0


def median_of(runs: list[dict]) -> dict:
    """Median of every numeric measure across repetitions."""
    import statistics
    keys = [k for k, v in runs[0].items() if isinstance(v, (int, float)) and v is not None]
    return {k: statistics.median(r[k] for r in runs) for k in keys}


if __name__ == "__main__":
    sys.exit(main())
