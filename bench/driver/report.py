"""The one table `make bench` prints and bench/results/latest.md keeps: every figure in
absolute numbers and as a ratio to the consume-only baseline measured in the same run; the
payload formats against Avro measured in the same run; and, below, the figures of earlier runs
that this run did not measure (carry_over)."""
from __future__ import annotations

import json
import os
import pathlib
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
    ("floe_s3", "floe run --exit-when-caught-up, Avro, warehouse on S3 (S3Proxy on loopback)"),
    ("encode", "encode-only (decode + zstd Parquet, from memory)"),
    ("peer", "peer: Iceberg Kafka Connect sink"),
    ("scale_consume", "scale: consume-only, {partitions} partitions"),
    ("scale_floe", "scale: floe run, {partitions} partitions"),
]


FORMAT_NAMES = {"avro": "Avro", "protobuf": "Protobuf", "json_schema": "JSON Schema", "json": "schemaless JSON"}


def _rows(results: dict) -> list[tuple[str, str]]:
    """ROWS, with one floe and one encode-only row per payload format after Avro's."""
    formats = [f for f in FORMAT_NAMES if f != "avro"
               and (f"floe:{f}" in results["figures"] or f"encode:{f}" in results["figures"])]
    rows = []
    for key, label in ROWS:
        if key in ("floe", "encode") and formats:
            rows.append((key, label + ", Avro"))
            rows += [(f"{key}:{f}", label + f", {FORMAT_NAMES[f]}") for f in formats]
        else:
            rows.append((key, label))
    return rows


def len_topics(key: str, results: dict) -> int:
    """Tables a figure's run wrote: one per scale topic, else one."""
    return max(1, results.get("config", {}).get("scale_topics", 1)) if key.startswith("scale") else 1


def table(results: dict) -> str:
    base = results["figures"].get("consume")
    scale_base = results["figures"].get("scale_consume")
    lines = ["| figure | records/s | ×consume | MB/s | wall s | CPU s | records/CPU-s | ×consume | "
             "payload MiB/s per core | peak RSS MiB |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for key, label in _rows(results):
        f = results["figures"].get(key)
        if f is None:
            continue
        label = label.format(partitions=results.get("config", {}).get("scale_partitions"))
        if "error" in f:
            lines.append(f"| {label} | not measured: {f['error']} | | | | | | | | |")
            continue
        b = scale_base if key.startswith("scale") else base
        r_rate = f["records_per_s"] / b["records_per_s"] if b else None
        r_cpu = (f["records_per_cpu_s"] / b["records_per_cpu_s"]) if b and f.get("records_per_cpu_s") else None
        lines.append(f"| {label} | {_fmt(f['records_per_s'], 0)} | {_fmt(r_rate, 2)} | {_fmt(f['mb_per_s'])} | "
                     f"{_fmt(f['wall_s'], 2)} | {_fmt(f['cpu_s'], 2)} | {_fmt(f.get('records_per_cpu_s'), 0)} | "
                     f"{_fmt(r_cpu, 2)} | {_fmt(f.get('payload_mib_per_cpu_s'), 1)} | {_fmt(f['rss_mib'], 0)} |")
    out = "\n".join(lines)
    per_commit = [f"{label.format(partitions=results.get('config', {}).get('scale_partitions'))}: "
                  f"{f['data_files']} data files in {f['commits']} commits "
                  f"({f['data_files'] / f['commits']:.1f} per commit, {f['commits'] / len_topics(key, results):.1f} "
                  f"commits per table)"
                  for key, label in _rows(results)
                  if (f := results["figures"].get(key)) and "error" not in f and f.get("commits")]
    if per_commit:
        cfg = results.get("config", {})
        out += (f"\n\nFiles per commit (workers: {cfg.get('workers', 'default')}, buffer_memory: "
                f"{cfg.get('buffer_memory', 'default')}): " + "; ".join(per_commit))
    sf, f8 = results["figures"].get("scale_floe"), results["figures"].get("floe")
    if sf and f8 and "error" not in sf and "error" not in f8:
        cfg = results.get("config", {})
        out += (f"\n\n{cfg.get('scale_partitions')} partitions against {cfg.get('partitions')} (issue 17's target: "
                f"≥ 0.5): floe run {sf['records_per_s'] / f8['records_per_s']:.2f}x the records/s "
                f"({cfg.get('scale_records'):,} vs {cfg.get('records'):,} records)")
        sc, c8 = results["figures"].get("scale_consume"), results["figures"].get("consume")
        if sc and c8 and "error" not in sc and "error" not in c8:
            out += f"; consume-only {sc['records_per_s'] / c8['records_per_s']:.2f}x"
    for key, title in (("freshness", "Freshness"), ("freshness_load", "Freshness under load")):
        fr = results["figures"].get(key)
        if not fr:
            continue
        if "error" in fr:
            out += f"\n\n{title}: not measured: {fr['error']}"
            continue
        load = (f" = {fr['fraction_of_floe']:.2f}x floe run's records/s of this run"
                if "fraction_of_floe" in fr else "")
        out += (f"\n\n{title} (commit_interval 1s, {fr['rate']:,.0f} records/s{load} for {fr['seconds']:.0f}s, "
                f"{fr['samples']} samples, catalog polled every {fr['poll_s']}s; issue 17's target: p99 ≤ 1.5 s): "
                f"p50 {fr['p50_s']:.2f}s, p99 {fr['p99_s']:.2f}s, max {fr['max_s']:.2f}s; "
                f"floe peak RSS {fr['floe_rss_mib']:.0f} MiB")
        if "commit_p99_s" in fr:
            out += (f". By the commit time of the first snapshot that covers each sample ({fr['commits']} "
                    f"snapshots, no polling delay): p50 {fr['commit_p50_s']:.2f}s, p99 {fr['commit_p99_s']:.2f}s, "
                    f"max {fr['commit_max_s']:.2f}s")
    f, p = results["figures"].get("floe"), results["figures"].get("peer")
    if f and p and "error" not in p:
        out += (f"\n\nFloe vs peer: {f['records_per_cpu_s'] / p['records_per_cpu_s']:.1f}× the records per CPU-second, "
                f"{f['records_per_s'] / p['records_per_s']:.1f}× the records/s, "
                f"{p['rss_mib'] / f['rss_mib']:.1f}× less peak RSS")
    e = results["figures"].get("encode")
    if e:
        out += (f"\n\nEncode-only split: decode {e['decode_s']:.2f}s, Parquet encode {e['encode_s']:.2f}s; "
                f"{e['parquet_bytes_per_row']:.1f} Parquet bytes per row")
    out += _cpu_bound(results)
    return out


def _cpu_bound(results: dict) -> str:
    """Issue 17's bound on this machine: reading (consume-only) and decoding + encoding
    (encode-only) cost what they cost, and the broker serving the fetches runs on the same
    cores; no pipeline's wall time beats all that CPU spread over every core."""
    figs = results["figures"]
    c, e, f = figs.get("consume"), figs.get("encode"), figs.get("floe")
    if not (c and e and f) or any("error" in x for x in (c, e, f)):
        return ""
    cores = int(results.get("machine", "1 cores").split()[0])
    work = c["cpu_s"] + e["cpu_s"]
    line = (f"\n\nCPU bound (issue 17): consume-only {c['cpu_s']:.2f} + encode-only {e['cpu_s']:.2f} CPU-s = "
            f"{work:.2f} CPU-s for the records: at best {c['records'] / work:,.0f} records/CPU-s and "
            f"{work / cores:.2f} s of wall on {cores} cores ({c['wall_s'] / (work / cores):.2f}x consume-only)")
    if f.get("broker_cpu_s") is not None:
        with_broker = work + f["broker_cpu_s"]
        line += (f"; with the broker's {f['broker_cpu_s']:.2f} CPU-s during floe run "
                 f"(consume-only: {c.get('broker_cpu_s', 0):.2f}), {with_broker / cores:.2f} s "
                 f"({c['wall_s'] / (with_broker / cores):.2f}x)")
    return line + (f". floe run: {f['cpu_s']:.2f} CPU-s ({f['cpu_s'] / work:.2f}x the bound's), "
                   f"{f['wall_s']:.2f} s of wall")


def _pct(v) -> str:
    return "—" if v is None else f"{v * 100:.0f} %"


def formats_section(results: dict) -> str:
    """Issue 13: each payload format against Avro, measured in the same run."""
    ratios = results.get("format_ratios") or {}
    if not ratios:
        return ""
    figs, fmts = results["figures"], results.get("formats", {})
    reps = results.get("config", {}).get("repeats")
    lines = ["## Payload formats against Avro (issue 13)", "",
             f"The same 13-field event (bench/event.cc) in each format, each in a topic of its own; "
             f"median of {reps} runs. ×Avro is the median of the per-repetition ratios (each format "
             f"and Avro run in the same repetition, in rotating order).", "",
             "| format | bytes/record | floe records/s | ×Avro | floe records/CPU-s | ×Avro | "
             "encode-only records/CPU-s | ×Avro | decode s | Parquet s | floe peak RSS MiB |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for fmt, name in FORMAT_NAMES.items():
        fl, en = figs.get("floe" if fmt == "avro" else f"floe:{fmt}"), figs.get("encode" if fmt == "avro" else f"encode:{fmt}")
        if fmt != "avro" and fmt not in ratios:
            continue
        r = ratios.get(fmt, {})
        one = 1.0 if fmt == "avro" else None
        fl = fl if fl and "error" not in fl else {}
        en = en if en and "error" not in en else {}
        lines.append(
            f"| {name} | {_fmt(fmts.get(fmt, {}).get('bytes_per_record'), 0)} | {_fmt(fl.get('records_per_s'), 0)} | "
            f"{_fmt(one or r.get('floe_records_per_s'), 2)} | {_fmt(fl.get('records_per_cpu_s'), 0)} | "
            f"{_fmt(one or r.get('floe_records_per_cpu_s'), 2)} | {_fmt(en.get('records_per_cpu_s'), 0)} | "
            f"{_fmt(one or r.get('encode_records_per_cpu_s'), 2)} | {_fmt(en.get('decode_s'), 2)} | "
            f"{_fmt(en.get('encode_s'), 2)} | {_fmt(fl.get('rss_mib'), 0)} |")
    targets = results.get("targets") or {}
    if targets:
        lines += ["", "Targets (issue 13: `floe run` records per CPU-second, relative to Avro's in the same run; "
                  "encode-only, decode + Parquet from memory, for reference):", ""]
        for fmt, want in targets.items():
            r = ratios.get(fmt)
            if r is None:
                continue
            got = r.get("floe_records_per_cpu_s")
            if got is None:
                lines.append(f"- {FORMAT_NAMES[fmt]} ≥ {_pct(want)} of Avro: **not measured** "
                             f"(floe run did not run or failed for this format)")
                continue
            verdict = "PASS" if got >= want else "FAIL"
            runs = ", ".join(_pct(x) for x in r.get("floe_records_per_cpu_s_runs", []))
            lines.append(f"- {FORMAT_NAMES[fmt]} ≥ {_pct(want)} of Avro's records/CPU-s: **{verdict}** — "
                         f"{_pct(got)} (repetitions: {runs}); encode-only {_pct(r.get('encode_records_per_cpu_s'))}")
    return "\n".join(lines)


def s3_section(results: dict) -> str:
    """Issue 14: the warehouse on a local S3 server against local disk, in the same repetitions."""
    ratios, figs = results.get("s3_ratios"), results["figures"]
    local, s3 = figs.get("floe"), figs.get("floe_s3")
    if not ratios or not local or not s3:
        return ""
    reps = results.get("config", {}).get("repeats")
    lines = ["## Warehouse on S3 against local disk (issue 14)", "",
             f"`floe run --exit-when-caught-up` on the Avro topic, once into a local warehouse and once into a "
             f"fresh bucket of S3Proxy (org.gaul:s3proxy, Java, filesystem backend) on loopback, in every "
             f"repetition; median of {reps}. ×local is the median of the per-repetition ratios. The S3 server "
             f"runs on the same two cores: its CPU seconds are shown, not counted in Floe's.", "",
             "| warehouse | records/s | ×local | records/CPU-s | ×local | MiB stored | MiB/s uploaded | "
             "S3 server CPU s | peak RSS MiB |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
             f"| local disk | {_fmt(local['records_per_s'], 0)} | 1.00 | {_fmt(local['records_per_cpu_s'], 0)} | 1.00 | "
             f"— | — | — | {_fmt(local['rss_mib'], 0)} |",
             f"| S3 | {_fmt(s3['records_per_s'], 0)} | {_fmt(ratios.get('records_per_s'), 2)} | "
             f"{_fmt(s3['records_per_cpu_s'], 0)} | {_fmt(ratios.get('records_per_cpu_s'), 2)} | "
             f"{_fmt(s3['uploaded_mib'], 0)} | {_fmt(s3['uploaded_mib_per_s'])} | {_fmt(s3['server_cpu_s'])} | "
             f"{_fmt(s3['rss_mib'], 0)} |"]
    want = results.get("s3_target")
    got = ratios.get("records_per_s")
    if want and got is not None:
        runs = ", ".join(_pct(x) for x in ratios.get("records_per_s_runs", []))
        lines += ["", f"- Target: S3 ≥ {_pct(want)} of local disk's records/s: **{'PASS' if got >= want else 'FAIL'}** "
                      f"— {_pct(got)} (repetitions: {runs})"]
        extra = s3["rss_mib"] - local["rss_mib"]
        lines.append(f"- Upload memory: peak RSS {_fmt(extra, 0)} MiB above the local-disk run's, within "
                     f"buffer_memory (1024 MiB, the default): **{'PASS' if extra <= 1024 else 'FAIL'}**")
    return "\n".join(lines)


def micro_table(micro: list[dict]) -> str:
    if not micro:
        return ""
    lines = ["| microbenchmark | time/iteration | records/s | bytes/s |", "| --- | ---: | ---: | ---: |"]
    for b in micro:
        name = b["name"] + (f" ({b['label']})" if b.get("label") else "")
        lines.append(f"| {name} | {b['real_time']:.3g} {b['time_unit']} | {b.get('items_per_second') or 0:,.0f} | "
                     f"{_mbps(b.get('bytes_per_second'))} |")
    return "\n".join(lines)


def _scenario(results: dict) -> str:
    c = results["config"]
    out = (f"Scenario: topic of {c['partitions']} partitions, {c['records']:,} Avro records "
           f"({results['payload_bytes_per_record']:.0f} bytes each with the Confluent header), "
           f"commit_interval {c['commit_interval']}, zstd Parquet; median of {c['repeats']} runs "
           f"(peer: {c['peer_repeats']}). Floe commit `{results.get('git', '?')}`.")
    others = [f"{FORMAT_NAMES[f]} {v['bytes_per_record']:.0f} bytes" for f, v in (results.get("formats") or {}).items()
              if f != "avro"]
    if others:
        out += f" The same events in the other formats, a topic each: {', '.join(others)} per record."
    return out


def markdown(results: dict) -> str:
    parts = [
        f"# Floe benchmark results ({results['date']})",
        "",
        f"Machine: {results['machine']}",
        "",
        _scenario(results),
        "",
        table(results),
        "",
    ]
    if formats_section(results):
        parts += [formats_section(results), ""]
    if s3_section(results):
        parts += [s3_section(results), ""]
    parts += [micro_table(results.get("micro", [])), ""]
    for block in results.get("carried") or []:
        parts += [f"## Carried over from the run of {block['date']} (Floe `{block.get('git', '?')}`)", "",
                  "Not measured by the run above (a partial `--only`/`--format`); the ratios are to that run's "
                  "own baselines.", ""]
        if block.get("config") and block.get("payload_bytes_per_record"):
            parts += [_scenario(block), ""]
        if block.get("figures"):
            parts += [table(block), ""]
        if formats_section(block):
            parts += [formats_section(block), ""]
        if s3_section(block):
            parts += [s3_section(block), ""]
        if block.get("micro"):
            parts += [micro_table(block["micro"]), ""]
    return "\n".join(parts)


# The baseline a carried figure's ratios are computed against (it is carried along with it).
_BASELINE = {"scale_floe": "scale_consume", "freshness": None, "freshness_load": None}


def _baseline_of(key: str) -> str | None:
    return _BASELINE.get(key, "consume")


def carry_over(previous_json: pathlib.Path, results: dict) -> list[dict]:
    """The figures of the previous latest.json (and those it carried itself) that this run did
    not measure, each block under the date of the run that measured it, with the baselines their
    ratios need. A format's rows stay only with the Avro rows of their own run."""
    try:
        prev = json.loads(previous_json.read_text())
    except (OSError, ValueError):
        return []
    measured = set(results["figures"])
    blocks = list(prev.get("carried") or [])
    blocks.append({k: prev.get(k) for k in ("date", "git", "config", "payload_bytes_per_record", "figures", "micro",
                                            "formats", "format_ratios", "targets", "s3_ratios", "s3_target")})
    out = []
    for b in blocks:
        own = b.get("figures") or {}
        figs = {k: v for k, v in own.items() if k not in measured}
        if "floe" not in figs:  # a format's ratios are to the Avro run beside it
            figs = {k: v for k, v in figs.items() if ":" not in k}
        dependents = {k for k in figs if k not in ("consume", "scale_consume")}
        baselines = {_baseline_of(k) for k in dependents} - {None}
        if "floe_s3" in dependents:  # its ratios are to the local-disk run beside it
            baselines.add("floe")
        # A dependent keeps its own run's baseline, even when this run measured a new one.
        figs = {k: v for k, v in own.items() if k in dependents or k in baselines}
        micro = None if results.get("micro") else b.get("micro")
        if not figs and not micro:
            continue
        nb = dict(b, figures=figs, micro=micro)
        if not any(":" in k for k in figs):
            nb.pop("format_ratios", None)
        if "floe_s3" not in figs:
            nb.pop("s3_ratios", None)
        out.append(nb)
    return out


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
