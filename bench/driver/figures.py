"""One function per figure of bench/README.md. Each returns a dict of absolute numbers; the
report turns them into ratios to the consume-only baseline of the same run."""
from __future__ import annotations

import json
import pathlib
import shutil
import statistics
import time

from . import floe_config, measure


def consume_only(bench_bin: pathlib.Path, bootstrap: str, topics: list[str], workdir: pathlib.Path) -> dict:
    cmd = [str(bench_bin / "floe_bench_consume"), "--bootstrap", bootstrap]
    for t in topics:
        cmd += ["--topic", t]
    usage = measure.run(cmd, log_path=workdir / "consume.log")
    out = json.loads(usage.stdout)
    if out["records"] != out["expected"]:
        raise RuntimeError(f"consume-only read {out['records']} of {out['expected']} records")
    return measure.rates(usage, out["records"], out["bytes"])


def encode_only(bench_bin: pathlib.Path, records: int, partitions: int, workdir: pathlib.Path,
                fmt: str = "avro") -> dict:
    outdir = workdir / "encode-out"
    shutil.rmtree(outdir, ignore_errors=True)
    outdir.mkdir(parents=True)
    usage = measure.run([str(bench_bin / "floe_bench_encode"), "--records", str(records),
                         "--partitions", str(partitions), "--output-dir", str(outdir), "--format", fmt],
                        log_path=workdir / f"encode-{fmt}.log")
    out = json.loads(usage.stdout)
    shutil.rmtree(outdir, ignore_errors=True)
    # Timed phases only (generating the input is not): wall and CPU of decode + encode.
    wall = out["decode_seconds"] + out["encode_seconds"]
    usage.cpu = out["decode_cpu"] + out["encode_cpu"]
    res = measure.rates(usage, out["records"], out["bytes"], wall=wall)
    res.update(decode_s=out["decode_seconds"], encode_s=out["encode_seconds"],
               parquet_bytes_per_row=out["parquet_bytes"] / out["records"])
    return res


def floe_batch(floe_bin: pathlib.Path, bootstrap: str, registry_url: str, topics: list[str], records: int,
               payload_bytes: int, workdir: pathlib.Path, *, commit_interval: str, wrapper: list[str] = (),
               value: str = "avro", s3=None) -> dict:
    """`floe run --exit-when-caught-up` into a fresh warehouse (so it reads from the start),
    then checks that the table's offsets cover every record. `value`: the topics' format;
    `s3`: an S3Target (services.py) to put the warehouse on, a fresh bucket: the result then
    also has the bytes uploaded and the S3 server's own CPU seconds."""
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    if s3:
        s3 = s3.fresh()
    config = floe_config.write(workdir, bootstrap, registry_url, topics, group_id=f"bench-{workdir.name}",
                               commit_interval=commit_interval, value=value, s3=s3)
    server_cpu = s3.server_cpu() if s3 else 0.0
    usage = measure.run([*wrapper, str(floe_bin), "run", "--config", str(config), "--exit-when-caught-up"],
                        log_path=workdir / "floe.log")
    server_cpu = s3.server_cpu() - server_cpu if s3 else 0.0
    cat = floe_config.catalog(workdir, s3)
    committed = commits = files = 0
    for t in topics:
        table = cat.load_table(floe_config.table_name(t))
        committed += sum(floe_config.committed_offsets(table).get(t, {}).values())
        c, f = floe_config.commits_and_files(table)
        commits, files = commits + c, files + f
    if committed != records:
        raise RuntimeError(f"floe committed offsets for {committed} of {records} records ({workdir})")
    res = measure.rates(usage, records, payload_bytes)
    res.update(commits=commits, data_files=files)
    if s3:
        uploaded = s3.bytes_stored()
        res.update(uploaded_mib=uploaded / 2**20, uploaded_mib_per_s=uploaded / 2**20 / usage.wall,
                   server_cpu_s=server_cpu)
        s3.drop()
    shutil.rmtree(workdir / "warehouse", ignore_errors=True)  # GBs at full size
    return res


def freshness(floe_bin: pathlib.Path, producer, bootstrap: str, registry_url: str, topic: str, partitions: int,
              rate: float, seconds: float, workdir: pathlib.Path, *, poll_s: float = 0.1) -> dict:
    """Continuous `floe run` with commit_interval 1s, a producer at `rate` records/s for
    `seconds`; latency of a sampled record = the first poll of the catalog whose current
    snapshot's floe.offsets cover it, minus its produce time (its Kafka timestamp). Polling
    every poll_s adds up to poll_s to each sample (and the poller shares the machine), so the
    same samples are also measured against the commit time of the first snapshot covering them
    (`commit_*`): what a reader polling without delay would see."""
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    config = floe_config.write(workdir, bootstrap, registry_url, [topic], group_id="bench-fresh",
                               commit_interval="1s")
    floe = measure.Background([str(floe_bin), "run", "--config", str(config)], log_path=workdir / "floe.log")
    table_name = floe_config.table_name(topic)
    # Warm-up: a few records, until the table exists and Floe is past its group join.
    measure.run(producer.command([topic], partitions, 100, first_index=10**9), log_path=workdir / "warmup.log")
    deadline = time.monotonic() + 60
    cat = _catalog_once_created(workdir, floe, deadline)
    while sum(_offsets(cat, table_name, topic).values()) < 100:
        if time.monotonic() > deadline or not floe.alive():
            floe.stop()
            raise RuntimeError(f"floe run never committed the warm-up records; see {workdir / 'floe.log'}")
        time.sleep(poll_s)
    base = _offsets(cat, table_name, topic)

    samples_path = workdir / "samples.txt"
    n = int(rate * seconds)
    prod = measure.Background(producer.command([topic], partitions, n, first_index=0, rate=rate,
                                               samples=samples_path, sample_every=max(1, int(rate // 200))),
                              log_path=workdir / "produce.log", stdout=None)
    polls = []  # (wall ms, offsets)
    want = {p: base.get(p, 0) + n // partitions + (1 if p < n % partitions else 0) for p in range(partitions)}
    deadline = time.monotonic() + seconds + 60
    while time.monotonic() < deadline:
        offsets = _offsets(cat, table_name, topic)
        polls.append((time.time() * 1000, offsets))
        if all(offsets.get(p, 0) >= w for p, w in want.items()):
            break
        time.sleep(poll_s)
    prod.proc.wait()
    prod.stop()  # already exited: just collects its usage file
    floe_usage = floe.stop()
    snapshots = _snapshot_offsets(cat, table_name, topic)
    latencies, by_commit = [], []
    for line in samples_path.read_text().split("\n"):
        if not line:
            continue
        _, p, off, ts = line.split()
        p, off, ts = int(p), int(off), int(ts)
        seen = next((t for t, o in polls if o.get(p, 0) > off), None)
        if seen is None:
            raise RuntimeError(f"record {topic}/{p}@{off} never became visible")
        latencies.append((seen - ts) / 1000)
        committed = next((t for t, o in snapshots if o.get(p, 0) > off), None)
        if committed is not None:
            by_commit.append((committed - ts) / 1000)
    latencies.sort()
    by_commit.sort()
    q = statistics.quantiles(latencies, n=100)
    res = {"rate": rate, "seconds": seconds, "samples": len(latencies), "p50_s": q[49], "p99_s": q[98],
           "max_s": latencies[-1], "poll_s": poll_s, "floe_cpu_s": floe_usage.cpu, "floe_rss_mib": floe_usage.rss_mib}
    if len(by_commit) == len(latencies):
        qc = statistics.quantiles(by_commit, n=100)
        res.update(commit_p50_s=qc[49], commit_p99_s=qc[98], commit_max_s=by_commit[-1], commits=len(snapshots))
    return res


def _catalog_once_created(workdir: pathlib.Path, floe, deadline: float):
    """pyiceberg's SqlCatalog creates its tables in the database file when they are missing, as
    Floe's built-in catalog does when it starts: opened while Floe was creating them, one of
    the two failed ("table iceberg_namespace_properties already exists"). Retried until Floe
    is done."""
    while True:
        try:
            return floe_config.catalog(workdir)
        except Exception:
            if time.monotonic() > deadline or not floe.alive():
                floe.stop()
                raise
            time.sleep(0.1)


def _snapshot_offsets(cat, table_name: str, topic: str) -> list:
    """Every snapshot still in the table's metadata, oldest first: (commit time in ms, its
    floe.offsets for `topic`)."""
    snapshots = sorted(cat.load_table(table_name).metadata.snapshots, key=lambda s: s.timestamp_ms)
    return [(snap.timestamp_ms, floe_config.snapshot_offsets(snap).get(topic, {})) for snap in snapshots]


def _offsets(cat, table_name: str, topic: str) -> dict:
    try:
        return floe_config.committed_offsets(cat.load_table(table_name)).get(topic, {})
    except Exception:  # the table is created with Floe's first commit
        return {}
