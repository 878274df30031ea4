"""`make bench`: starts a Kafka broker and a schema registry on loopback, pre-fills a topic with
the C++ producer, measures every figure of bench/README.md in the same run (each repeated,
median), prints one table of absolute numbers and ratios to the consume-only baseline, and
writes bench/results/latest.md and latest.json.

    .deps/venv/bin/python bench/run.py                      # the default scenario
    BENCH_RECORDS=5000000 .deps/venv/bin/python bench/run.py
    .deps/venv/bin/python bench/run.py --only consume,floe --records 200000 --repeats 1
    .deps/venv/bin/python bench/run.py --only consume,encode,floe --format avro,protobuf --records 2000000

Payload formats (issue 13): the same event as Avro, Protobuf, JSON Schema and schemaless JSON,
each in a topic of its own (`--format`, default all four; Avro, the baseline, always runs).
encode-only and floe run are measured per format, interleaved within each repetition, and each
format's ratio to Avro is the median over repetitions of its ratio in that repetition.

Figures a run does not measure (a partial `--only`) are carried over from the previous
latest.json into latest.md, under the date of the run that measured them.
"""
from __future__ import annotations

import argparse
import contextlib
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

ALL = ["consume", "encode", "floe", "s3", "peer", "freshness", "scale", "micro"]
FORMATS = services.FORMATS
# Issue 13: floe run's records per CPU-second of each format relative to Avro's.
TARGETS = {"protobuf": 0.90, "json_schema": 0.60, "json": 0.60}
# Issue 14: floe run's records/s with the warehouse on a local S3 server, relative to local disk.
S3_TARGET = 0.80


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
    a.add_argument("--buffer-memory", default=os.environ.get("BENCH_BUFFER_MEMORY", ""),
                   help="floe's buffer_memory (e.g. 16MiB); default: Floe's")
    a.add_argument("--workers", default=os.environ.get("BENCH_WORKERS", ""),
                   help="floe's workers: (threads writing files); default: Floe's (the cores)")
    a.add_argument("--fresh-rate", type=float, default=env("BENCH_FRESH_RATE", 2000.0))
    a.add_argument("--fresh-seconds", type=float, default=env("BENCH_FRESH_SECONDS", 30.0))
    a.add_argument("--fresh-load-fraction", type=float, default=env("BENCH_FRESH_LOAD_FRACTION", 0.6),
                   help="freshness is measured a second time with the producer at this fraction of the "
                        "floe run figure's records/s of the same run (issue 17: freshness under the "
                        "full-rate load); 0 leaves it out")
    a.add_argument("--scale-topics", type=int, default=env("BENCH_SCALE_TOPICS", 100))
    a.add_argument("--scale-partitions", type=int, default=env("BENCH_SCALE_PARTITIONS", 10),
                   help="partitions per scale topic")
    a.add_argument("--scale-records", type=int, default=env("BENCH_SCALE_RECORDS", 0),
                   help="records over all scale topics; default: --records, so the ratio to the "
                        "8-partition run compares the same data")
    a.add_argument("--only", default=os.environ.get("BENCH_ONLY", ",".join(ALL)), help=f"subset of {ALL}")
    a.add_argument("--format", default=os.environ.get("BENCH_FORMAT", ",".join(FORMATS)),
                   help=f"payload formats for encode-only and floe run, a comma list of {FORMATS}; "
                        "avro (the baseline of the ratios) always runs")
    a.add_argument("--profile", action="store_true", default=bool(os.environ.get("BENCH_PROFILE")),
                   help="also run floe once under perf and write bench/results/profile.txt")
    a.add_argument("--profile-formats", default=os.environ.get("BENCH_PROFILE_FORMATS", ""),
                   help="also run floe under perf on these formats' topics: bench/results/profile-<format>.txt")
    return a.parse_args()


def step(text: str) -> None:
    print(f"==> {text}", flush=True)


def topic_of(fmt: str) -> str:
    return "bench" if fmt == "avro" else f"bench-{fmt.replace('_', '-')}"


def key_of(figure: str, fmt: str) -> str:
    """results["figures"] key: `floe`/`encode` for Avro (as before formats existed), else
    `floe:protobuf`, …"""
    return figure if fmt == "avro" else f"{figure}:{fmt}"


def main() -> int:
    o = parse_args()
    o.scale_records = o.scale_records or o.records
    # floe_config.write reads them: every floe run of this invocation gets them.
    os.environ["BENCH_BUFFER_MEMORY"], os.environ["BENCH_WORKERS"] = o.buffer_memory, o.workers
    only = set(o.only.split(","))
    if "s3" in only:
        only.add("floe")  # the S3 figure's baseline: the local-disk run of the same repetition
    formats = [f.strip() for f in o.format.split(",") if f.strip()]
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        print(f"unknown --format {unknown}; choose from {FORMATS}", file=sys.stderr)
        return 2
    formats = ["avro"] + [f for f in FORMATS if f in formats and f != "avro"]
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
                          "buffer_memory": o.buffer_memory or "default", "workers": o.workers or "default",
                          "scale_partitions": o.scale_topics * o.scale_partitions, "scale_topics": o.scale_topics,
                          "scale_records": o.scale_records, "formats": formats,
                          "producer": "librdkafka acks=1, linger.ms=20, batch.size 1MB, compression none"}}
    step(f"machine: {results['machine']}")

    with contextlib.ExitStack() as stack:
        kafka = stack.enter_context(services.KafkaBroker(work / "kafka"))
        registry = stack.enter_context(services.SchemaRegistry())
        s3 = services.S3Target(stack.enter_context(services.S3ProxyServer(work / "s3proxy"))) if "s3" in only else None
        producer = services.Producer(bench_bin, kafka.bootstrap, registry.url, work)
        topic = "bench"
        payloads = {}  # format -> bytes on the wire for all records
        measured_formats = formats if only & {"encode", "floe"} else ["avro"]
        results["formats"] = {}
        for fmt in measured_formats:
            t = topic_of(fmt)
            kafka.create_topic(t, o.partitions)
            step(f"pre-filling '{t}' ({fmt}): {o.records:,} records over {o.partitions} partitions")
            filled = services.Producer(bench_bin, kafka.bootstrap, registry.url, work, fmt).fill(
                [t], o.partitions, o.records)
            payloads[fmt] = filled["bytes"]
            results["formats"][fmt] = {"topic": t, "bytes_per_record": filled["bytes"] / o.records,
                                       "produce": filled}
            print(f"    {filled['records'] / filled['wall']:,.0f} records/s, "
                  f"{filled['bytes'] / o.records:.0f} bytes/record")
        payload = payloads["avro"]
        results["payload_bytes_per_record"] = payload / o.records
        results["produce"] = results["formats"]["avro"]["produce"]

        runs = {"consume": [], "floe_s3": []}
        failed = {}  # key -> {"error": ...}: not run again
        for fmt in measured_formats:
            runs[key_of("encode", fmt)] = []
            runs[key_of("floe", fmt)] = []
        for rep in range(o.repeats):  # interleaved, so drift in the machine's load hits every figure alike
            step(f"repetition {rep + 1}/{o.repeats}")
            if "consume" in only:
                runs["consume"].append(measure.with_broker_cpu(
                    kafka.proc.pid, lambda: figures.consume_only(bench_bin, kafka.bootstrap, [topic], work)))
                print(f"    consume-only {runs['consume'][-1]['records_per_s']:,.0f} records/s")
            # Formats in a rotating order, so no format always runs first (or right after another).
            order = measured_formats[rep % len(measured_formats):] + measured_formats[:rep % len(measured_formats)]
            for fmt in order:
                for figure in ("encode", "floe"):
                    key = key_of(figure, fmt)
                    if figure not in only or key in failed:
                        continue
                    try:
                        if figure == "encode":
                            r = figures.encode_only(bench_bin, o.records, o.partitions, work, fmt)
                        else:
                            r = measure.with_broker_cpu(kafka.proc.pid, lambda: figures.floe_batch(
                                floe_bin, kafka.bootstrap, registry.url, [topic_of(fmt)], o.records, payloads[fmt],
                                work / f"floe-{fmt}-{rep}", commit_interval=o.commit_interval, value=fmt))
                    except Exception as e:  # e.g. a format floe run cannot read yet: say so, measure the rest
                        if fmt == "avro":
                            raise
                        failed[key] = {"error": f"{type(e).__name__}: {str(e)[-800:]}"}
                        print(f"    {figure:<11} {fmt:<12} FAILED: {failed[key]['error'][-300:]}")
                        continue
                    runs[key].append(r)
                    print(f"    {figure:<11} {fmt:<12} {r['records_per_s']:,.0f} records/s, "
                          f"{r['records_per_cpu_s']:,.0f} records/CPU-s")
            if s3:
                r = figures.floe_batch(floe_bin, kafka.bootstrap, registry.url, [topic], o.records, payload,
                                       work / f"floe-s3-{rep}", commit_interval=o.commit_interval, s3=s3)
                runs["floe_s3"].append(r)
                print(f"    floe on S3  avro         {r['records_per_s']:,.0f} records/s, "
                      f"{r['records_per_cpu_s']:,.0f} records/CPU-s, {r['uploaded_mib_per_s']:.1f} MiB/s uploaded, "
                      f"S3 server {r['server_cpu_s']:.1f} CPU-s")
        for key, rs in runs.items():
            if key in failed:
                results["figures"][key] = failed[key]
                results["runs"][key] = rs
            elif rs:
                results["figures"][key] = median_of(rs)
                results["runs"][key] = rs
        results["format_ratios"] = format_ratios(runs, measured_formats)
        if runs["floe_s3"]:
            results["s3_ratios"] = per_repetition_ratios(runs["floe"], runs["floe_s3"])

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
            floe_rate = (results["figures"].get("floe") or {}).get("records_per_s")
            if o.fresh_load_fraction > 0 and floe_rate:
                # The producer and the broker share the machine's cores with Floe, so the highest
                # sustainable rate is below floe run's own records/s (a backlog only grows there).
                rate = round(o.fresh_load_fraction * floe_rate, -3)
                step(f"freshness under load: commit_interval 1s, {rate:.0f} records/s "
                     f"({o.fresh_load_fraction:.2f}x floe run's records/s) for {o.fresh_seconds:.0f}s")
                kafka.create_topic("fresh-load", o.partitions)
                try:
                    results["figures"]["freshness_load"] = figures.freshness(
                        floe_bin, producer, kafka.bootstrap, registry.url, "fresh-load", o.partitions, rate,
                        o.fresh_seconds, work / "fresh-load")
                    results["figures"]["freshness_load"]["fraction_of_floe"] = o.fresh_load_fraction
                except Exception as e:
                    results["figures"]["freshness_load"] = {"error": f"{type(e).__name__}: {str(e)[:500]}"}
                print(f"    {results['figures']['freshness_load']}")

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
        for fmt in [f.strip() for f in o.profile_formats.split(",") if f.strip()]:
            if fmt not in payloads:
                print(f"    no '{fmt}' topic in this run (see --format, --only): not profiled")
                continue
            step(f"profile: floe run on the {fmt} topic under perf record")
            results.setdefault("profiles", {})[fmt] = profile.floe_under_perf(
                floe_bin, kafka.bootstrap, registry.url, [topic_of(fmt)], o.records, payloads[fmt],
                work / f"profile-{fmt}", out / f"profile-{fmt}.txt", commit_interval=o.commit_interval, value=fmt)

    if "micro" in only:
        step("microbenchmarks (Google Benchmark)")
        usage = measure.run([str(bench_bin / "floe_bench_micro"), "--benchmark_format=json",
                             "--benchmark_min_time=1"], log_path=work / "micro.log")
        results["micro"] = [{k: b.get(k) for k in ("name", "label", "real_time", "cpu_time", "time_unit", "items_per_second",
                                                   "bytes_per_second", "parquet_bytes_per_row")}
                            for b in json.loads(usage.stdout)["benchmarks"]]

    results["total_seconds"] = time.monotonic() - started
    results["targets"] = TARGETS
    results["s3_target"] = S3_TARGET
    results["carried"] = report.carry_over(out / "latest.json", results)
    (out / "latest.json").write_text(json.dumps(results, indent=2, default=str))
    # bench/table_health.py's section (issue 18) is measured on its own: kept until it runs again.
    previous = (out / "latest.md").read_text() if (out / "latest.md").exists() else ""
    health = previous[previous.find("<!-- table-health -->"):] if "<!-- table-health -->" in previous else ""
    (out / "latest.md").write_text(report.markdown(results) + ("\n" + health if health else ""))
    print()
    print(report.markdown(results))
    print(f"(written to {out / 'latest.md'} and latest.json; {results['total_seconds']:.0f}s in all)")
    return 0


def format_ratios(runs: dict, formats: list[str]) -> dict:
    """Each format against Avro: the ratio within each repetition (the two ran minutes apart at
    most, under the same load), then the median over repetitions."""
    import statistics
    out = {}
    for fmt in formats:
        if fmt == "avro":
            continue
        r = {}
        for figure in ("floe", "encode"):
            base, mine = runs.get(figure, []), runs.get(key_of(figure, fmt), [])
            if not base or not mine or len(base) != len(mine):
                continue
            r.update({f"{figure}_{k}": v for k, v in per_repetition_ratios(base, mine).items()})
        out[fmt] = r
    return out


def per_repetition_ratios(base: list[dict], mine: list[dict]) -> dict:
    """mine / base within each repetition, then the median over repetitions (records/s and
    records/CPU-s), with the per-repetition values."""
    import statistics
    out = {}
    for measure in ("records_per_s", "records_per_cpu_s"):
        per_rep = [m[measure] / b[measure] for b, m in zip(base, mine) if b.get(measure) and m.get(measure)]
        if per_rep:
            out[measure] = statistics.median(per_rep)
            out[f"{measure}_runs"] = per_rep
    return out


def median_of(runs: list[dict]) -> dict:
    """Median of every numeric measure across repetitions."""
    import statistics
    keys = [k for k, v in runs[0].items() if isinstance(v, (int, float)) and v is not None]
    return {k: statistics.median(r[k] for r in runs) for k in keys}


if __name__ == "__main__":
    sys.exit(main())
