"""The one table `make bench` prints and bench/results/latest.md keeps: every figure in
absolute numbers and as a ratio to the consume-only baseline measured in the same run."""
from __future__ import annotations

import os
import platform
import subprocess


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    mem = next((int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal")), 0)
    load = os.getloadavg()
    return (f"{os.cpu_count()} cores ({cpu}), {mem / 2**20:.0f} GiB RAM, Linux {platform.release()}, "
            f"load average at start {load[0]:.2f} (shared machine)")


def _fmt(v, digits=1):
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:,.{digits}f}"
    return f"{v:,}"


ROWS = [  # (key, label)
    ("consume", "consume-only (librdkafka, discard)"),
    ("floe", "floe run --exit-when-caught-up"),
    ("encode", "encode-only (decode + zstd Parquet, from memory)"),
    ("peer", "peer: Iceberg Kafka Connect sink"),
    ("scale_consume", "scale: consume-only, {partitions} partitions"),
    ("scale_floe", "scale: floe run, {partitions} partitions"),
]


def table(results: dict) -> str:
    base = results["figures"].get("consume")
    scale_base = results["figures"].get("scale_consume")
    lines = ["| figure | records/s | ×consume | MB/s | wall s | CPU s | records/CPU-s | ×consume | peak RSS MiB |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for key, label in ROWS:
        f = results["figures"].get(key)
        if f is None:
            continue
        label = label.format(partitions=results["config"].get("scale_partitions"))
        if "error" in f:
            lines.append(f"| {label} | not measured: {f['error']} | | | | | | | |")
            continue
        b = scale_base if key.startswith("scale") else base
        r_rate = f["records_per_s"] / b["records_per_s"] if b else None
        r_cpu = (f["records_per_cpu_s"] / b["records_per_cpu_s"]) if b and f.get("records_per_cpu_s") else None
        lines.append(f"| {label} | {_fmt(f['records_per_s'], 0)} | {_fmt(r_rate, 2)} | {_fmt(f['mb_per_s'])} | "
                     f"{_fmt(f['wall_s'], 2)} | {_fmt(f['cpu_s'], 2)} | {_fmt(f.get('records_per_cpu_s'), 0)} | "
                     f"{_fmt(r_cpu, 2)} | {_fmt(f['rss_mib'], 0)} |")
    out = "\n".join(lines)
    fr = results["figures"].get("freshness")
    if fr:
        if "error" in fr:
            out += f"\n\nFreshness: not measured: {fr['error']}"
        else:
            out += (f"\n\nFreshness (commit_interval 1s, {fr['rate']:.0f} records/s for {fr['seconds']:.0f}s, "
                    f"{fr['samples']} samples, catalog polled every {fr['poll_s']}s): "
                    f"p50 {fr['p50_s']:.2f}s, p99 {fr['p99_s']:.2f}s, max {fr['max_s']:.2f}s; "
                    f"floe peak RSS {fr['floe_rss_mib']:.0f} MiB")
    f, p = results["figures"].get("floe"), results["figures"].get("peer")
    if f and p and "error" not in p:
        out += (f"\n\nFloe vs peer: {f['records_per_cpu_s'] / p['records_per_cpu_s']:.1f}× the records per CPU-second, "
                f"{f['records_per_s'] / p['records_per_s']:.1f}× the records/s, "
                f"{p['rss_mib'] / f['rss_mib']:.1f}× less peak RSS")
    e = results["figures"].get("encode")
    if e:
        out += (f"\n\nEncode-only split: decode {e['decode_s']:.2f}s, Parquet encode {e['encode_s']:.2f}s; "
                f"{e['parquet_bytes_per_row']:.1f} Parquet bytes per row")
    return out


def micro_table(micro: list[dict]) -> str:
    if not micro:
        return ""
    lines = ["| microbenchmark | time/iteration | records/s | bytes/s |", "| --- | ---: | ---: | ---: |"]
    for b in micro:
        lines.append(f"| {b['name']} | {b['real_time']:.3g} {b['time_unit']} | {b.get('items_per_second') or 0:,.0f} | "
                     f"{_mbps(b.get('bytes_per_second'))} |")
    return "\n".join(lines)


def markdown(results: dict) -> str:
    c = results["config"]
    return "\n".join([
        f"# Floe benchmark results ({results['date']})",
        "",
        f"Machine: {results['machine']}",
        "",
        f"Scenario: topic of {c['partitions']} partitions, {c['records']:,} Avro records "
        f"({results['payload_bytes_per_record']:.0f} bytes each with the Confluent header), "
        f"commit_interval {c['commit_interval']}, zstd Parquet; median of {c['repeats']} runs "
        f"(peer: {c['peer_repeats']}). Floe commit `{results.get('git', '?')}`.",
        "",
        table(results),
        "",
        micro_table(results.get("micro", [])),
        "",
    ])


def git_head(root) -> str:
    """HEAD, marked when the work tree has changes (the binary measured may include them)."""
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + (" + uncommitted changes" if dirty else "")
    except OSError:
        return "?"


def _mbps(v) -> str:
    return f"{v / 1e6:,.1f} MB/s" if v else "—"
